package emulator

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/network/armnetwork/v9"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/privatedns/armprivatedns"

	"github.com/azsvc/azsvc/plan/golden"
)

// schemaRoots are the SDK model types of the bodies the emulator binds
// (schema.go), by ARM type; PATCH bodies of Microsoft.Network are UpdateTags'.
var schemaRoots = map[string]any{
	"Microsoft.Network/virtualNetworks":                                armnetwork.VirtualNetwork{},
	"Microsoft.Network/virtualNetworks/subnets":                        armnetwork.Subnet{},
	"Microsoft.Network/publicIPAddresses":                              armnetwork.PublicIPAddress{},
	"Microsoft.Network/loadBalancers":                                  armnetwork.LoadBalancer{},
	"Microsoft.Network/loadBalancers/backendAddressPools":              armnetwork.BackendAddressPool{},
	"Microsoft.Network/loadBalancers/inboundNatRules":                  armnetwork.InboundNatRule{},
	"Microsoft.Network/networkSecurityGroups":                          armnetwork.SecurityGroup{},
	"Microsoft.Network/networkSecurityGroups/securityRules":            armnetwork.SecurityRule{},
	"Microsoft.Network/privateLinkServices":                            armnetwork.PrivateLinkService{},
	"Microsoft.Network/privateLinkServices/privateEndpointConnections": armnetwork.PrivateEndpointConnection{},
	"Microsoft.Network/privateEndpoints":                               armnetwork.PrivateEndpoint{},
	patchRoot:                                                          armnetwork.TagsObject{},
	"Microsoft.Network/privateDnsZones":                                armprivatedns.PrivateZone{},
	"Microsoft.Network/privateDnsZones/virtualNetworkLinks":            armprivatedns.VirtualNetworkLink{},
	"Microsoft.Network/privateDnsZones/A":                              armprivatedns.RecordSet{},
	"Microsoft.Network/privateDnsZones/SOA":                            armprivatedns.RecordSet{},
}

// TestSDKSchemaIsCurrent regenerates sdkschema.json from the pinned SDK
// modules and compares it with the embedded one: a new SDK version that
// adds, renames or drops a member or an enum value fails here until
// `go test ./providers/azure/emulator -run TestSDKSchemaIsCurrent -update`
// rewrites it.
func TestSDKSchemaIsCurrent(t *testing.T) {
	g := &schemaGen{t: t, out: schemaFile{Roots: map[string]string{}, Types: map[string]map[string]string{}, Enums: map[string][]string{}},
		consts: map[string]map[string][]string{}}
	for armType, root := range schemaRoots {
		g.out.Roots[armType] = g.ref(reflect.TypeOf(root))
	}
	data, err := json.MarshalIndent(g.out, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "sdkschema.json", append(data, '\n'))
}

type schemaGen struct {
	t      *testing.T
	out    schemaFile
	consts map[string]map[string][]string // package path → type name → values
}

// ref returns the schema reference of a Go type, describing the named
// types it reaches on the way.
func (g *schemaGen) ref(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Pointer:
		return g.ref(t.Elem())
	case reflect.String:
		if t.PkgPath() == "" {
			return refString
		}
		return g.enum(t)
	case reflect.Bool:
		return refBool
	case reflect.Int, reflect.Int32, reflect.Int64:
		return refInt
	case reflect.Float32, reflect.Float64:
		return refNumber
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return refString // base64
		}
		return "[]" + g.ref(t.Elem())
	case reflect.Map:
		return "map:" + g.ref(t.Elem())
	case reflect.Interface:
		return refAny
	case reflect.Struct:
		if t == reflect.TypeOf(time.Time{}) {
			return refString
		}
		return g.object(t)
	}
	g.t.Fatalf("type %v: no schema reference for %v", t, t.Kind())
	return ""
}

func qualified(t reflect.Type) string {
	return t.PkgPath()[strings.LastIndex(t.PkgPath(), "/arm")+4:] + "." + t.Name()
}

// object describes a model struct: each field's wire name is what the SDK's
// MarshalJSON writes for a value with only that field set.
func (g *schemaGen) object(t reflect.Type) string {
	name := strings.Replace(qualified(t), "network/v9.", "network.", 1)
	if _, done := g.out.Types[name]; done {
		return name
	}
	members := map[string]string{}
	g.out.Types[name] = members
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		v := reflect.New(t).Elem()
		v.Field(i).Set(sample(f.Type))
		data, err := json.Marshal(v.Interface())
		if err != nil {
			g.t.Fatalf("%s.%s: %v", name, f.Name, err)
		}
		var wire map[string]json.RawMessage
		if err := json.Unmarshal(data, &wire); err != nil || len(wire) != 1 {
			g.t.Fatalf("%s.%s marshals as %s: want one member", name, f.Name, data)
		}
		for w := range wire {
			members[w] = g.ref(f.Type)
		}
	}
	return name
}

// sample is a non-nil value of a model field's type, which MarshalJSON writes.
func sample(t reflect.Type) reflect.Value {
	switch t.Kind() {
	case reflect.Pointer:
		return reflect.New(t.Elem())
	case reflect.Slice:
		return reflect.MakeSlice(t, 0, 0)
	case reflect.Map:
		return reflect.MakeMap(t)
	case reflect.Interface:
		return reflect.ValueOf("x").Convert(reflect.TypeOf(""))
	}
	return reflect.New(t).Elem()
}

// enum describes a string enum type by its constants in the SDK's source.
func (g *schemaGen) enum(t reflect.Type) string {
	name := strings.Replace(qualified(t), "network/v9.", "network.", 1)
	if _, done := g.out.Enums[name]; !done {
		values := g.constants(t.PkgPath())[t.Name()]
		if len(values) == 0 {
			g.t.Fatalf("enum %s has no constants", name)
		}
		sort.Strings(values)
		g.out.Enums[name] = values
	}
	return name
}

// constants parses the typed string constants of a package's constants.go,
// where the SDK declares every enum's values.
func (g *schemaGen) constants(pkg string) map[string][]string {
	if c, ok := g.consts[pkg]; ok {
		return c
	}
	dir, err := exec.Command("go", "list", "-f", "{{.Dir}}", pkg).Output()
	if err != nil {
		g.t.Fatalf("go list %s: %v", pkg, err)
	}
	f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(strings.TrimSpace(string(dir)), "constants.go"), nil, 0)
	if err != nil {
		g.t.Fatal(err)
	}
	c := map[string][]string{}
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.CONST {
			continue
		}
		for _, spec := range gd.Specs {
			vs := spec.(*ast.ValueSpec)
			typ, ok := vs.Type.(*ast.Ident)
			if !ok || len(vs.Values) != 1 {
				continue
			}
			if lit, ok := vs.Values[0].(*ast.BasicLit); ok && lit.Kind == token.STRING {
				v, _ := strconv.Unquote(lit.Value)
				c[typ.Name] = append(c[typ.Name], v)
			}
		}
	}
	g.consts[pkg] = c
	return c
}
