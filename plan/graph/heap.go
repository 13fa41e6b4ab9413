package graph

import "github.com/azsvc/azsvc/plan"

// unit is a write ready to run: one standalone operation or a whole group.
type unit struct {
	class  int // 0: only creates and updates; 1: has deletes
	rank   int
	key    plan.Key
	delete bool
	node   int
	group  *group
}

func (g *Graph) unitOf(i int) unit {
	n := g.nodes[i]
	u := unit{rank: n.Rank, key: n.Key, delete: n.Delete, node: i}
	if n.Delete {
		u.class = 1
	}
	return u
}

func (g *Graph) groupUnit(gr *group) unit {
	u := unit{rank: gr.rank, key: gr.key, group: gr}
	for _, i := range gr.remaining {
		if g.nodes[i].Delete {
			u.class = 1
			break
		}
	}
	return u
}

// unitHeap orders ready writes: creates and updates before deletes (make
// before break), then rank (ascending for creates and updates, descending
// for deletes: dependents go first, e.g. DNS records, links, zones, then
// the private endpoint, its PLS, the frontend and the public IP, the order
// HyperShift deletes in, arm-rules §4.3), then key, then delete before put.
type unitHeap []unit

func (h unitHeap) Len() int { return len(h) }
func (h unitHeap) Less(i, j int) bool {
	a, b := h[i], h[j]
	if a.class != b.class {
		return a.class < b.class
	}
	if a.rank != b.rank {
		if a.class == 1 {
			return a.rank > b.rank
		}
		return a.rank < b.rank
	}
	if a.key != b.key {
		return a.key < b.key
	}
	return a.delete && !b.delete
}
func (h unitHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *unitHeap) Push(x any)   { *h = append(*h, x.(unit)) }
func (h *unitHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// nodeHeap orders the operations inside one write: deletes first, then
// rank, then key.
type nodeHeap struct {
	g     *Graph
	items []int
}

func (h *nodeHeap) Len() int { return len(h.items) }
func (h *nodeHeap) Less(i, j int) bool {
	a, b := h.g.nodes[h.items[i]], h.g.nodes[h.items[j]]
	if a.Delete != b.Delete {
		return a.Delete
	}
	if a.Rank != b.Rank {
		return a.Rank < b.Rank
	}
	return a.Key < b.Key
}
func (h *nodeHeap) Swap(i, j int) { h.items[i], h.items[j] = h.items[j], h.items[i] }
func (h *nodeHeap) Push(x any)    { h.items = append(h.items, x.(int)) }
func (h *nodeHeap) Pop() any {
	x := h.items[len(h.items)-1]
	h.items = h.items[:len(h.items)-1]
	return x
}
