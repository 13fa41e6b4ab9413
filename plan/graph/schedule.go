// Package graph orders a plan's changes into ARM writes. dag.go is a small
// scheduler over operations, write groups and edges that knows nothing of
// Azure; Schedule builds its graph from changes and references and turns
// the writes it returns into plan.Steps with complete bodies.
package graph

import (
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
	// Awaiting are the connections left for the PLS owner to approve.
	Awaiting() []plan.Awaiting
	NoOp() int
}

// Schedule orders the changes of in into writes (DESIGN.md "Order"):
//   - creates and updates run after the creates/updates of what they
//     reference (dependency-first);
//   - deletes run after the deletes of what referenced them in the observed
//     state, and after an update that drops such a reference (dependents
//     first; the dropped reference goes first, unlike Terraform's default);
//   - a replace's create runs after its delete;
//   - a frontend takes a public IP or static private IP after the write
//     that releases it elsewhere (release.go).
//
// An operation on an inline child (LB frontend, rule, probe, pool; NSG
// rule) or on an LB/NSG itself belongs to its parent's write: one PUT per
// changed load balancer or NSG per step.
func Schedule(in Input) (*plan.Plan, error) {
	changes := in.Changes()
	b := &builder{world: in, g: New(), puts: make(map[plan.Key]int, len(changes)), dels: map[plan.Key]int{},
		keys: map[string]plan.Key{}}
	b.g.Name = func(i int) string { return label(b.ops[i]) }
	b.addNodes(changes)
	b.addEdges()
	b.addReleaseEdges()
	writes, err := b.g.Schedule()
	if err != nil {
		return nil, err
	}
	w := newWriter(in)
	p := &plan.Plan{Blocked: in.Blocked(), Awaiting: in.Awaiting(), NoOp: in.NoOp()}
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
	// keys memoises the keys of references: bodies repeat them (every rule
	// names its LB's pool), and making a key allocates.
	keys map[string]plan.Key
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
	kind := c.ID().Kind
	n := Node{Key: key, Rank: kind.Rank(), Delete: del}
	switch {
	case kind.Inline():
		n.Group, _ = key.Parent()
		n.GroupRank = kind.Parent().Rank()
	case kind == plan.KindLoadBalancer || kind == plan.KindSecurityGroup:
		n.Group, n.GroupRank = key, kind.Rank()
	}
	b.ops = append(b.ops, op{change: c, key: key, delete: del, group: n.Group})
	return b.g.Add(n)
}

// label names an operation in a cycle error.
func label(o op) string {
	verb := "update"
	switch {
	case o.delete:
		verb = "delete"
	case o.change.Has(plan.ActionCreate):
		verb = "create"
	}
	return verb + " " + o.change.ID().Address()
}

// deps are the keys of what a body references (plan.Dependencies), with
// the reference keys memoised.
func (b *builder) deps(r *plan.Resource) []plan.Key {
	var out []plan.Key
	plan.EachReference(r.Properties, func(ref string) {
		k, ok := b.keys[ref]
		if !ok {
			k = plan.KeyOf(ref)
			b.keys[ref] = k
		}
		out = append(out, k)
	})
	return out
}

func (b *builder) addEdges() {
	for i, o := range b.ops {
		id := o.change.ID()
		if !o.delete {
			for _, ref := range b.deps(o.change.After) {
				if j, ok := b.puts[ref]; ok && j != i {
					b.g.Connect(j, i, false)
				}
			}
			if id.Kind.Parent() != "" {
				parent, _ := o.key.Parent()
				if j, ok := b.puts[parent]; ok {
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
	deps := map[*plan.Change][]plan.Key{}
	for i, o := range b.ops {
		for _, p := range b.g.Preds(i) {
			if pred := b.ops[p]; pred.change != o.change {
				deps[o.change] = append(deps[o.change], pred.key)
			}
		}
	}
	for c, keys := range deps {
		slices.Sort(keys)
		c.DependsOn = slices.Compact(keys)
	}
}
