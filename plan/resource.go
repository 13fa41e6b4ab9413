package plan

import (
	"maps"
	"slices"
	"sort"
	"strings"
)

// Resource is one ARM resource or child resource, in ARM's own JSON shape.
//
// Properties holds ARM's "properties" object as JSON-like values (string,
// bool, float64 or int, []any, map[string]any, or Unknown). For a parent kind
// (load balancer, NSG) Properties excludes the child collections that azsvc
// models as resources of their own (frontends, pools, rules, probes, security
// rules); the provider splits and re-joins them. References to other resources
// appear as ARM does, as {"id": "<arm id>"} objects.
//
// A desired Resource holds only the fields azsvc decides; an observed one holds
// what ARM returned, minus read-only fields (etag, provisioningState,
// back-references), which live in Etag or are dropped by the provider.
type Resource struct {
	ID       ID
	Location string            // top-level kinds only
	SKU      map[string]any    // e.g. {"name":"Standard","tier":"Regional"}
	Zones    []string          // nil = not set
	Tags     map[string]string // top-level kinds only; nil = not set
	// Properties is ARM's "properties" object (see type comment).
	Properties map[string]any
	// Etag is the observed etag (empty on desired resources).
	Etag string
	// Services are the namespace/name of the Services this resource serves,
	// sorted. Desired resources always set it; observed ones as far as
	// ownership rules can tell (ccm-semantics §2.4).
	Services []string
	// Owned reports whether azsvc (like CCM) may change or delete this
	// resource. Desired resources are always owned.
	Owned bool
	// ServesOthers marks a desired resource that also serves what no
	// Service of the input asks for: an NSG rule keeping the destinations
	// of Services outside the input. Its changes are shared changes.
	ServesOthers bool
}

// Key is the resource's normalised key.
func (r *Resource) Key() Key { return r.ID.Key() }

// Kind is the resource's kind.
func (r *Resource) Kind() Kind { return r.ID.Kind }

// Name is the resource's own name.
func (r *Resource) Name() string { return r.ID.Name() }

// References returns the keys of every resource referenced from Properties
// (every {"id": ...} object), sorted and de-duplicated. Ordering uses them:
// a resource is created after what it references and deleted before it.
func (r *Resource) References() []Key {
	seen := map[Key]bool{}
	collectRefs(r.Properties, seen)
	delete(seen, r.Key())
	return slices.Sorted(maps.Keys(seen))
}

func collectRefs(v any, seen map[Key]bool) {
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			if s, ok := x.(string); ok && k == "id" && strings.HasPrefix(s, "/subscriptions/") {
				seen[KeyOf(s)] = true
				continue
			}
			collectRefs(x, seen)
		}
	case []any:
		for _, x := range t {
			collectRefs(x, seen)
		}
	}
}

// AddService records that the resource serves svc (namespace/name).
func (r *Resource) AddService(svc string) {
	i := sort.SearchStrings(r.Services, svc)
	if i < len(r.Services) && r.Services[i] == svc {
		return
	}
	r.Services = append(r.Services, "")
	copy(r.Services[i+1:], r.Services[i:])
	r.Services[i] = svc
}

// Ref builds an ARM reference object {"id": id}.
func Ref(id ID) map[string]any { return map[string]any{"id": id.String()} }
