package graph

import (
	"container/heap"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/azsvc/azsvc/plan"
)

// Node is one operation to schedule.
type Node struct {
	Key  plan.Key // tie-break after Rank
	Rank int      // kind rank: referenced kinds first
	// Delete marks a delete: among ready writes, creates and updates run
	// first (make before break).
	Delete bool
	// Group is the write that carries the operation: a parent's key for an
	// inline child or the parent itself (a load balancer or NSG is written
	// whole), "" for an operation that is a write of its own.
	Group     plan.Key
	GroupRank int
}

// Graph schedules operations into writes. Add nodes, Connect them, then
// Schedule.
//
// An edge between two operations of the same write group is weak: both may
// ride in the same write, as long as it lists them in edge order. Other
// edges are strict: the first write must finish before the second starts.
//
// Scheduling is Kahn's algorithm over writes: among the writes whose
// operations are all ready, take creates and updates before deletes, then
// rank, then key (style-anchors §4: sort inside each batch). A group's write
// waits until all its operations are ready, so each group is written once;
// only when nothing else can run does a group get a partial write (e.g.
// dropping a frontend whose public IP is replaced, then adding it back
// after the new IP exists).
type Graph struct {
	// Name names node i in a cycle error, e.g. "create pe/x"; by default
	// its key.
	Name   func(i int) string
	nodes  []*node
	groups map[plan.Key]*group
	ready  unitHeap
	left   int
	writes [][]int
}

type node struct {
	Node
	succ, pred []edge
	strict     int // strict predecessors not yet done
	done       bool
	inSubset   bool
}

type edge struct {
	node   int
	strict bool
}

type group struct {
	key       plan.Key
	rank      int
	remaining []int
	blocked   int // remaining nodes with strict predecessors left
	queued    bool
}

// New returns an empty graph.
func New() *Graph { return &Graph{groups: map[plan.Key]*group{}} }

// Add adds n and returns its index.
func (g *Graph) Add(n Node) int {
	g.nodes = append(g.nodes, &node{Node: n})
	i := len(g.nodes) - 1
	if n.Group != "" {
		gr := g.groups[n.Group]
		if gr == nil {
			gr = &group{key: n.Group, rank: n.GroupRank}
			g.groups[n.Group] = gr
		}
		gr.remaining = append(gr.remaining, i)
	}
	return i
}

// Connect records that a runs before b; the edge is weak inside one write
// group unless strict.
func (g *Graph) Connect(a, b int, strict bool) {
	if a == b {
		return
	}
	na, nb := g.nodes[a], g.nodes[b]
	strict = strict || na.Group == "" || na.Group != nb.Group
	na.succ = append(na.succ, edge{node: b, strict: strict})
	nb.pred = append(nb.pred, edge{node: a, strict: strict})
	if strict {
		nb.strict++
	}
}

// Preds are the nodes that must run before i.
func (g *Graph) Preds(i int) []int {
	out := make([]int, len(g.nodes[i].pred))
	for j, e := range g.nodes[i].pred {
		out[j] = e.node
	}
	return out
}

// Schedule orders the nodes into writes: each write lists the indexes of
// the operations it carries, in order. A cycle is an error naming it.
func (g *Graph) Schedule() ([][]int, error) {
	for i, n := range g.nodes {
		if n.Group != "" {
			if n.strict > 0 {
				g.groups[n.Group].blocked++
			}
		} else if n.strict == 0 {
			heap.Push(&g.ready, g.unitOf(i))
		}
	}
	for _, k := range slices.Sorted(maps.Keys(g.groups)) {
		g.maybeQueue(g.groups[k])
	}
	g.left = len(g.nodes)
	for g.left > 0 {
		if g.ready.Len() == 0 {
			wrote, err := g.partialWrite()
			if err != nil {
				return nil, err
			}
			if !wrote {
				return nil, g.cycleError()
			}
			continue
		}
		u := heap.Pop(&g.ready).(unit)
		idx := []int{u.node}
		if u.group != nil {
			u.group.queued = false
			idx = u.group.remaining
		}
		if err := g.execute(idx); err != nil {
			return nil, err
		}
	}
	return g.writes, nil
}

func (g *Graph) maybeQueue(gr *group) {
	if gr.blocked == 0 && len(gr.remaining) > 0 && !gr.queued {
		gr.queued = true
		heap.Push(&g.ready, g.groupUnit(gr))
	}
}

// execute performs one write carrying the given nodes. Nodes whose weak
// edges form a cycle have no order inside the write: that is a cycle
// error, since writing the rest would leave them to be retried forever.
func (g *Graph) execute(idx []int) error {
	ordered := g.sortWithin(idx)
	if len(ordered) < len(idx) {
		return g.cycleError()
	}
	g.writes = append(g.writes, ordered)
	touched := map[plan.Key]bool{}
	for _, i := range ordered {
		n := g.nodes[i]
		n.done = true
		g.left--
		if n.Group != "" {
			touched[n.Group] = true
		}
	}
	for k := range touched {
		gr := g.groups[k]
		gr.remaining = slices.DeleteFunc(slices.Clone(gr.remaining), func(i int) bool { return g.nodes[i].done })
	}
	for _, i := range ordered {
		for _, e := range g.nodes[i].succ {
			if !e.strict {
				continue
			}
			m := g.nodes[e.node]
			m.strict--
			if m.strict > 0 {
				continue
			}
			if m.Group != "" {
				gr := g.groups[m.Group]
				gr.blocked--
				g.maybeQueue(gr)
			} else {
				heap.Push(&g.ready, g.unitOf(e.node))
			}
		}
	}
	return nil
}

// partialWrite writes the ready part of one group when no whole write is
// ready: the nodes without strict predecessors left, minus those whose weak
// predecessors cannot come along. It reports whether it wrote anything.
func (g *Graph) partialWrite() (bool, error) {
	for _, k := range slices.Sorted(maps.Keys(g.groups)) {
		gr := g.groups[k]
		var subset []int
		for _, i := range gr.remaining {
			if g.nodes[i].strict == 0 {
				g.nodes[i].inSubset = true
				subset = append(subset, i)
			}
		}
		for changed := true; changed; {
			changed = false
			for _, i := range subset {
				if !g.nodes[i].inSubset {
					continue
				}
				for _, e := range g.nodes[i].pred {
					if p := g.nodes[e.node]; !p.done && !p.inSubset {
						g.nodes[i].inSubset, changed = false, true
						break
					}
				}
			}
		}
		var take []int
		for _, i := range subset {
			if g.nodes[i].inSubset {
				take = append(take, i)
			}
			g.nodes[i].inSubset = false
		}
		if len(take) > 0 {
			return true, g.execute(take)
		}
	}
	return false, nil
}

// sortWithin orders the nodes of one write so weak edges hold; ties put
// deletes first, then rank, then key. Nodes in a cycle of weak edges are
// left out.
func (g *Graph) sortWithin(idx []int) []int {
	in := map[int]bool{}
	for _, i := range idx {
		in[i] = true
	}
	deg := map[int]int{}
	for _, i := range idx {
		for _, e := range g.nodes[i].pred {
			if in[e.node] {
				deg[i]++
			}
		}
	}
	h := nodeHeap{g: g}
	for _, i := range idx {
		if deg[i] == 0 {
			heap.Push(&h, i)
		}
	}
	out := make([]int, 0, len(idx))
	for h.Len() > 0 {
		i := heap.Pop(&h).(int)
		out = append(out, i)
		for _, e := range g.nodes[i].succ {
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
func (g *Graph) cycleError() error {
	state := map[int]int{} // 1 visiting, 2 done
	var stack, found []int
	var visit func(int) bool
	visit = func(i int) bool {
		state[i] = 1
		stack = append(stack, i)
		for _, e := range g.nodes[i].succ {
			if g.nodes[e.node].done {
				continue
			}
			if state[e.node] == 1 {
				j := slices.Index(stack, e.node)
				found = append(slices.Clone(stack[j:]), e.node)
				return true
			}
			if state[e.node] == 0 && visit(e.node) {
				return true
			}
		}
		stack = stack[:len(stack)-1]
		state[i] = 2
		return false
	}
	for i, n := range g.nodes {
		if !n.done && state[i] == 0 && visit(i) {
			break
		}
	}
	names := make([]string, len(found))
	for i, n := range found {
		if g.Name != nil {
			names[i] = g.Name(n)
		} else {
			names[i] = string(g.nodes[n].Key)
		}
	}
	return fmt.Errorf("cannot order the plan: dependency cycle %s", strings.Join(names, " -> "))
}
