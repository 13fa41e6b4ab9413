package plan

import "fmt"

// writer builds the Steps: one ARM write per call, with the complete body
// after the write. A parent's body carries every child as it will be after
// the step, including the children azsvc does not own, exactly as read
// (DESIGN.md "Diff, ownership, order").
type writer struct {
	d       *differ
	steps   []*Step
	parents map[Key]*parentState
}

type parentState struct {
	body    *Resource
	kids    map[Key]*Resource
	etag    string
	deleted bool
}

func newWriter(d *differ) *writer { return &writer{d: d, parents: map[Key]*parentState{}} }

func (w *writer) write(nodes []*opNode, ordered []int) error {
	first := nodes[ordered[0]]
	if !first.inline {
		c := first.change
		st := &Step{Op: first.op, Target: c.ID(), Changes: []*Change{c}}
		if first.op == OpPut {
			st.Body = c.After
		}
		if c.Before != nil && !(first.op == OpPut && c.IsReplace()) {
			st.IfMatch = c.Before.Etag
		}
		w.steps = append(w.steps, st)
		return nil
	}
	ps := w.parent(first.group)
	st := &Step{IfMatch: ps.etag}
	selfPut := false
	for _, i := range ordered {
		n := nodes[i]
		c := n.change
		if len(st.Changes) == 0 || st.Changes[len(st.Changes)-1] != c {
			st.Changes = append(st.Changes, c)
		}
		switch {
		case n.key == first.group && n.op == OpDelete:
			ps.deleted, ps.kids = true, map[Key]*Resource{}
		case n.key == first.group:
			selfPut, ps.deleted, ps.body = true, false, c.After
			if c.IsReplace() {
				ps.etag, st.IfMatch = "", ""
				w.addDesiredKids(ps, first.group)
			}
		case n.op == OpDelete:
			delete(ps.kids, n.key)
		default:
			ps.kids[n.key] = c.After
		}
	}
	if ps.deleted && !selfPut {
		gid, err := ParseID(string(first.group))
		if err != nil {
			return fmt.Errorf("write of %s: %w", first.group, err)
		}
		st.Op, st.Target = OpDelete, gid
		w.steps = append(w.steps, st)
		return nil
	}
	if ps.body == nil {
		return fmt.Errorf("cannot write children of %s: the parent is neither observed nor desired", addressOfKey(first.group))
	}
	st.Op, st.Target, st.Body = OpPut, ps.body.ID, ps.body
	st.Children = sortedResources(ps.kids)
	w.steps = append(w.steps, st)
	return nil
}

// parent returns the running state of a parent: the observed parent and
// children until the first write changes them.
func (w *writer) parent(k Key) *parentState {
	if ps, ok := w.parents[k]; ok {
		return ps
	}
	ps := &parentState{kids: map[Key]*Resource{}}
	if r, ok := w.d.observed.Get(k); ok {
		ps.body, ps.etag = r, r.Etag
		for _, kid := range w.d.obsKids[k] {
			ps.kids[kid.Key()] = kid
		}
	} else if r, ok := w.d.desired.Get(k); ok {
		ps.body = w.d.resolved(r)
	}
	w.parents[k] = ps
	return ps
}

// addDesiredKids fills a re-created parent with its desired children, which
// its delete took away.
func (w *writer) addDesiredKids(ps *parentState, k Key) {
	for _, r := range w.d.desired.Resources() {
		if pid, ok := r.ID.ParentID(); ok && pid.Key() == k && r.Kind().Inline() && !w.d.conflicts[r.Key()] {
			if _, ok := ps.kids[r.Key()]; !ok {
				ps.kids[r.Key()] = w.d.resolved(r)
			}
		}
	}
}

// frontendOnlyKids are the LB children ARM refuses on a load balancer
// without frontends (arm-rules §2.2, LoadBalancerWithoutFrontendIPCantHave
// ChildResources). Backend pools are allowed there.
var frontendOnlyKids = map[Kind]bool{KindProbe: true, KindRule: true}

// dropChildrenOfFrontendlessLBs makes intermediate LB writes valid: a
// partial write that removes the last frontend (its public IP is replaced
// and the LB holds no other frontend) leaves probes and rules out of that
// body. The later write of the same LB carries them again, because the
// writer's running state still holds them. A final write is left alone: a
// frontendless LB with rules there is a real error ARM must report.
func dropChildrenOfFrontendlessLBs(steps []*Step) {
	lastPut := map[Key]int{}
	for i, st := range steps {
		if st.Op == OpPut && st.Target.Kind == KindLoadBalancer {
			lastPut[st.Target.Key()] = i
		}
	}
	for i, st := range steps {
		if st.Op != OpPut || st.Target.Kind != KindLoadBalancer || lastPut[st.Target.Key()] == i || hasFrontend(st.Children) {
			continue
		}
		kept := st.Children[:0:0]
		for _, c := range st.Children {
			if !frontendOnlyKids[c.Kind()] {
				kept = append(kept, c)
			}
		}
		st.Children = kept
	}
}

func hasFrontend(children []*Resource) bool {
	for _, c := range children {
		if c.Kind() == KindFrontend {
			return true
		}
	}
	return false
}
