package preflight

import "github.com/azsvc/azsvc/plan"

// checkReferences refuses a write that references something that will not
// exist when the write runs: neither read from ARM nor put by an earlier
// step (an inline child: not in its parent's body after the steps before,
// or this step's own body), or deleted by an earlier step. ARM refuses such
// a write whole (InvalidResourceReference, arm-rules §2.2), with every
// other change it carries.
//
// A reference the resource already holds in ARM was accepted when it was
// made, so only new references are checked for existence; any reference
// is checked against the deletes before it. References to what a plan does
// not read (virtual networks, NICs, route tables) are not checked.
func checkReferences(p *plan.Plan, obs *plan.Index) []plan.Refusal {
	w := refWorld{obs: obs, gone: map[plan.Key]bool{}, put: map[plan.Key]bool{}, kids: map[plan.Key]map[plan.Key]bool{}}
	var refused []plan.Refusal
	for _, st := range p.Steps {
		k := st.Target.Key()
		if st.Op == plan.OpDelete {
			w.gone[k], w.kids[k] = true, map[plan.Key]bool{}
			delete(w.put, k)
			continue
		}
		w.put[k] = true
		delete(w.gone, k)
		if len(st.Children) > 0 || w.obs.Children(k) != nil {
			// ARM validates the body whole: its children reference one another.
			w.kids[k] = map[plan.Key]bool{}
			for _, c := range st.Children {
				w.kids[k][c.Key()] = true
			}
		}
		for _, r := range append([]*plan.Resource{st.Body}, st.Children...) {
			refused = append(refused, w.check(r)...)
		}
	}
	return refused
}

// refWorld is what exists as the steps run.
type refWorld struct {
	obs  *plan.Index
	gone map[plan.Key]bool              // deleted by a step so far
	put  map[plan.Key]bool              // put by a step so far
	kids map[plan.Key]map[plan.Key]bool // inline children of the parents written so far
}

// check refuses r's references to what is gone, and its new references to
// what does not exist.
func (w refWorld) check(r *plan.Resource) []plan.Refusal {
	if r == nil {
		return nil
	}
	old := map[plan.Key]bool{}
	if got, ok := w.obs.Get(r.Key()); ok {
		for _, k := range plan.Dependencies(got) {
			old[k] = true
		}
	}
	var refused []plan.Refusal
	for _, k := range plan.Dependencies(r) {
		id, err := plan.ParseID(string(k))
		if err != nil || id.Kind == plan.KindVirtualNetwork {
			continue
		}
		exists, deleted := w.exists(id)
		switch {
		case deleted:
			refused = append(refused, plan.Refusal{Address: r.ID.Address(), Code: plan.RefuseReferenceDeleted, Other: id.Address()})
		case !exists && !old[k]:
			refused = append(refused, plan.Refusal{Address: r.ID.Address(), Code: plan.RefuseReferenceMissing, Other: id.Address()})
		}
	}
	return refused
}

// exists reports whether id exists at this point of the plan, and whether
// a step deleted it (or its parent).
func (w refWorld) exists(id plan.ID) (exists, deleted bool) {
	k := id.Key()
	if id.Kind.Inline() {
		parent, _ := id.ParentID()
		pk := parent.Key()
		if kids, written := w.kids[pk]; written {
			return kids[k], w.gone[pk] || !kids[k] && w.hadChild(pk, k)
		}
	}
	if w.gone[k] {
		return false, true
	}
	if w.put[k] {
		return true, false
	}
	_, ok := w.obs.Get(k)
	return ok, false
}

// hadChild reports whether ARM holds child k of parent: a child a step
// dropped from the body counts as deleted.
func (w refWorld) hadChild(parent, k plan.Key) bool {
	for _, c := range w.obs.Children(parent) {
		if c.Key() == k {
			return true
		}
	}
	return false
}
