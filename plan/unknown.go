package plan

// Unknown marks a value only Azure can assign (a dynamic private IP, a new
// public IP address, a PLS alias). It renders as JSON null and as
// "(known after apply)" in plans.
var Unknown = unknownValue{}

// AfterApply marks a value that Azure assigns to another resource and that
// this one copies: an NSG rule's destination is the private IP of a frontend
// (field "privateIPAddress") or the address of a public IP (field
// "ipAddress"). Diff resolves it from the observed source when it exists;
// apply resolves it from the result of the step that wrote the source.
func AfterApply(source Key, field string) any { return unknownValue{Source: source, Field: field} }

type unknownValue struct {
	Source Key    // empty when nothing else holds the value
	Field  string // property name in Source's Properties
}

func (unknownValue) MarshalJSON() ([]byte, error) { return []byte("null"), nil }

func (unknownValue) String() string { return "(known after apply)" }

// IsUnknown reports whether v is an Unknown or AfterApply marker.
func IsUnknown(v any) bool { _, ok := v.(unknownValue); return ok }

// UnknownSource returns the resource and field an AfterApply marker copies.
func UnknownSource(v any) (Key, string, bool) {
	u, ok := v.(unknownValue)
	if !ok || u.Source == "" {
		return "", "", false
	}
	return u.Source, u.Field, true
}
