package conditions

import (
	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/resolve"
)

// Resource names one Azure resource a Service or endpoint needs, and says
// whether Azure holds it. The values shown beside it are Azure's: a
// resource Azure does not hold shows its name only.
type Resource struct {
	Address string `json:"address"` // e.g. lb/kubernetes/rule/a1b2…-TCP-443
	ID      string `json:"id"`
	Exists  bool   `json:"exists"`
}

// Of reports on every Service and PrivateEndpoint of res's scope (its
// focus, when set), from the resolved state and the plan p made from it:
// what Azure holds of what each needs, and their conditions. res.Observed
// is the one read of ARM both come from.
func Of(res *resolve.Resolved, p *plan.Plan) *Report {
	b := &builder{obs: res.Observed, owned: ownedBy(res.Desired, res.Wanted), changes: countChanges(p), adopted: map[string]bool{}}
	for _, a := range p.Adopted {
		b.adopted[a.Service] = true
	}
	focus := map[string]bool{}
	for _, f := range res.Scope.Focus {
		focus[f] = true
	}
	report := &Report{Services: []Service{}, Endpoints: []Endpoint{}}
	for _, ref := range res.Scope.Services {
		if len(focus) > 0 && !focus[ref.Name] {
			continue
		}
		if key, isEndpoint := plan.EndpointOf(ref.Name); isEndpoint {
			report.Endpoints = append(report.Endpoints, b.endpoint(key, ref.Name))
			continue
		}
		report.Services = append(report.Services, b.service(ref))
	}
	return report
}

// builder holds what every Service's and endpoint's report reads.
type builder struct {
	obs *plan.Index
	// owned maps a Service or endpoint owner name to the desired
	// resources serving it, sorted by kind rank, then key.
	owned   map[string][]*plan.Resource
	changes map[string]*Changes
	adopted map[string]bool // Services whose UID was found in Azure
}

// ownedBy indexes the resources of the states by the Services and
// endpoints they serve. The resolved state comes first: where it holds a
// resource, it is the one written (a public IP pinned by address bound to
// its ID); the wanted state adds what ownership or a missing resource kept
// out of the plan, which the Service needs all the same.
func ownedBy(states ...*plan.State) map[string][]*plan.Resource {
	seen := map[string]map[plan.Key]*plan.Resource{}
	for _, st := range states {
		for k, r := range st.All() {
			if r.Kind() == plan.KindPLSConnection { // an approval, not something a Service needs
				continue
			}
			for _, s := range r.Services {
				if seen[s] == nil {
					seen[s] = map[plan.Key]*plan.Resource{}
				}
				if _, ok := seen[s][k]; !ok {
					seen[s][k] = r
				}
			}
		}
	}
	out := make(map[string][]*plan.Resource, len(seen))
	for s, m := range seen {
		out[s] = plan.SortedResources(m)
	}
	return out
}

// resource is what Azure holds of id: the reference, and the observed
// resource when it exists.
func (b *builder) resource(id plan.ID) (Resource, *plan.Resource) {
	got, ok := b.obs.Get(id.Key())
	return Resource{Address: id.Address(), ID: id.String(), Exists: ok}, got
}
