package plan

import "sort"

// State is a set of resources keyed by their normalised ARM ID: either the
// desired state built from Services or the observed state read from ARM.
type State struct {
	resources map[Key]*Resource
}

// NewState returns an empty state.
func NewState() *State { return &State{resources: map[Key]*Resource{}} }

// Put adds or replaces r.
func (s *State) Put(r *Resource) { s.resources[r.Key()] = r }

// Get returns the resource with key k.
func (s *State) Get(k Key) (*Resource, bool) { r, ok := s.resources[k]; return r, ok }

// Delete removes the resource with key k.
func (s *State) Delete(k Key) { delete(s.resources, k) }

// Len is the number of resources.
func (s *State) Len() int { return len(s.resources) }

// Resources returns every resource sorted by kind rank, then key.
func (s *State) Resources() []*Resource {
	out := make([]*Resource, 0, len(s.resources))
	for _, r := range s.resources {
		out = append(out, r)
	}
	SortResources(out)
	return out
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
// everywhere a tie must be broken.
func SortResources(rs []*Resource) {
	sort.Slice(rs, func(i, j int) bool {
		if ri, rj := rs[i].Kind().Rank(), rs[j].Kind().Rank(); ri != rj {
			return ri < rj
		}
		return rs[i].Key() < rs[j].Key()
	})
}
