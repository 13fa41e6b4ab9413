package plan

// unit is a write ready to run: one standalone operation or a whole group.
type unit struct {
	class int // 0: only creates and updates; 1: has deletes
	rank  int
	key   Key
	op    StepOp
	node  int
	group *writeGroup
}

func (s *scheduler) unitOf(i int) unit {
	n := s.nodes[i]
	u := unit{rank: n.rank, key: n.key, op: n.op, node: i}
	if n.op == OpDelete {
		u.class = 1
	}
	return u
}

func (s *scheduler) groupUnit(g *writeGroup) unit {
	u := unit{rank: g.rank, key: g.key, op: OpPut, group: g}
	for _, i := range g.remaining {
		if s.nodes[i].op == OpDelete {
			u.class = 1
			break
		}
	}
	return u
}

// unitHeap orders ready writes: creates and updates before deletes (make
// before break), then kind rank, then key, then delete before put.
type unitHeap []unit

func (h unitHeap) Len() int { return len(h) }
func (h unitHeap) Less(i, j int) bool {
	a, b := h[i], h[j]
	if a.class != b.class {
		return a.class < b.class
	}
	if a.rank != b.rank {
		return a.rank < b.rank
	}
	if a.key != b.key {
		return a.key < b.key
	}
	return a.op == OpDelete && b.op != OpDelete
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
// kind rank, then key.
type nodeHeap struct {
	s     *scheduler
	items []int
}

func (h *nodeHeap) Len() int { return len(h.items) }
func (h *nodeHeap) Less(i, j int) bool {
	a, b := h.s.nodes[h.items[i]], h.s.nodes[h.items[j]]
	if (a.op == OpDelete) != (b.op == OpDelete) {
		return a.op == OpDelete
	}
	if a.rank != b.rank {
		return a.rank < b.rank
	}
	return a.key < b.key
}
func (h *nodeHeap) Swap(i, j int) { h.items[i], h.items[j] = h.items[j], h.items[i] }
func (h *nodeHeap) Push(x any)    { h.items = append(h.items, x.(int)) }
func (h *nodeHeap) Pop() any {
	x := h.items[len(h.items)-1]
	h.items = h.items[:len(h.items)-1]
	return x
}
