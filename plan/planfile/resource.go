package planfile

import "github.com/azsvc/azsvc/plan"

const (
	unknownMarkerKey  = "$azsvc_unknown"
	assignedMarkerKey = "$azsvc_assigned"
)

func encodeAttrs(in []plan.AttributeChange) []plan.AttributeChange {
	out := make([]plan.AttributeChange, len(in))
	for i, a := range in {
		out[i] = plan.AttributeChange{Path: a.Path, Before: encodeMarkers(a.Before), After: encodeMarkers(a.After), ForcesReplacement: a.ForcesReplacement}
	}
	return out
}

func savedPtr(r *plan.Resource) *Resource {
	if r == nil {
		return nil
	}
	s := saved(r, true)
	return &s
}

func saved(r *plan.Resource, withEtag bool) Resource {
	s := Resource{ID: r.ID.String(), Location: r.Location, SKU: r.SKU, Zones: r.Zones, Tags: r.Tags,
		Services: r.Services, Owned: r.Owned}
	if r.Properties != nil {
		s.Properties = encodeMarkers(r.Properties).(map[string]any)
	}
	if withEtag {
		s.Etag = r.Etag
	}
	return s
}

func encodeMarkers(v any) any {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, x := range t {
			out[k] = encodeMarkers(x)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = encodeMarkers(x)
		}
		return out
	}
	if sv, ph, ok := plan.AsServerValue(v); ok {
		phv, _ := plan.Placeholder(v)
		return map[string]any{assignedMarkerKey: map[string]any{"service": sv.Service, "field": sv.Field, "placeholder": ph, "as": phv}}
	}
	if plan.IsUnknown(v) {
		src, field, _ := plan.UnknownSource(v)
		return map[string]any{unknownMarkerKey: map[string]any{"source": string(src), "field": field}}
	}
	return v
}

// decodeMarkers returns a copy of v with the saved markers turned back into
// plan's; the saved plan itself stays as read, so it can still be compared.
func decodeMarkers(v any) any {
	switch t := v.(type) {
	case map[string]any:
		if m, ok := t[assignedMarkerKey].(map[string]any); ok && len(t) == 1 {
			return decodeAssigned(m)
		}
		if m, ok := t[unknownMarkerKey].(map[string]any); ok && len(t) == 1 {
			src, _ := m["source"].(string)
			field, _ := m["field"].(string)
			if src == "" {
				return plan.Unknown
			}
			return plan.AfterApply(plan.Key(src), field)
		}
		out := make(map[string]any, len(t))
		for k, x := range t {
			out[k] = decodeMarkers(x)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = decodeMarkers(x)
		}
		return out
	}
	return v
}

func (s *Resource) resource() (*plan.Resource, error) {
	if s == nil {
		return nil, nil
	}
	id, err := plan.ParseID(s.ID)
	if err != nil {
		return nil, err
	}
	r := &plan.Resource{ID: id, Location: s.Location, SKU: s.SKU, Zones: s.Zones, Tags: s.Tags, Etag: s.Etag,
		Services: s.Services, Owned: s.Owned}
	if s.Properties != nil {
		r.Properties = decodeMarkers(s.Properties).(map[string]any)
	}
	return r, nil
}

func decodeAssigned(m map[string]any) any {
	sv := plan.ServerValue{}
	sv.Service, _ = m["service"].(string)
	sv.Field, _ = m["field"].(string)
	ph, _ := plan.Number(m["placeholder"])
	return plan.ServerAssignedLike(sv, int32(ph), m["as"])
}
