package plan

import (
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
	sort.Slice(es, func(i, j int) bool {
		if es[i].rank != es[j].rank {
			return es[i].rank < es[j].rank
		}
		return es[i].key < es[j].key
	})
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

// ofKind filters sorted entries by kind.
func ofKind(es []entry, k Kind) []entry {
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
