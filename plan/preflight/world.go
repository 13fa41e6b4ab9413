package preflight

import (
	"maps"
	"slices"

	"github.com/azsvc/azsvc/plan"
)

// world answers what a resource will be after the plan: the last step that
// writes it, or what ARM holds now. It indexes only the steps, so a check
// costs what it reads, not the size of the state (10,000 Services).
type world struct {
	obs     *plan.Index
	final   map[plan.Key]*plan.Step // the last step of each target
	targets []plan.Key              // final targets, sorted
	plsByLB map[plan.Key]int        // private link services per LB after the plan, built on first use
	nodeIPs map[string]string       // the input's Nodes by InternalIP (Scope.NodeIPs)
}

func newWorld(p *plan.Plan, obs *plan.Index) *world {
	w := &world{obs: obs, final: make(map[plan.Key]*plan.Step, len(p.Steps))}
	for _, st := range p.Steps {
		w.final[st.Target.Key()] = st
	}
	w.targets = slices.Sorted(maps.Keys(w.final))
	return w
}

// get returns the top-level resource (or child with its own endpoint, like
// a subnet) k after the plan.
func (w *world) get(k plan.Key) (*plan.Resource, bool) {
	if st, ok := w.final[k]; ok {
		return st.Body, st.Op == plan.OpPut
	}
	return w.obs.Get(k)
}

// created reports whether the plan creates the resource of step st.
func (w *world) created(st *plan.Step) bool {
	_, seen := w.obs.Get(st.Target.Key())
	return st.Op == plan.OpPut && !seen
}

// children are the inline children of parent after the plan.
func (w *world) children(parent plan.Key) []*plan.Resource {
	if st, ok := w.final[parent]; ok {
		return st.Children // nil for a delete
	}
	return w.obs.Children(parent)
}

// puts are the final steps that put a resource of kind k.
func (w *world) puts(k plan.Kind) []*plan.Step {
	var out []*plan.Step
	for _, t := range w.targets {
		if st := w.final[t]; st.Op == plan.OpPut && st.Target.Kind == k {
			out = append(out, st)
		}
	}
	return out
}

// privateLinkServices are the private link services after the plan.
func (w *world) privateLinkServices() []*plan.Resource {
	var out []*plan.Resource
	for _, e := range w.obs.OfKind(plan.KindPrivateLinkService) {
		if _, written := w.final[e.Key]; !written {
			out = append(out, e.R)
		}
	}
	for _, st := range w.puts(plan.KindPrivateLinkService) {
		out = append(out, st.Body)
	}
	return out
}

// plsOnLB counts the private link services on the LB's frontends after the
// plan.
func (w *world) plsOnLB(lb plan.Key) int {
	if w.plsByLB == nil {
		w.plsByLB = map[plan.Key]int{}
		for _, pls := range w.privateLinkServices() {
			seen := map[plan.Key]bool{}
			for _, fe := range plan.AsPrivateLinkService(pls).FrontendIDs() {
				if parent, ok := fe.Parent(); ok && !seen[parent] {
					seen[parent] = true
					w.plsByLB[parent]++
				}
			}
		}
	}
	return w.plsByLB[lb]
}
