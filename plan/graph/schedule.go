// Package graph orders a plan's changes into ARM writes. dag.go is a small
// scheduler over operations, write groups and edges that knows nothing of
// Azure; Schedule builds its graph from changes and references and turns
// the writes it returns into plan.Steps with complete bodies.
package graph

import (
	"maps"
	"slices"

	"github.com/azsvc/azsvc/plan"
)

// World is what scheduling reads besides the changes: ARM's references and
// the bodies of parents written whole.
type World interface {
	// Referrers are the observed resources that reference k.
	Referrers(k plan.Key) []plan.Key
	// Children are the observed children of parent.
	Children(parent plan.Key) []*plan.Resource
	// Observed returns the observed resource k.
	Observed(k plan.Key) (*plan.Resource, bool)
	// Desired returns the desired body of k.
	Desired(k plan.Key) (*plan.Resource, bool)
	// DesiredChildren are the planned inline children of parent: what a
	// re-created parent holds again.
	DesiredChildren(parent plan.Key) []*plan.Resource
}

// Input is what Schedule orders: the changes, the world they happen in, and
// what the plan reports besides them.
type Input interface {
	World
	// Changes are the planned changes, sorted by key.
	Changes() []*plan.Change
	Blocked() []plan.Blocked
	NoOp() int
}

// Schedule orders the changes of in into writes (DESIGN.md "Order"):
//   - creates and updates run after the creates/updates of what they
//     reference (dependency-first);
//   - deletes run after the deletes of what referenced them in the observed
//     state, and after an update that drops such a reference (dependents
//     first; the dropped reference goes first, unlike Terraform's default);
//   - a replace's create runs after its delete.
//
// An operation on an inline child (LB frontend, rule, probe, pool; NSG
// rule) or on an LB/NSG itself belongs to its parent's write: one PUT per
// changed load balancer or NSG per step.
func Schedule(in Input) (*plan.Plan, error) {
	changes := in.Changes()
	b := &builder{world: in, g: New(), puts: map[plan.Key]int{}, dels: map[plan.Key]int{}}
	b.addNodes(changes)
	b.addEdges()
	writes, err := b.g.Schedule()
	if err != nil {
		return nil, err
	}
	w := newWriter(in)
	p := &plan.Plan{Blocked: in.Blocked(), NoOp: in.NoOp()}
	for _, idx := range writes {
		ops := make([]op, len(idx))
		for i, n := range idx {
			ops[i] = b.ops[n]
		}
		if err := w.write(ops); err != nil {
			return nil, err
		}
	}
	p.Steps = w.steps
	dropChildrenOfFrontendlessLBs(p.Steps)
	seen := map[*plan.Change]bool{}
	for _, st := range p.Steps {
		for _, c := range st.Changes {
			if !seen[c] {
				seen[c] = true
				p.Changes = append(p.Changes, c)
			}
		}
	}
	b.setDependsOn()
	return p, nil
}

// op is one node's operation: a change's put or delete.
type op struct {
	change *plan.Change
	key    plan.Key
	delete bool
	group  plan.Key // "" for a write of its own
}

type builder struct {
	world Input
	g     *Graph
	ops   []op
	puts  map[plan.Key]int
	dels  map[plan.Key]int
}

func (b *builder) addNodes(changes []*plan.Change) {
	for _, c := range changes {
		k := c.Key()
		if c.Has(plan.ActionDelete) {
			b.dels[k] = b.newNode(k, c, true)
		}
		if c.After != nil {
			b.puts[k] = b.newNode(k, c, false)
		}
		if c.IsReplace() {
			b.g.Connect(b.dels[k], b.puts[k], true)
		}
	}
}

func (b *builder) newNode(key plan.Key, c *plan.Change, del bool) int {
	id := c.ID()
	n := Node{Key: key, Rank: id.Kind.Rank(), Delete: del, Label: label(c, del)}
	switch {
	case id.Kind.Inline():
		pid, _ := id.ParentID()
		n.Group, n.GroupRank = pid.Key(), pid.Kind.Rank()
	case id.Kind == plan.KindLoadBalancer || id.Kind == plan.KindSecurityGroup:
		n.Group, n.GroupRank = key, id.Kind.Rank()
	}
	b.ops = append(b.ops, op{change: c, key: key, delete: del, group: n.Group})
	return b.g.Add(n)
}

func label(c *plan.Change, del bool) string {
	verb := "update"
	switch {
	case del:
		verb = "delete"
	case c.Has(plan.ActionCreate):
		verb = "create"
	}
	return verb + " " + c.ID().Address()
}

func (b *builder) addEdges() {
	for i, o := range b.ops {
		id := o.change.ID()
		if !o.delete {
			for _, ref := range plan.Dependencies(o.change.After) {
				if j, ok := b.puts[ref]; ok {
					b.g.Connect(j, i, false)
				}
			}
			if pid, ok := id.ParentID(); ok {
				if j, ok := b.puts[pid.Key()]; ok {
					b.g.Connect(j, i, false)
				}
			}
			continue
		}
		for _, rk := range b.world.Referrers(o.key) {
			if j, ok := b.dels[rk]; ok {
				b.g.Connect(j, i, false)
			} else if j, ok := b.puts[rk]; ok {
				b.g.Connect(j, i, false)
			}
		}
		for _, kid := range b.world.Children(o.key) {
			if j, ok := b.dels[kid.Key()]; ok {
				b.g.Connect(j, i, false)
			}
		}
	}
}

func (b *builder) setDependsOn() {
	deps := map[*plan.Change]map[plan.Key]bool{}
	for i, o := range b.ops {
		for _, p := range b.g.Preds(i) {
			pred := b.ops[p]
			if pred.change == o.change {
				continue
			}
			if deps[o.change] == nil {
				deps[o.change] = map[plan.Key]bool{}
			}
			deps[o.change][pred.key] = true
		}
	}
	for c, m := range deps {
		c.DependsOn = slices.Sorted(maps.Keys(m))
	}
}
