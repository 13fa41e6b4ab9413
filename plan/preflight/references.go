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
	w := refWorld{obs: obs, put: map[plan.Key]bool{}, gone: map[plan.Key]bool{}, dropped: map[plan.Key]bool{},
		wholes: map[plan.Kind]bool{}}
	for _, k := range plan.Kinds() {
		if k.Inline() {
			w.wholes[k.Parent()] = true
		}
	}
	var refused []plan.Refusal
	for _, st := range p.Steps {
		w.apply(st)
		if st.Op != plan.OpPut {
			continue
		}
		for _, r := range append([]*plan.Resource{st.Body}, st.Children...) {
			refused = append(refused, w.check(r)...)
		}
	}
	return refused
}

// refWorld is what exists as the steps run. Most references are found by
// key alone (a rule's frontend, probe and pool in the same body; a
// frontend's public IP): only the rest are parsed.
type refWorld struct {
	obs     *plan.Index
	put     map[plan.Key]bool  // written by a step so far: a resource, or an inline child in its parent's body
	gone    map[plan.Key]bool  // deleted by a step so far (top-level)
	dropped map[plan.Key]bool  // read from ARM, then left out of its parent's body or deleted with it
	wholes  map[plan.Kind]bool // kinds written whole with their inline children (load balancers, NSGs)
}

// apply records what step st leaves in ARM. ARM validates a body whole, so
// a step's children are in place before its references are checked.
func (w refWorld) apply(st *plan.Step) {
	k := st.Target.Key()
	if st.Op == plan.OpDelete {
		w.gone[k] = true
		delete(w.put, k)
		w.dropChildren(k, nil)
		return
	}
	rewritten := w.put[k]
	w.put[k] = true
	delete(w.gone, k)
	if !w.wholes[st.Target.Kind] {
		return
	}
	kept := make(map[plan.Key]bool, len(st.Children))
	for i, c := range st.Children {
		if len(st.ChildKeys) == len(st.Children) {
			kept[st.ChildKeys[i]] = true
		} else {
			kept[c.Key()] = true
		}
	}
	if rewritten {
		w.dropPut(k, kept)
	}
	for ck := range kept {
		w.put[ck] = true
		delete(w.dropped, ck)
	}
	w.dropChildren(k, kept)
}

// dropChildren marks the inline children of parent read from ARM that are
// not kept; a delete (kept nil) drops whatever earlier steps put in it too.
func (w refWorld) dropChildren(parent plan.Key, kept map[plan.Key]bool) {
	for _, c := range w.obs.Children(parent) {
		if ck := c.Key(); c.Kind().Inline() && !kept[ck] {
			w.dropped[ck] = true
			delete(w.put, ck)
		}
	}
	if kept == nil {
		w.dropPut(parent, nil)
	}
}

// dropPut marks what earlier steps put under parent and kept leaves out.
func (w refWorld) dropPut(parent plan.Key, kept map[plan.Key]bool) {
	prefix := string(parent) + "/"
	for ck := range w.put {
		if len(ck) > len(prefix) && string(ck[:len(prefix)]) == prefix && !kept[ck] {
			delete(w.put, ck)
			w.dropped[ck] = true
		}
	}
}

// check refuses r's references to what is gone, and its new references to
// what does not exist.
func (w refWorld) check(r *plan.Resource) []plan.Refusal {
	if r == nil {
		return nil
	}
	var refused []plan.Refusal
	var old map[plan.Key]bool
	plan.EachReference(r.Properties, func(ref string) {
		k := plan.KeyOf(ref)
		if w.put[k] {
			return
		}
		if w.gone[k] || w.dropped[k] {
			refused = appendRefusal(refused, r, k, plan.RefuseReferenceDeleted)
			return
		}
		if _, read := w.obs.Get(k); read {
			return
		}
		if old == nil {
			old = w.heldInARM(r.Key())
		}
		if !old[k] && k != r.Key() && w.checkable(k) {
			refused = appendRefusal(refused, r, k, plan.RefuseReferenceMissing)
		}
	})
	return refused
}

// heldInARM are the references the resource k holds in ARM now.
func (w refWorld) heldInARM(k plan.Key) map[plan.Key]bool {
	out := map[plan.Key]bool{}
	if got, ok := w.obs.Get(k); ok {
		for _, d := range plan.Dependencies(got) {
			out[d] = true
		}
	}
	return out
}

// checkable reports whether k names a resource a plan reads, so that its
// absence from the reads means it does not exist.
func (w refWorld) checkable(k plan.Key) bool {
	id, err := plan.ParseID(string(k))
	return err == nil && id.Kind != plan.KindVirtualNetwork
}

func appendRefusal(refused []plan.Refusal, r *plan.Resource, k plan.Key, code plan.RefusalCode) []plan.Refusal {
	other := k.Address()
	for _, x := range refused {
		if x.Other == other && x.Code == code {
			return refused // the same reference in two fields
		}
	}
	return append(refused, plan.Refusal{Address: r.ID.Address(), Code: code, Other: other})
}
