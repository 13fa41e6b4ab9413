package plan

import (
	"slices"
	"sort"
	"strings"
)

// Entry is a resource with its key and kind rank, computed once: keys are
// built from IDs, which dominates a large plan if done in comparators.
type Entry struct {
	Key  Key
	Rank int
	R    *Resource
}

// Index lists a state once, sorted by kind rank then key, with each child
// under its parent and, built on first use, who references whom. Planning
// passes share one Index of the observed state instead of re-sorting it.
type Index struct {
	State   *State
	Entries []Entry
	kids    map[Key][]*Resource
	refs    map[Key][]Key
}

// NewIndex indexes s.
func NewIndex(s *State) *Index {
	x := &Index{State: s, Entries: entries(s), kids: map[Key][]*Resource{}}
	for _, e := range x.Entries {
		if e.R.Kind().Parent() != "" {
			pk, _ := e.Key.Parent()
			x.kids[pk] = append(x.kids[pk], e.R)
		}
	}
	return x
}

// Get returns the resource with key k.
func (x *Index) Get(k Key) (*Resource, bool) { return x.State.Get(k) }

// Children are the resources whose parent is parent, in rank-then-key order.
func (x *Index) Children(parent Key) []*Resource { return x.kids[parent] }

// Referrers are the keys of the resources that depend on k (Dependencies).
func (x *Index) Referrers(k Key) []Key {
	if x.refs == nil {
		x.refs = map[Key][]Key{}
		for _, e := range x.Entries {
			for _, ref := range Dependencies(e.R) {
				x.refs[ref] = append(x.refs[ref], e.Key)
			}
		}
	}
	return x.refs[k]
}

// OfKind returns the entries of kind k. Kinds have distinct ranks, so that
// is one contiguous run, returned without copying (capped, so that
// appending to it cannot overwrite the index).
func (x *Index) OfKind(k Kind) []Entry {
	es := x.Entries
	rank := k.Rank()
	lo := sort.Search(len(es), func(i int) bool { return es[i].Rank >= rank })
	hi := lo + sort.Search(len(es)-lo, func(i int) bool { return es[lo+i].Rank > rank })
	return es[lo:hi:hi]
}

// entries lists a state's resources sorted by kind rank, then key.
func entries(s *State) []Entry {
	out := make([]Entry, 0, len(s.resources))
	for k, r := range s.resources {
		out = append(out, Entry{Key: k, Rank: r.Kind().Rank(), R: r})
	}
	SortEntries(out)
	return out
}

// SortEntries sorts by kind rank, then key.
func SortEntries(es []Entry) {
	// Keys mostly share "/subscriptions/<sub>/resourcegroups/<rg>/providers/
	// microsoft.network/": comparing only what follows the prefix common to
	// all of them gives the same order for less work.
	p := commonPrefixLen(es)
	slices.SortFunc(es, func(a, b Entry) int {
		if a.Rank != b.Rank {
			return a.Rank - b.Rank
		}
		return strings.Compare(string(a.Key[p:]), string(b.Key[p:]))
	})
}

func commonPrefixLen(es []Entry) int {
	if len(es) == 0 {
		return 0
	}
	first := es[0].Key
	n := len(first)
	for _, e := range es[1:] {
		k := e.Key
		if len(k) < n {
			n = len(k)
		}
		i := 0
		for i < n && k[i] == first[i] {
			i++
		}
		n = i
	}
	return n
}

// SortedResources returns the values of m sorted by kind rank, then key.
func SortedResources(m map[Key]*Resource) []*Resource {
	out, _ := SortedResourcesAndKeys(m)
	return out
}

// SortedResourcesAndKeys is SortedResources with the keys, in the same
// order.
func SortedResourcesAndKeys(m map[Key]*Resource) ([]*Resource, []Key) {
	es := make([]Entry, 0, len(m))
	for k, r := range m {
		es = append(es, Entry{Key: k, Rank: r.Kind().Rank(), R: r})
	}
	SortEntries(es)
	out, keys := make([]*Resource, len(es)), make([]Key, len(es))
	for i, e := range es {
		out[i], keys[i] = e.R, e.Key
	}
	return out, keys
}
