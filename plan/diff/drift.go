package diff

import (
	"slices"
	"strings"

	"github.com/azsvc/azsvc/plan"
)

// Drift compares azsvc's record of what an earlier plan would leave in
// Azure (the desired body of every resource it wrote or found as wanted)
// with what ARM holds now, and lists each recorded resource changed
// outside azsvc since: updated in a field the record sets, or deleted.
// Only such a record tells an edit made in Azure from an edit of the
// inputs; without one there is no drift, only differences (issue 16).
//
// planned are the earlier plan's own changes, by key: a resource whose
// change was never applied (ARM still holds what that plan saw, or a
// create still missing) is pending, not drift. Values Azure assigns are
// compared where the record copies them from a resource ARM holds now (an
// NSG rule's destination is its frontend's address); others match
// anything.
//
// Each drift entry is a Change whose Actions say what happened outside
// azsvc: Before is the record, After what ARM holds now (nil when
// deleted), and Attributes go from the one to the other.
func Drift(record []*plan.Resource, planned map[plan.Key]*plan.Change, observed *plan.Index) []*plan.Change {
	var out []*plan.Change
	for _, rec := range record {
		k := rec.Key()
		prior := planned[k]
		now, ok := observed.Get(k)
		if !ok {
			if prior == nil || !prior.Has(plan.ActionCreate) || prior.Before != nil {
				out = append(out, &plan.Change{Actions: []plan.Action{plan.ActionDelete}, Before: rec, Services: rec.Services})
			}
			continue
		}
		want := resolveRecorded(rec, observed)
		attrs := driftAttrs(want, now)
		if len(attrs) == 0 || pending(prior, want, attrs) {
			continue
		}
		out = append(out, &plan.Change{Actions: []plan.Action{plan.ActionUpdate}, Before: want, After: now,
			Services: rec.Services, Attributes: attrs})
	}
	slices.SortFunc(out, func(a, b *plan.Change) int { return strings.Compare(string(a.Key()), string(b.Key())) })
	return out
}

// driftAttrs are the fields of the record that ARM holds differently now,
// from the recorded value to the current one. An NSG rule's destinations
// still holding a value Azure assigns to a resource gone since are left
// out: nothing says what they should be.
func driftAttrs(want, now *plan.Resource) []plan.AttributeChange {
	var attrs []plan.AttributeChange
	if want.Kind() == plan.KindSecurityRule && slices.ContainsFunc(plan.AsSecurityRule(want).Destinations(), plan.IsUnknown) {
		body := want.Clone()
		plan.WithoutDestinations(body.Properties)
		attrs = compareFields(body, now)
	} else {
		attrs = compareResource(want, now)
	}
	for i, a := range attrs {
		attrs[i].Before, attrs[i].After = a.After, a.Before
	}
	return attrs
}

// pending reports whether the differences are those of the earlier plan's
// own change, not yet applied: ARM holds, in every differing field, what
// that plan saw before it.
func pending(prior *plan.Change, want *plan.Resource, attrs []plan.AttributeChange) bool {
	if prior == nil || prior.Before == nil {
		return false
	}
	before := driftAttrs(want, prior.Before)
	if len(before) != len(attrs) {
		return false
	}
	for i := range attrs {
		if !slices.Equal(attrs[i].Path, before[i].Path) || len(compareAt(attrs[i].After, before[i].After, attrs[i].Path)) > 0 {
			return false
		}
	}
	return true
}

// compareAt compares two values of the field at path as the diff does.
func compareAt(a, b any, path []string) []plan.AttributeChange {
	var out []plan.AttributeChange
	compareValue(clonePath(path), path[len(path)-1], a, b, &out)
	return out
}

// resolveRecorded replaces the record's copies of values Azure assigned to
// another resource by that resource's value now.
func resolveRecorded(rec *plan.Resource, observed *plan.Index) *plan.Resource {
	if !plan.HasMarker(rec.Properties) {
		return rec
	}
	r := rec.Clone()
	r.Properties = plan.MapLeaves(r.Properties, func(v any) any {
		src, field, ok := plan.UnknownSource(v)
		if !ok {
			return v
		}
		if o, found := observed.Get(src); found {
			if s, isString := o.Properties[field].(string); isString && s != "" {
				return s
			}
		}
		return v
	}).(map[string]any)
	plan.Normalize(r)
	return r
}
