package plan

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"
)

// Values the Kubernetes API server assigns (DESIGN.md): a Service's UID,
// its ports' nodePorts, its healthCheckNodePort, and the node addresses
// of the cluster. A GitOps repository or a Helm chart holds none of them.
// When neither the input nor what Azure holds gives one, it is an unknown
// of the core's value model, as Terraform's "known after apply": desired
// state carries it, the diff compares it, Unresolved lists the changes
// that need it (apply refuses them), and renderers word it with
// ServerAssignedText.
//
// Two of them become part of names: the UID is the name prefix of a
// Service's resources, and the healthCheckNodePort names the ETP Local
// probe. They stand in names as placeholders (UIDPlaceholderPrefix,
// PortPlaceholder) that are valid ARM names, so that a base→head plan can
// write them into a throwaway emulator, and that CCM can never have built.

// ServerAssignedText is how plans and renders show such a value.
const ServerAssignedText = "(assigned by the API server)"

// The values the API server assigns, as ServerValue.Field names them.
const (
	FieldUID                 = "metadata.uid"
	FieldHealthCheckNodePort = "spec.healthCheckNodePort"
	FieldNodeIPs             = "the node IPs"
)

// NodePortField names the nodePort of a Service port, by protocol and
// number: the index in spec.ports may change while the port stays.
func NodePortField(proto string, port int32) string {
	return "spec.ports[" + strconv.Itoa(int(port)) + "/" + proto + "].nodePort"
}

// ServerValue is one value the API server assigns that the input lacks.
type ServerValue struct {
	Service string `json:"service"` // namespace/name; "" for the node IPs
	Field   string `json:"field"`
}

// serverValue is the marker of a ServerValue in a Resource body. Its
// placeholder is what stands for it where a number is needed (a
// throwaway emulator; the name of the ETP Local probe): two markers are
// the same unknown exactly when their placeholders are equal.
type serverValue struct {
	ServerValue
	placeholder int32
	form        placeholderForm
}

// placeholderForm is how a placeholder is written where a body needs one.
type placeholderForm uint8

const (
	asNumber  placeholderForm = iota
	asString                  // an NSG rule's port list holds strings
	asAddress                 // an NSG rule's destination addresses
)

// ServerAssigned is the marker of v, with its placeholder.
func ServerAssigned(v ServerValue, placeholder int32) any {
	return serverValue{ServerValue: v, placeholder: placeholder}
}

// ServerAssignedString is ServerAssigned where the body holds the value as
// a string (an NSG rule's destinationPortRanges).
func ServerAssignedString(v ServerValue, placeholder int32) any {
	return serverValue{ServerValue: v, placeholder: placeholder, form: asString}
}

// ServerAssignedLike is the marker of v whose placeholder a body holds as
// written (Placeholder): what a saved plan keeps of it.
func ServerAssignedLike(v ServerValue, placeholder int32, written any) any {
	s := serverValue{ServerValue: v, placeholder: placeholder}
	if w, ok := written.(string); ok {
		s.form = asString
		if strings.Contains(w, ".") {
			s.form = asAddress
		}
	}
	return s
}

// NodeIPs is the marker of the node addresses of a backend pool that the
// input (no Nodes) and Azure (a pool listing NICs, or none yet) do not
// show: the destinations of an NSG rule with floating IP disabled. CCM
// builds no rule without them (ccm-semantics §5.2, §5.5), so neither may
// apply.
func NodeIPs(pool Key) any {
	v := ServerValue{Field: FieldNodeIPs + " of " + pool.Address()}
	return serverValue{ServerValue: v, placeholder: PortPlaceholder(v, nil), form: asAddress}
}

// Placeholder is what a body written to a throwaway emulator holds for a
// ServerAssigned marker: its placeholder, as a number or a string.
func Placeholder(v any) (any, bool) {
	s, ok := v.(serverValue)
	switch {
	case !ok:
		return nil, false
	case s.form == asString:
		return strconv.Itoa(int(s.placeholder)), true
	case s.form == asAddress:
		// 240.0.0.0/4 is reserved: never a node's address.
		n := uint32(s.placeholder)
		return fmt.Sprintf("240.%d.%d.%d", n>>16&0xff, n>>8&0xff, n&0xff), true
	}
	return int(s.placeholder), true
}

func (serverValue) MarshalJSON() ([]byte, error) { return []byte("null"), nil }

func (s serverValue) String() string {
	if s.form == asAddress {
		return "(the node IPs, from the cluster's Nodes)"
	}
	return ServerAssignedText
}

// AsServerValue reports whether v is a ServerAssigned marker.
func AsServerValue(v any) (ServerValue, int32, bool) {
	s, ok := v.(serverValue)
	return s.ServerValue, s.placeholder, ok
}

// SameServerValue reports whether got is the unknown want marks: the same
// marker, or its placeholder as a throwaway emulator returns it (a number,
// or a string in an NSG rule's port list).
func SameServerValue(want, got any) bool {
	_, ph, ok := AsServerValue(want)
	if !ok {
		return false
	}
	if _, gph, ok := AsServerValue(got); ok {
		return gph == ph
	}
	if n, ok := Number(got); ok {
		return n == float64(ph)
	}
	s, ok := got.(string)
	if !ok {
		return false
	}
	if w := want.(serverValue); w.form == asAddress {
		placeholder, _ := Placeholder(want)
		return s == placeholder
	}
	return s == strconv.Itoa(int(ph))
}

// HasServerValue reports whether v holds a ServerAssigned marker anywhere.
func HasServerValue(v any) bool {
	found := false
	EachServerValue(v, func(ServerValue) { found = true })
	return found
}

// EachServerValue calls f with every ServerAssigned marker in v.
func EachServerValue(v any, f func(ServerValue)) {
	eachLeaf(v, func(leaf any) {
		if s, ok := leaf.(serverValue); ok {
			f(s.ServerValue)
		}
	})
}

// Port placeholders lie above every port number (1..65535) and fit an
// int32: ARM bodies hold ports as 32-bit integers.
const (
	portPlaceholderMin  = 1 << 24
	portPlaceholderSpan = 1<<31 - 1 - portPlaceholderMin
)

// PortPlaceholder is the number that stands for an unknown port of a
// Service (what: NodePortField or FieldHealthCheckNodePort): the same for
// the same Service port on every run, so that a base→head plan compares
// the unknowns of an unchanged port equal. taken reports numbers already
// given to another unknown of the same build; the next free one is used.
func PortPlaceholder(v ServerValue, taken func(int32) bool) int32 {
	h := fnv.New64a()
	h.Write([]byte(v.Service + "|" + v.Field))
	n := int32(portPlaceholderMin + h.Sum64()%portPlaceholderSpan)
	for taken != nil && taken(n) {
		n = portPlaceholderMin + (n-portPlaceholderMin+1)%portPlaceholderSpan
	}
	return n
}

// IsPortPlaceholder reports whether n can only be a port placeholder.
func IsPortPlaceholder(n int64) bool { return n >= portPlaceholderMin && n <= 1<<31-1 }

// UIDPlaceholderPrefix stands for the name prefix of a Service whose UID
// the API server has not assigned yet: "ax" and the first 30 hex digits of
// the SHA-256 of namespace/name. It is as long as CCM's prefix ("a" and 31
// hex digits of the UID, so name cutting works alike), a valid ARM name,
// and never CCM's: a UID is hexadecimal, "x" is not. It replaces the
// UUIDv5 azsvc used to derive, which named resources CCM never builds
// once the API server assigns the real UID.
func UIDPlaceholderPrefix(service string) string {
	sum := sha256.Sum256([]byte(service))
	return "ax" + hex.EncodeToString(sum[:])[:UIDPrefixLen-2]
}

// IsUIDPlaceholder reports whether the lower-case token starts with a
// UIDPlaceholderPrefix.
func IsUIDPlaceholder(token string) bool {
	return len(token) >= UIDPrefixLen && token[0] == 'a' && token[1] == 'x' && isHex(token[2:UIDPrefixLen])
}

func isHex(s string) bool {
	for _, c := range s {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// ShowName words the placeholders in a resource name: a UID placeholder
// prefix, and a port placeholder ending a rule or probe name
// (-TCP-<placeholder>), become ServerAssignedText. Other names are
// returned as they are.
func ShowName(name string) string {
	if isUnknownHash(name) {
		return name[:len(name)-hashLen] + ServerAssignedText
	}
	tokens := strings.Split(name, "-")
	changed := false
	for i, t := range tokens {
		switch {
		case IsUIDPlaceholder(strings.ToLower(t)):
			tokens[i] = ServerAssignedText + t[UIDPrefixLen:]
			changed = true
		case i > 0 && isPortToken(t) && isProtocolToken(tokens[i-1]):
			tokens[i] = ServerAssignedText
			changed = true
		}
	}
	if !changed {
		return name
	}
	return strings.Join(tokens, "-")
}

func isPortToken(t string) bool {
	n, err := strconv.ParseInt(t, 10, 64)
	return err == nil && IsPortPlaceholder(n)
}

func isProtocolToken(t string) bool {
	switch strings.ToUpper(t) {
	case "TCP", "UDP", "SCTP":
		return true
	}
	return false
}

// hashLen is the length of the md5 hex digest ending CCM's NSG rule names.
const hashLen = 32

// UnknownHashName marks a name that ends in a hash of values one of which
// the API server assigns (an NSG rule's ports with floating IP disabled):
// the digest's first digit becomes "x", which no hex digest has, so
// ShowName words it and it never matches a rule CCM built.
func UnknownHashName(name string) string {
	if len(name) < hashLen {
		return name
	}
	return name[:len(name)-hashLen] + "x" + name[len(name)-hashLen+1:]
}

func isUnknownHash(name string) bool {
	if len(name) < hashLen+1 || name[len(name)-hashLen-1] != '_' {
		return false
	}
	tail := name[len(name)-hashLen:]
	return tail[0] == 'x' && isHex(tail[1:])
}

// Shown is Address with the placeholders in its names worded (ShowName):
// what text and markdown print. Address itself stays unique, for JSON.
func (id ID) Shown() string { return id.address(ShowName(id.Name())) }

// ShownAddress words the placeholders of an address or ID string.
func ShownAddress(s string) string {
	if id, err := ParseID(s); err == nil {
		return id.Shown()
	}
	parts := strings.Split(s, "/")
	for i, p := range parts {
		parts[i] = ShowName(p)
	}
	return strings.Join(parts, "/")
}
