package plan

import (
	"container/heap"
	"fmt"
	"strings"
)

// The ordering model. Every change becomes one or two operations (a
// replace is a delete then a create). An operation on an inline child (LB
// frontend, rule, probe, pool; NSG rule) or on an LB/NSG itself belongs to
// its parent's write group: it is carried by a PUT of the whole parent.
// Other operations are writes of their own.
//
// Edges say "a runs before b":
//   - creates and updates run after the creates/updates of what they
//     reference in the desired state (dependency-first);
//   - deletes run after the deletes of what referenced them in the observed
//     state, and after an update that drops such a reference (dependents
//     first; DESIGN.md "Order": the dropped reference goes first, unlike
//     Terraform's default);
//   - a replace's create runs after its delete.
//
// An edge between two operations of the same write group is weak: both may
// ride in the same PUT, as long as the body stays valid. Other edges are
// strict: the first write must finish before the second starts.
//
// Scheduling is Kahn's algorithm over writes: among the writes whose
// operations are all ready, take creates and updates before deletes, then
// kind rank, then key (style-anchors §4: sort inside each batch). A parent's
// write waits until all its operations are ready, so each changed LB or NSG
// is written once; only when nothing else can run does a parent get a
// partial write (e.g. dropping a frontend whose public IP is replaced, then
// adding it back after the new IP exists).
type opNode struct {
	change   *Change
	key      Key
	rank     int
	op       StepOp
	group    Key  // the write target's key
	inline   bool // part of a parent write group
	succ     []opEdge
	pred     []opEdge
	strict   int // strict predecessors not yet done
	done     bool
	inSubset bool
}

type opEdge struct {
	node   int
	strict bool
}

type writeGroup struct {
	key       Key
	rank      int
	remaining []int
	blocked   int // remaining nodes with strict predecessors left
	queued    bool
}

type scheduler struct {
	d      *differ
	nodes  []*opNode
	puts   map[Key]int
	dels   map[Key]int
	groups map[Key]*writeGroup
	ready  unitHeap
	writes *writer
	left   int
	err    error
}

// order turns the differ's changes into p.Steps and p.Changes.
func order(p *Plan, d *differ) error {
	s := &scheduler{d: d, puts: map[Key]int{}, dels: map[Key]int{}, groups: map[Key]*writeGroup{}}
	s.writes = newWriter(d)
	s.addNodes()
	s.addEdges()
	if err := s.run(); err != nil {
		return err
	}
	p.Steps = s.writes.steps
	dropChildrenOfFrontendlessLBs(p.Steps)
	seen := map[*Change]bool{}
	for _, st := range p.Steps {
		for _, c := range st.Changes {
			if !seen[c] {
				seen[c] = true
				p.Changes = append(p.Changes, c)
			}
		}
	}
	s.setDependsOn()
	return nil
}

func (s *scheduler) addNodes() {
	for _, k := range sortedChangeKeys(s.d.changes) {
		c := s.d.changes[k]
		if c == nil {
			continue
		}
		if c.Has(ActionDelete) {
			s.dels[k] = s.newNode(k, c, OpDelete)
		}
		if c.After != nil {
			s.puts[k] = s.newNode(k, c, OpPut)
		}
		if c.IsReplace() {
			s.edge(s.dels[k], s.puts[k], true)
		}
	}
}

func (s *scheduler) newNode(key Key, c *Change, op StepOp) int {
	id := c.ID()
	n := &opNode{change: c, key: key, rank: id.Kind.Rank(), op: op, group: key}
	switch {
	case id.Kind.Inline():
		pid, _ := id.ParentID()
		n.group, n.inline = pid.Key(), true
	case id.Kind == KindLoadBalancer || id.Kind == KindSecurityGroup:
		n.inline = true
	}
	s.nodes = append(s.nodes, n)
	idx := len(s.nodes) - 1
	if n.inline {
		g := s.groups[n.group]
		if g == nil {
			gid, _ := ParseID(string(n.group))
			g = &writeGroup{key: n.group, rank: gid.Kind.Rank()}
			s.groups[n.group] = g
		}
		g.remaining = append(g.remaining, idx)
	}
	return idx
}

// edge records that a runs before b; the edge is weak inside one write
// group unless forced strict.
func (s *scheduler) edge(a, b int, forceStrict bool) {
	if a == b {
		return
	}
	na, nb := s.nodes[a], s.nodes[b]
	strict := forceStrict || !(na.inline && nb.inline && na.group == nb.group)
	na.succ = append(na.succ, opEdge{node: b, strict: strict})
	nb.pred = append(nb.pred, opEdge{node: a, strict: strict})
	if strict {
		nb.strict++
	}
}

func (s *scheduler) addEdges() {
	for i, n := range s.nodes {
		c := n.change
		id := c.ID()
		if n.op == OpPut {
			for _, ref := range refsOf(c.After) {
				if j, ok := s.puts[ref]; ok {
					s.edge(j, i, false)
				}
			}
			if pid, ok := id.ParentID(); ok {
				if j, ok := s.puts[pid.Key()]; ok {
					s.edge(j, i, false)
				}
			}
			continue
		}
		for _, rk := range s.d.referrersOf(n.key) {
			if j, ok := s.dels[rk]; ok {
				s.edge(j, i, false)
			} else if j, ok := s.puts[rk]; ok {
				s.edge(j, i, false)
			}
		}
		for _, kid := range s.d.obsKids[n.key] {
			if j, ok := s.dels[kid.Key()]; ok {
				s.edge(j, i, false)
			}
		}
	}
}

func (s *scheduler) run() error {
	for i, n := range s.nodes {
		if n.inline {
			if n.strict > 0 {
				s.groups[n.group].blocked++
			}
		} else if n.strict == 0 {
			heap.Push(&s.ready, s.unitOf(i))
		}
	}
	for _, k := range sortedGroupKeys(s.groups) {
		s.maybeQueue(s.groups[k])
	}
	s.left = len(s.nodes)
	for s.left > 0 {
		if s.ready.Len() == 0 {
			if !s.partialWrite() {
				return s.cycleError()
			}
			continue
		}
		u := heap.Pop(&s.ready).(unit)
		if u.group == nil {
			s.execute([]int{u.node})
			continue
		}
		u.group.queued = false
		s.execute(u.group.remaining)
	}
	return s.err
}

func (s *scheduler) maybeQueue(g *writeGroup) {
	if g.blocked == 0 && len(g.remaining) > 0 && !g.queued {
		g.queued = true
		heap.Push(&s.ready, s.groupUnit(g))
	}
}

// execute performs one write carrying the given nodes.
func (s *scheduler) execute(idx []int) {
	ordered := s.sortWithin(idx)
	if err := s.writes.write(s.nodes, ordered); err != nil && s.err == nil {
		s.err = err
	}
	touched := map[Key]bool{}
	for _, i := range ordered {
		n := s.nodes[i]
		n.done = true
		s.left--
		if n.inline {
			touched[n.group] = true
		}
	}
	for k := range touched {
		g := s.groups[k]
		g.remaining = undone(s.nodes, g.remaining)
	}
	for _, i := range ordered {
		for _, e := range s.nodes[i].succ {
			if !e.strict {
				continue
			}
			m := s.nodes[e.node]
			m.strict--
			if m.strict > 0 {
				continue
			}
			if m.inline {
				g := s.groups[m.group]
				g.blocked--
				s.maybeQueue(g)
			} else {
				heap.Push(&s.ready, s.unitOf(e.node))
			}
		}
	}
}

// partialWrite writes the ready part of one parent when no whole write is
// ready: the nodes without strict predecessors left, minus those whose weak
// predecessors cannot come along.
func (s *scheduler) partialWrite() bool {
	for _, k := range sortedGroupKeys(s.groups) {
		g := s.groups[k]
		var subset []int
		for _, i := range g.remaining {
			if s.nodes[i].strict == 0 {
				s.nodes[i].inSubset = true
				subset = append(subset, i)
			}
		}
		for changed := true; changed; {
			changed = false
			for _, i := range subset {
				if !s.nodes[i].inSubset {
					continue
				}
				for _, e := range s.nodes[i].pred {
					if p := s.nodes[e.node]; !p.done && !p.inSubset {
						s.nodes[i].inSubset, changed = false, true
						break
					}
				}
			}
		}
		var take []int
		for _, i := range subset {
			if s.nodes[i].inSubset {
				take = append(take, i)
			}
			s.nodes[i].inSubset = false
		}
		if len(take) > 0 {
			s.execute(take)
			return true
		}
	}
	return false
}

// sortWithin orders the nodes of one write so weak edges hold; ties put
// deletes first, then kind rank, then key.
func (s *scheduler) sortWithin(idx []int) []int {
	in := map[int]bool{}
	for _, i := range idx {
		in[i] = true
	}
	deg := map[int]int{}
	for _, i := range idx {
		for _, e := range s.nodes[i].pred {
			if in[e.node] {
				deg[i]++
			}
		}
	}
	var h nodeHeap
	h.s = s
	for _, i := range idx {
		if deg[i] == 0 {
			heap.Push(&h, i)
		}
	}
	out := make([]int, 0, len(idx))
	for h.Len() > 0 {
		i := heap.Pop(&h).(int)
		out = append(out, i)
		for _, e := range s.nodes[i].succ {
			if in[e.node] {
				if deg[e.node]--; deg[e.node] == 0 {
					heap.Push(&h, e.node)
				}
			}
		}
	}
	return out
}

// cycleError names one cycle among the operations left.
func (s *scheduler) cycleError() error {
	state := map[int]int{} // 1 visiting, 2 done
	var stack []int
	var found []int
	var visit func(int) bool
	visit = func(i int) bool {
		state[i] = 1
		stack = append(stack, i)
		for _, e := range s.nodes[i].succ {
			if s.nodes[e.node].done {
				continue
			}
			if state[e.node] == 1 {
				for j := len(stack) - 1; j >= 0; j-- {
					if stack[j] == e.node {
						found = append(append([]int(nil), stack[j:]...), e.node)
						return true
					}
				}
			}
			if state[e.node] == 0 && visit(e.node) {
				return true
			}
		}
		stack = stack[:len(stack)-1]
		state[i] = 2
		return false
	}
	for i, n := range s.nodes {
		if !n.done && state[i] == 0 && visit(i) {
			break
		}
	}
	names := make([]string, len(found))
	for i, n := range found {
		names[i] = s.nodes[n].label()
	}
	return fmt.Errorf("cannot order the plan: dependency cycle %s", strings.Join(names, " -> "))
}

func (n *opNode) label() string {
	verb := "update"
	switch {
	case n.op == OpDelete:
		verb = "delete"
	case n.change.Has(ActionCreate):
		verb = "create"
	}
	return verb + " " + n.change.ID().Address()
}

func (s *scheduler) setDependsOn() {
	deps := map[*Change]map[Key]bool{}
	for _, n := range s.nodes {
		for _, e := range n.pred {
			p := s.nodes[e.node]
			if p.change == n.change {
				continue
			}
			if deps[n.change] == nil {
				deps[n.change] = map[Key]bool{}
			}
			deps[n.change][p.key] = true
		}
	}
	for c, m := range deps {
		c.DependsOn = c.DependsOn[:0]
		for k := range m {
			c.DependsOn = append(c.DependsOn, k)
		}
		sortKeys(c.DependsOn)
	}
}

func undone(nodes []*opNode, l []int) []int {
	out := l[:0:0]
	for _, i := range l {
		if !nodes[i].done {
			out = append(out, i)
		}
	}
	return out
}

func sortedGroupKeys(m map[Key]*writeGroup) []Key {
	out := make([]Key, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sortKeys(out)
	return out
}
