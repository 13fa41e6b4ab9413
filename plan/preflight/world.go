package preflight

import (
	"maps"
	"slices"

	"github.com/azsvc/azsvc/plan"
)

// world is ARM's state as it will be after the plan: the observed state
// with every step applied, and which resources the plan writes.
type world struct {
	obs     *plan.Index
	after   map[plan.Key]*plan.Resource
	kids    map[plan.Key]map[plan.Key]*plan.Resource // parent -> children after
	final   map[plan.Key]*plan.Step                  // the last step of each target
	written map[plan.Key]bool                        // resources a put writes (children included)
	targets []plan.Key                               // final targets, sorted
}

func newWorld(p *plan.Plan, obs *plan.Index) *world {
	w := &world{obs: obs, after: map[plan.Key]*plan.Resource{}, kids: map[plan.Key]map[plan.Key]*plan.Resource{},
		final: map[plan.Key]*plan.Step{}, written: map[plan.Key]bool{}}
	for _, e := range obs.Entries {
		w.after[e.Key] = e.R
		if pk, ok := e.Key.Parent(); ok && e.R.Kind().Parent() != "" {
			w.kid(pk)[e.Key] = e.R
		}
	}
	for _, st := range p.Steps {
		k := st.Target.Key()
		w.final[k] = st
		if st.Op == plan.OpDelete {
			delete(w.after, k)
			for ck := range w.kids[k] {
				delete(w.after, ck)
			}
			delete(w.kids, k)
			continue
		}
		w.after[k], w.written[k] = st.Body, true
		if st.Target.Kind == plan.KindLoadBalancer || st.Target.Kind == plan.KindSecurityGroup {
			for ck := range w.kids[k] {
				delete(w.after, ck)
			}
			w.kids[k] = map[plan.Key]*plan.Resource{}
			for _, c := range st.Children {
				ck := c.Key()
				w.after[ck], w.written[ck] = c, true
				w.kids[k][ck] = c
			}
		}
	}
	w.targets = slices.Sorted(maps.Keys(w.final))
	return w
}

func (w *world) kid(parent plan.Key) map[plan.Key]*plan.Resource {
	if w.kids[parent] == nil {
		w.kids[parent] = map[plan.Key]*plan.Resource{}
	}
	return w.kids[parent]
}

// created reports whether the plan creates k: it writes it and ARM does
// not hold it now.
func (w *world) created(k plan.Key) bool {
	_, seen := w.obs.Get(k)
	return w.written[k] && !seen
}

// children are the children of parent after the plan, in key order.
func (w *world) children(parent plan.Key) []*plan.Resource {
	m := w.kids[parent]
	out := make([]*plan.Resource, 0, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		out = append(out, m[k])
	}
	return out
}

// puts are the final bodies of the resources of kind k the plan writes.
func (w *world) puts(k plan.Kind) []*plan.Step {
	var out []*plan.Step
	for _, t := range w.targets {
		if st := w.final[t]; st.Op == plan.OpPut && st.Target.Kind == k {
			out = append(out, st)
		}
	}
	return out
}
