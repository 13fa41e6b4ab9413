package plan

import (
	"iter"
	"sort"
	"strings"
)

// State is a set of resources keyed by their normalised ARM ID: either the
// desired state built from Services or the observed state read from ARM.
type State struct {
	resources map[Key]*Resource
	// missingGroups are the resource groups a read found not to exist
	// (subscription/group, lower case): azsvc never creates one, so a
	// write into one fails (MarkGroupMissing).
	missingGroups map[string]bool
}

// MarkGroupMissing records that resource group rg of subscription sub
// does not exist, as a read found.
func (s *State) MarkGroupMissing(sub, rg string) {
	if s.missingGroups == nil {
		s.missingGroups = map[string]bool{}
	}
	s.missingGroups[groupKey(sub, rg)] = true
}

// GroupMissing reports whether a read found resource group rg of
// subscription sub not to exist.
func (s *State) GroupMissing(sub, rg string) bool { return s.missingGroups[groupKey(sub, rg)] }

func groupKey(sub, rg string) string { return strings.ToLower(sub + "/" + rg) }

// NewState returns an empty state.
func NewState() *State { return &State{resources: map[Key]*Resource{}} }

// NewStateSize returns an empty state with room for n resources, so that
// building a large state does not grow its index step by step.
func NewStateSize(n int) *State { return &State{resources: make(map[Key]*Resource, n)} }

// Put adds or replaces r.
func (s *State) Put(r *Resource) { s.resources[r.Key()] = r }

// PutKey adds or replaces r under k, which must be r.Key(): for callers
// that already hold the key, since building one costs an allocation.
func (s *State) PutKey(k Key, r *Resource) { s.resources[k] = r }

// Get returns the resource with key k.
func (s *State) Get(k Key) (*Resource, bool) { r, ok := s.resources[k]; return r, ok }

// Delete removes the resource with key k.
func (s *State) Delete(k Key) { delete(s.resources, k) }

// Len is the number of resources.
func (s *State) Len() int { return len(s.resources) }

// Resources returns every resource sorted by kind rank, then key.
func (s *State) Resources() []*Resource {
	es := make([]rankedResource, 0, len(s.resources))
	for k, r := range s.resources {
		es = append(es, rankedResource{rank: r.Kind().Rank(), key: k, r: r})
	}
	return sortRanked(es, make([]*Resource, 0, len(es)))
}

// Children returns the resources whose parent is the resource with key parent,
// sorted by kind rank, then key.
func (s *State) Children(parent Key) []*Resource {
	var out []*Resource
	for _, r := range s.resources {
		if pid, ok := r.ID.ParentID(); ok && pid.Key() == parent {
			out = append(out, r)
		}
	}
	SortResources(out)
	return out
}

// OfKind returns the resources of kind k, sorted by key.
func (s *State) OfKind(k Kind) []*Resource {
	var out []*Resource
	for _, r := range s.resources {
		if r.Kind() == k {
			out = append(out, r)
		}
	}
	SortResources(out)
	return out
}

// SortResources sorts by kind rank, then key: the deterministic order used
// everywhere a tie must be broken. Rank and key are computed once per
// resource, not in the comparator: rendering keys dominated large plans.
func SortResources(rs []*Resource) {
	es := make([]rankedResource, len(rs))
	for i, r := range rs {
		es[i] = rankedResource{rank: r.Kind().Rank(), key: r.Key(), r: r}
	}
	sortRanked(es, rs[:0])
}

type rankedResource struct {
	rank int
	key  Key
	r    *Resource
}

// sortRanked sorts es stably by rank, then key, and appends the resources
// to out in that order.
func sortRanked(es []rankedResource, out []*Resource) []*Resource {
	sort.SliceStable(es, func(i, j int) bool {
		if es[i].rank != es[j].rank {
			return es[i].rank < es[j].rank
		}
		return es[i].key < es[j].key
	})
	for _, e := range es {
		out = append(out, e.r)
	}
	return out
}

// All iterates the resources in no particular order.
func (s *State) All() iter.Seq2[Key, *Resource] {
	return func(yield func(Key, *Resource) bool) {
		for k, r := range s.resources {
			if !yield(k, r) {
				return
			}
		}
	}
}
