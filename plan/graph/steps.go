package graph

import (
	"fmt"

	"github.com/azsvc/azsvc/plan"
)

// writer builds the Steps: one ARM write per call, with the complete body
// after the write. A parent's body carries every child as it will be after
// the step, including the children azsvc does not own, exactly as read
// (DESIGN.md "Diff, ownership, order").
type writer struct {
	world   World
	steps   []*plan.Step
	parents map[plan.Key]*parentState
}

type parentState struct {
	body    *plan.Resource
	kids    map[plan.Key]*plan.Resource
	etag    string
	deleted bool
}

func newWriter(w World) *writer { return &writer{world: w, parents: map[plan.Key]*parentState{}} }

func (w *writer) write(ops []op) error {
	first := ops[0]
	if first.group == "" {
		c := first.change
		st := &plan.Step{Op: plan.OpPut, Target: c.ID(), Changes: []*plan.Change{c}}
		if first.delete {
			st.Op = plan.OpDelete
		} else {
			st.Body = c.After
		}
		if c.Before != nil && !(!first.delete && c.IsReplace()) {
			st.IfMatch = c.Before.Etag
		}
		w.steps = append(w.steps, st)
		return nil
	}
	ps := w.parent(first.group)
	st := &plan.Step{IfMatch: ps.etag}
	selfPut := false
	for _, o := range ops {
		c := o.change
		if len(st.Changes) == 0 || st.Changes[len(st.Changes)-1] != c {
			st.Changes = append(st.Changes, c)
		}
		switch {
		case o.key == first.group && o.delete:
			ps.deleted, ps.kids = true, map[plan.Key]*plan.Resource{}
		case o.key == first.group:
			selfPut, ps.deleted, ps.body = true, false, c.After
			if c.IsReplace() {
				ps.etag, st.IfMatch = "", ""
				w.addDesiredKids(ps, first.group)
			}
		case o.delete:
			delete(ps.kids, o.key)
		default:
			ps.kids[o.key] = c.After
		}
	}
	if ps.deleted && !selfPut {
		gid, err := plan.ParseID(string(first.group))
		if err != nil {
			return fmt.Errorf("write of %s: %w", first.group, err)
		}
		st.Op, st.Target = plan.OpDelete, gid
		w.steps = append(w.steps, st)
		return nil
	}
	if ps.body == nil {
		return fmt.Errorf("cannot write children of %s: the parent is neither observed nor desired", first.group.Address())
	}
	st.Op, st.Target, st.Body = plan.OpPut, ps.body.ID, ps.body
	st.Children, st.ChildKeys = plan.SortedResourcesAndKeys(ps.kids)
	w.steps = append(w.steps, st)
	return nil
}

// parent returns the running state of a parent: the observed parent and
// children until the first write changes them.
func (w *writer) parent(k plan.Key) *parentState {
	if ps, ok := w.parents[k]; ok {
		return ps
	}
	ps := &parentState{kids: map[plan.Key]*plan.Resource{}}
	if r, ok := w.world.Observed(k); ok {
		ps.body, ps.etag = r, r.Etag
		for _, kid := range w.world.Children(k) {
			ps.kids[kid.Key()] = kid
		}
	} else if r, ok := w.world.Desired(k); ok {
		ps.body = r
	}
	w.parents[k] = ps
	return ps
}

// addDesiredKids fills a re-created parent with its desired children, which
// its delete took away.
func (w *writer) addDesiredKids(ps *parentState, k plan.Key) {
	for _, r := range w.world.DesiredChildren(k) {
		if _, ok := ps.kids[r.Key()]; !ok {
			ps.kids[r.Key()] = r
		}
	}
}

// frontendOnlyKids are the LB children ARM refuses on a load balancer
// without frontends (arm-rules §2.2, LoadBalancerWithoutFrontendIPCantHave
// ChildResources). Backend pools are allowed there.
var frontendOnlyKids = map[plan.Kind]bool{plan.KindProbe: true, plan.KindRule: true}

// dropChildrenOfFrontendlessLBs makes intermediate LB writes valid: a
// partial write that removes the last frontend (its public IP is replaced
// and the LB holds no other frontend) leaves probes and rules out of that
// body. The later write of the same LB carries them again, because the
// writer's running state still holds them. A final write is left alone: a
// frontendless LB with rules there is a real error ARM must report.
func dropChildrenOfFrontendlessLBs(steps []*plan.Step) {
	lastPut := map[plan.Key]int{}
	for i, st := range steps {
		if st.Op == plan.OpPut && st.Target.Kind == plan.KindLoadBalancer {
			lastPut[st.Target.Key()] = i
		}
	}
	for i, st := range steps {
		if st.Op != plan.OpPut || st.Target.Kind != plan.KindLoadBalancer || lastPut[st.Target.Key()] == i || hasFrontend(st.Children) {
			continue
		}
		kept, keys := st.Children[:0:0], st.ChildKeys[:0:0]
		for j, c := range st.Children {
			if !frontendOnlyKids[c.Kind()] {
				kept = append(kept, c)
				if st.ChildKeys != nil {
					keys = append(keys, st.ChildKeys[j])
				}
			}
		}
		st.Children, st.ChildKeys = kept, nil
		if len(keys) == len(kept) {
			st.ChildKeys = keys
		}
	}
}

func hasFrontend(children []*plan.Resource) bool {
	for _, c := range children {
		if c.Kind() == plan.KindFrontend {
			return true
		}
	}
	return false
}
