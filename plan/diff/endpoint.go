package diff

import (
	"slices"

	"github.com/azsvc/azsvc/plan"
)

// endpointAttrs are the differences of the consumer side of Private Link
// that comparing fields does not show:
//   - a private endpoint whose connection the PLS owner rejected or removed
//     differs in its connection state, which only a new endpoint resets
//     (arm-rules §7.3): the attribute forces replacement;
//   - an A record copying the address of an endpoint this plan creates (or
//     re-creates) changes: the address is known only after apply, and
//     "(known after apply)" alone does not count as a change
//     (compareValue).
func (d *Result) endpointAttrs(want, got *plan.Resource, attrs []plan.AttributeChange) []plan.AttributeChange {
	switch want.Kind() {
	case plan.KindPrivateEndpoint:
		return lostConnection(got)
	case plan.KindARecord:
		path := []string{"properties", "aRecords"}
		if !plan.HasMarker(want.Properties["aRecords"]) ||
			slices.ContainsFunc(attrs, func(a plan.AttributeChange) bool { return slices.Equal(a.Path, path) }) {
			return nil
		}
		return []plan.AttributeChange{{Path: path, Before: got.Properties["aRecords"], After: want.Properties["aRecords"]}}
	}
	return nil
}

// copiedSource is the endpoint whose address an A record still waits for
// once the known values are resolved: one this plan creates.
func copiedSource(want *plan.Resource) (plan.Key, bool) {
	if want.Kind() != plan.KindARecord {
		return "", false
	}
	for _, v := range plan.AsARecord(want).Addresses() {
		if src, _, ok := plan.UnknownSource(v); ok {
			return src, true
		}
	}
	return "", false
}

// lostConnection is the connection-state change of an endpoint whose
// connection was rejected or removed; nil otherwise.
func lostConnection(got *plan.Resource) []plan.AttributeChange {
	pe := plan.AsPrivateEndpoint(got)
	if got.Kind() != plan.KindPrivateEndpoint || !pe.Lost() {
		return nil
	}
	return []plan.AttributeChange{{
		Path:   []string{"properties", pe.ConnectionList(), "privateLinkServiceConnectionState", "status"},
		Before: pe.Status(), After: plan.Unknown, ForcesReplacement: true,
	}}
}

// Awaiting are the connections left Pending, without those of endpoints
// the diff withdrew.
func (d *Result) Awaiting() []plan.Awaiting {
	var out []plan.Awaiting
	for _, a := range d.res.Awaiting {
		withdrawn := false
		for k := range d.conflicts {
			if k.Address() == a.Address {
				withdrawn = true
				break
			}
		}
		if !withdrawn {
			out = append(out, a)
		}
	}
	return out
}
