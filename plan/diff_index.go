package plan

import (
	"slices"
	"sort"
	"strings"
)

// Keys are built from IDs on every call (ID.String then ToLower), which
// dominates a large diff if done inside sort comparators. The differ
// therefore lists each state once, with the keys the State already holds.

type entry struct {
	key  Key
	rank int
	r    *Resource
}

// entries lists a state's resources sorted by kind rank, then key.
func entries(s *State) []entry {
	out := make([]entry, 0, len(s.resources))
	for k, r := range s.resources {
		out = append(out, entry{key: k, rank: r.Kind().Rank(), r: r})
	}
	sortEntries(out)
	return out
}

func sortEntries(es []entry) {
	// Keys mostly share "/subscriptions/<sub>/resourcegroups/<rg>/providers/
	// microsoft.network/": comparing only what follows the prefix common to
	// all of them gives the same order for less work.
	p := commonPrefixLen(es)
	slices.SortFunc(es, func(a, b entry) int {
		if a.rank != b.rank {
			return a.rank - b.rank
		}
		return strings.Compare(string(a.key[p:]), string(b.key[p:]))
	})
}

func commonPrefixLen(es []entry) int {
	if len(es) == 0 {
		return 0
	}
	first := es[0].key
	n := len(first)
	for _, e := range es[1:] {
		k := e.key
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

// sortedResources returns the values of m sorted by kind rank, then key.
func sortedResources(m map[Key]*Resource) []*Resource {
	es := make([]entry, 0, len(m))
	for k, r := range m {
		es = append(es, entry{key: k, rank: r.Kind().Rank(), r: r})
	}
	sortEntries(es)
	out := make([]*Resource, len(es))
	for i, e := range es {
		out[i] = e.r
	}
	return out
}

// ofKind returns the entries of kind k from entries sorted by rank. Kinds
// have distinct ranks, so that is one contiguous run, returned without
// copying (capped, so that appending to it cannot overwrite es).
func ofKind(es []entry, k Kind) []entry {
	rank := k.Rank()
	lo := sort.Search(len(es), func(i int) bool { return es[i].rank >= rank })
	hi := lo + sort.Search(len(es)-lo, func(i int) bool { return es[lo+i].rank > rank })
	run := es[lo:hi:hi]
	for _, e := range run {
		if e.r.Kind() != k {
			return filterKind(run, k) // ranks shared by kinds: filter
		}
	}
	return run
}

func filterKind(es []entry, k Kind) []entry {
	var out []entry
	for _, e := range es {
		if e.r.Kind() == k {
			out = append(out, e)
		}
	}
	return out
}

// parentKey derives a child's parent key from the child's key by cutting
// the last "/<collection>/<name>": keys are canonical lower-case IDs.
func parentKey(k Key) (Key, bool) {
	s := string(k)
	i := strings.LastIndexByte(s, '/')
	if i < 0 {
		return "", false
	}
	j := strings.LastIndexByte(s[:i], '/')
	if j < 0 {
		return "", false
	}
	return Key(s[:j]), true
}
