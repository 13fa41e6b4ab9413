package plan

import "strings"

// A PUT replaces a resource's whole body, so an update sends what ARM holds
// with the fields azsvc decides laid over it (DESIGN.md "Diff"). Merge and
// Overlay compute that body; WithoutAbsent the body of a create.

// Merge is the body an update of got to want sends: got with want's
// location, SKU, zones, tags and properties laid over it, minus the fields
// ARM rejects next to the ones want sets. It serves want's Services and is
// owned.
func Merge(want, got *Resource) *Resource {
	m := got.Clone()
	m.Properties = Overlay(propsOrEmpty(got.Properties), propsOrEmpty(want.Properties)).(map[string]any)
	if want.SKU != nil {
		m.SKU = Overlay(propsOrEmpty(got.SKU), want.SKU).(map[string]any)
	}
	if want.Location != "" {
		m.Location = want.Location
	}
	if want.Zones != nil {
		m.Zones = append([]string(nil), want.Zones...)
	}
	if len(want.Tags) > 0 && m.Tags == nil {
		m.Tags = map[string]string{}
	}
	for k, v := range want.Tags {
		m.Tags[k] = v
	}
	m.Services, m.Owned = append([]string(nil), want.Services...), true
	dropExcluded(m.Kind(), want.Properties, m.Properties)
	return m
}

func propsOrEmpty(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}

// Overlay returns base with want laid over it. Fields want does not set
// keep their observed values (Azure fills them, and a PUT without them
// would reset them); a desired null removes the field; Unknown in want
// keeps the observed value when there is one. Lists are replaced whole.
func Overlay(base, want any) any {
	if IsUnknown(want) {
		if _, _, ok := UnknownSource(want); !ok && base != nil {
			return CloneValue(base)
		}
		return want
	}
	switch w := want.(type) {
	case map[string]any:
		b, _ := base.(map[string]any)
		out := make(map[string]any, len(b)+len(w))
		for k, v := range b {
			out[k] = CloneValue(v)
		}
		for k, v := range w {
			if v == nil {
				delete(out, k) // a desired null means the field must go
				continue
			}
			out[k] = Overlay(b[k], v)
		}
		return out
	case []any:
		b, _ := base.([]any)
		if named := byName(b); named != nil && byName(w) != nil {
			// Inline sub-resources (a pool's members) are identified by
			// name, not position: a member never takes the fields of the
			// one that was at its index.
			out := make([]any, len(w))
			for i, v := range w {
				out[i] = Overlay(named[strings.ToLower(v.(map[string]any)["name"].(string))], v)
			}
			return out
		}
		out := make([]any, len(w))
		for i, v := range w {
			if len(b) == len(w) {
				out[i] = Overlay(b[i], v)
			} else {
				out[i] = CloneValue(v)
			}
		}
		return out
	}
	return want
}

// byName indexes a list of named objects by lower-cased name; nil when
// the list is empty or an item is not an object with a name of its own.
func byName(l []any) map[string]any {
	if len(l) == 0 {
		return nil
	}
	out := make(map[string]any, len(l))
	for _, v := range l {
		m, ok := v.(map[string]any)
		name, _ := m["name"].(string)
		if !ok || name == "" {
			return nil
		}
		if _, dup := out[strings.ToLower(name)]; dup {
			return nil
		}
		out[strings.ToLower(name)] = m
	}
	return out
}

// WithoutAbsent is the body to create: desired properties set to null
// ("this field must be absent", e.g. a removed DNS label) are left out, as
// ARM's SDKs omit unset fields.
func WithoutAbsent(r *Resource) *Resource {
	if !hasNull(r.Properties) {
		return r
	}
	c := r.Clone()
	c.Properties = Overlay(map[string]any{}, c.Properties).(map[string]any)
	return c
}

// hasNull looks through nested objects only: Overlay replaces lists whole.
func hasNull(v any) bool {
	switch t := v.(type) {
	case nil:
		return true
	case map[string]any:
		for _, x := range t {
			if hasNull(x) {
				return true
			}
		}
	}
	return false
}

// exclusive lists, per kind, observed fields that must go when the desired
// body sets another: ARM rejects a frontend with both a subnet and a public
// IP (arm-rules §2.2); an NSG rule holds its destinations in one form or
// the other, never both (ccm-semantics §5.3).
var exclusive = map[Kind]map[string][]string{
	KindFrontend: {
		"subnet":          {"publicIPAddress", "publicIPPrefix"},
		"publicIPAddress": {"subnet", "privateIPAddress", "privateIPAllocationMethod"},
	},
	KindSecurityRule: {
		destPrefix:   {destPrefixes},
		destPrefixes: {destPrefix},
	},
}

// dropExcluded removes from body what exclusive forbids next to want's
// fields, and a Tcp probe's request path (arm-rules §1.4).
func dropExcluded(k Kind, want, body map[string]any) {
	for field, drop := range exclusive[k] {
		if _, ok := want[field]; ok {
			for _, f := range drop {
				if _, set := want[f]; !set {
					delete(body, f)
				}
			}
		}
	}
	if p, _ := want["protocol"].(string); k == KindProbe && strings.EqualFold(p, "Tcp") {
		if _, set := want["requestPath"]; !set {
			delete(body, "requestPath")
		}
	}
}
