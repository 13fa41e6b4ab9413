package emulator

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// Request bodies are bound to the resource provider's contract, as ARM's
// providers bind them (issue 21 item 7). The contract is the pinned Go SDK's
// model types, reflected into sdkschema.json by TestSDKSchemaIsCurrent, which
// fails when the SDK moves on: the emulator does not link the SDK (the azsvc
// binary stays without it) and the table cannot drift from it.
//
// What NRP does, from its answers (arm-rules §2): member names bind
// case-insensitively, as Json.NET's do (Azure/azure-cli#1619: NRP bound
// "BackendAddresses" and failed on its value); an unknown member or a value
// that does not convert is 400 InvalidRequestFormat "Cannot parse the
// request." with an InvalidJson detail naming the path (Azure/azure-cli#1619,
// "Error converting value \"playground\" to type '…IpAllocationMethod'. Path
// 'properties.publicIPAllocationMethod'"). The Private DNS provider ignores
// an unknown member (Azure/terraform-provider-azapi#649: a link body with
// virtualNetwork.registrationEnabled was read, and failed only on the
// missing properties.registrationEnabled), so its bodies lose them.
//
//go:embed sdkschema.json
var sdkSchemaJSON []byte

// patchRoot is the contract of a Microsoft.Network PATCH (UpdateTags).
const patchRoot = "Microsoft.Network/*#PATCH"

// Schema references: a scalar, "[]ref", "map:ref", or a type or enum name.
const (
	refString = "string"
	refBool   = "bool"
	refInt    = "int"
	refNumber = "number"
	refAny    = "any"
)

// nrpExtras are members real NRP answers, and so takes back, that the SDK's
// models lack (cloud-provider-azure's recorded traffic at 2025-05-01,
// pkg/azclient/{privateendpoint,privatelinkservice}client/testdata; the
// emulator answers them too).
var nrpExtras = map[string]map[string]string{
	"network.PrivateEndpointProperties":    {"isIPv6EnabledPrivateEndpoint": refBool, "resourceGuid": refString},
	"network.PrivateLinkServiceProperties": {"resourceGuid": refString},
}

// schemaFile is sdkschema.json.
type schemaFile struct {
	Roots map[string]string            `json:"roots"` // ARM type → root type
	Types map[string]map[string]string `json:"types"` // type → member → reference
	Enums map[string][]string          `json:"enums"` // enum → values
}

// schema is sdkschema.json with lower-cased indexes for binding.
type schema struct {
	schemaFile
	members map[string]map[string]string // type → lower member → member
	values  map[string]map[string]string // enum → lower value → value
}

var loadSchema = sync.OnceValue(func() *schema {
	s := &schema{members: map[string]map[string]string{}, values: map[string]map[string]string{}}
	if err := json.Unmarshal(sdkSchemaJSON, &s.schemaFile); err != nil {
		panic(fmt.Sprintf("emulator: embedded sdkschema.json: %v", err)) // a build defect, caught by every test
	}
	for name, extra := range nrpExtras {
		if s.Types[name] == nil {
			s.Types[name] = map[string]string{}
		}
		for m, ref := range extra {
			s.Types[name][m] = ref
		}
	}
	for name, members := range s.Types {
		s.members[name] = lowerIndex(keys(members))
	}
	for name, values := range s.Enums {
		s.values[name] = lowerIndex(values)
	}
	return s
})

func keys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

func lowerIndex(names []string) map[string]string {
	m := make(map[string]string, len(names))
	for _, n := range names {
		m[strings.ToLower(n)] = n
	}
	return m
}

// bindBody checks a request body against the contract of armType (for a
// PATCH of Microsoft.Network, UpdateTags'), spelling member names and enum
// values as the contract does. A type without a contract is left as sent.
func bindBody(body obj, armType, method string) *armError {
	s := loadSchema()
	dns := strings.HasPrefix(armType, typeZone)
	if method == http.MethodPatch && !dns {
		armType = patchRoot
	}
	root := s.Roots[armType]
	if root == "" {
		return nil
	}
	b := &binder{s: s, dropUnknown: dns}
	b.object(body, root)
	if len(b.errs) == 0 {
		return nil
	}
	sort.Slice(b.errs, func(i, j int) bool { return b.errs[i].Message < b.errs[j].Message })
	e := badRequest("InvalidRequestFormat", "Cannot parse the request.")
	e.Details = b.errs[:min(len(b.errs), 10)]
	return e
}

type binder struct {
	s           *schema
	dropUnknown bool
	errs        []armError
	at          []step // where the value being bound sits, spelled out only for an error
}

// step is one step of a path: a member, or ("") an array element.
type step struct {
	member string
	index  int
}

func (b *binder) enter(member string, index int) { b.at = append(b.at, step{member, index}) }
func (b *binder) leave()                         { b.at = b.at[:len(b.at)-1] }

// path renders where the binder is as Json.NET does: properties.rules[0].name.
func (b *binder) path() string {
	var sb strings.Builder
	for _, s := range b.at {
		switch {
		case s.member == "":
			sb.WriteString("[" + strconv.Itoa(s.index) + "]")
		case sb.Len() > 0:
			sb.WriteString("." + s.member)
		default:
			sb.WriteString(s.member)
		}
	}
	return sb.String()
}

// bind binds the value at one more step.
func (b *binder) bind(v any, ref, member string, index int) any {
	b.enter(member, index)
	defer b.leave()
	return b.value(v, ref)
}

func (b *binder) fail(format string, args ...any) {
	b.errs = append(b.errs, armError{Code: "InvalidJson", Message: fmt.Sprintf(format, args...), Details: []armError{}})
}

func (b *binder) notConverted(v any, to string) {
	raw, _ := json.Marshal(v)
	b.fail("Error converting value %s to type '%s'. Path '%s'.", raw, to, b.path())
}

// object binds an object's members in place. Of two spellings of one
// member, the contract's wins (Json.NET takes the later one in the text,
// which a decoded object no longer knows).
func (b *binder) object(m obj, typ string) {
	members := b.s.Types[typ]
	var renamed map[string]string // member as sent → as the contract spells it
	for n, v := range m {
		ref, ok := members[n] // the common case: spelled as the contract spells it
		if ok {
			m[n] = b.bind(v, ref, n, 0)
			continue
		}
		canon, ok := b.s.members[typ][strings.ToLower(n)]
		switch {
		case ok:
			if renamed == nil {
				renamed = map[string]string{}
			}
			renamed[n] = canon
		case b.dropUnknown:
			delete(m, n)
		default:
			b.enter(n, 0)
			b.fail("Could not find member '%s' on object of type '%s'. Path '%s'.", n, shortName(typ), b.path())
			b.leave()
		}
	}
	for n, canon := range renamed {
		v := m[n]
		delete(m, n)
		if _, spelled := m[canon]; !spelled {
			m[canon] = b.bind(v, members[canon], n, 0)
		}
	}
}

// value binds one value to a reference and returns it as the contract
// spells it.
func (b *binder) value(v any, ref string) any {
	if v == nil || ref == refAny {
		return v
	}
	switch {
	case strings.HasPrefix(ref, "[]"):
		arr, ok := v.([]any)
		if !ok {
			b.notConverted(v, "array")
			return v
		}
		for i := range arr {
			arr[i] = b.bind(arr[i], ref[2:], "", i)
		}
		return arr
	case strings.HasPrefix(ref, "map:"):
		m, ok := v.(obj)
		if !ok {
			b.notConverted(v, "object")
			return v
		}
		for k := range m {
			m[k] = b.bind(m[k], ref[4:], k, 0)
		}
		return m
	}
	if values, ok := b.s.values[ref]; ok {
		s, _ := v.(string)
		switch canon, ok := values[strings.ToLower(s)]; {
		case ok && canon == s:
			return v
		case ok:
			return canon
		}
		b.notConverted(v, shortName(ref))
		return v
	}
	if _, ok := b.s.Types[ref]; ok {
		if m, ok := v.(obj); ok {
			b.object(m, ref)
			return m
		}
		b.notConverted(v, shortName(ref))
		return v
	}
	return b.scalar(v, ref)
}

// scalar converts as Json.NET converts a JSON token to a .NET scalar: a
// number is a string's value too, and a string of digits is a number's.
func (b *binder) scalar(v any, ref string) any {
	switch x := v.(type) {
	case string:
		switch {
		case ref == refString:
			return v
		case ref == refBool && (strings.EqualFold(x, "true") || strings.EqualFold(x, "false")):
			return strings.EqualFold(x, "true")
		case ref == refInt || ref == refNumber:
			if n, err := strconv.ParseFloat(x, 64); err == nil && (ref == refNumber || n == float64(int64(n))) {
				return n
			}
		}
	case bool:
		switch ref {
		case refBool:
			return v
		case refString:
			return fmt.Sprint(x)
		}
	case int:
		switch ref {
		case refInt, refNumber:
			return v
		case refString:
			return fmt.Sprint(x)
		}
	case float64:
		switch {
		case ref == refNumber || ref == refInt && x == float64(int64(x)):
			return v
		case ref == refString:
			return fmt.Sprint(x)
		}
	}
	b.notConverted(v, map[string]string{refString: "String", refBool: "Boolean", refInt: "Int64", refNumber: "Double"}[ref])
	return v
}

// shortName drops the SDK package of a type name (network.LoadBalancer).
func shortName(ref string) string {
	return ref[strings.IndexByte(ref, '.')+1:]
}
