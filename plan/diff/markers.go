package diff

import "github.com/azsvc/azsvc/plan"

// markers resolves the AfterApply markers of desired bodies to values
// already known: the desired source's value, else the observed source's
// value when the source is neither created nor re-created by this plan
// (DESIGN.md "Values only Azure can assign"). changes is the diff's, read
// as it stands when a body is resolved.
type markers struct {
	wanted   *plan.State
	observed *plan.Index
	changes  map[plan.Key]*plan.Change
}

// resolve returns want with the markers whose values are known replaced.
func (m markers) resolve(want *plan.Resource) *plan.Resource {
	if !plan.HasMarker(want.Properties) {
		return want
	}
	w := want.Clone()
	w.Properties = plan.MapLeaves(w.Properties, m.leaf).(map[string]any)
	plan.Normalize(w)
	return w
}

func (m markers) leaf(v any) any {
	if _, _, byAddr := plan.ParsePublicIPByAddress(v); byAddr {
		return v // not found by resolve: the Service fails
	}
	if src, field, ok := plan.UnknownSource(v); ok {
		if val, ok := m.knownValue(src, field); ok {
			return val
		}
	}
	return v
}

func (m markers) knownValue(src plan.Key, field string) (any, bool) {
	if c := m.changes[src]; c != nil && c.Has(plan.ActionCreate) {
		return nil, false
	}
	if w, ok := m.wanted.Get(src); ok {
		if v, ok := w.Properties[field]; ok && v != nil && !plan.IsUnknown(v) {
			return v, true
		}
	}
	if o, ok := m.observed.Get(src); ok {
		if v, ok := o.Properties[field].(string); ok && v != "" {
			return v, true
		}
	}
	return nil, false
}
