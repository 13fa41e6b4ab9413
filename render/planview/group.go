package planview

import (
	"fmt"
	"sort"
	"strings"

	"github.com/azsvc/azsvc/plan"
)

// groupKind says whom a group of changes belongs to; groups sort by kind
// first (ux-anchors §8.2 item 5: users think in Services).
type groupKind int

const (
	// groupService holds the changes of one Service, in the input or not.
	groupService groupKind = iota
	// groupEndpoint holds the changes of one PrivateEndpoint object: the
	// consumer side of a Private Link, after the Services.
	groupEndpoint
	// groupUnnamed holds the deletes of a Service outside the input that
	// only its resources' name prefix identifies (CCM names them after the
	// Service UID, ccm-semantics §2.1); --prune removes them.
	groupUnnamed
	// groupShared holds changes serving several Services, or the cluster.
	groupShared
)

// group is the changes of one Service (or of several, for shared
// resources), in apply order.
type group struct {
	kind groupKind
	// name is the Service (namespace/name), the name prefix of an unnamed
	// one, or "" for the shared group.
	name    string
	changes []*plan.Change
	// removed names the Service of an unnamed group when something does.
	removed plan.RemovedService
}

// namespace is the Service's namespace ("" for the other kinds).
func (g group) namespace() string {
	switch g.kind {
	case groupService:
		ns, _ := splitService(g.name)
		return ns
	case groupEndpoint:
		if key, ok := plan.EndpointOf(g.name); ok {
			ns, _ := splitService(key)
			return ns
		}
	}
	return ""
}

// shortName is the Service's name without its namespace.
func (g group) shortName() string {
	if g.kind != groupService {
		return g.title()
	}
	_, name := splitService(g.name)
	return name
}

// title names the group in headings.
func (g group) title() string {
	switch g.kind {
	case groupUnnamed:
		return removedTitle(g.name, g.removed)
	case groupShared:
		return "Shared and cluster resources"
	case groupEndpoint:
		key, _ := plan.EndpointOf(g.name)
		return "Private endpoint " + key
	}
	return "Service " + g.name
}

// groups splits changes by the Service they serve (ux-anchors §8.2 item 5):
// Services by namespace and name in natural order (svc-2 before svc-10),
// then Services outside the input known only by their names, then the
// changes serving several Services or none.
func groups(changes []*plan.Change) []group {
	type key struct {
		kind groupKind
		name string
	}
	byKey := map[key]*group{}
	var keys []key
	for _, c := range changes {
		kind, name := groupOf(c)
		k := key{kind, name}
		g, ok := byKey[k]
		if !ok {
			g = &group{kind: kind, name: name}
			byKey[k] = g
			keys = append(keys, k)
		}
		g.changes = append(g.changes, c)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].kind != keys[j].kind {
			return keys[i].kind < keys[j].kind
		}
		return serviceLess(keys[i].name, keys[j].name)
	})
	out := make([]group, len(keys))
	for i, k := range keys {
		out[i] = *byKey[k]
	}
	return out
}

// groupsOf is groups of p's changes, the Services outside the input named
// as p.Removed names them.
func groupsOf(p *plan.Plan) []group {
	gs := groups(p.Changes)
	named := removedByPrefix(p.Removed)
	for i := range gs {
		if gs[i].kind == groupUnnamed {
			gs[i].removed = named[gs[i].name]
		}
	}
	return gs
}

func removedByPrefix(rs []plan.RemovedService) map[string]plan.RemovedService {
	out := make(map[string]plan.RemovedService, len(rs))
	for _, r := range rs {
		out[r.Prefix] = r
	}
	return out
}

// removedTitle names a Service outside the input whose resources are
// deleted: by name and what names it, or by its names' prefix, saying
// that nothing names it.
func removedTitle(prefix string, r plan.RemovedService) string {
	if r.Service == "" {
		return "Service not in the input, resource names starting " + prefix + " (no tag, saved plan or base input names it)"
	}
	return "Service " + r.Service + ", not in the input (" + namedByText(r) + ")"
}

func namedByText(r plan.RemovedService) string {
	switch r.NamedBy {
	case plan.NamedByServiceTag:
		return "named by the " + plan.TagService + " tag of " + plan.ShownAddress(r.Evidence)
	case plan.NamedByOwnerTag:
		return "named by the " + plan.TagOwnerService + " tag of " + plan.ShownAddress(r.Evidence)
	case plan.NamedBySavedPlan:
		return "named by the saved plan given with --since"
	case plan.NamedByBase:
		return "named by the base input"
	}
	return "named by " + string(r.NamedBy)
}

// groupOf places one change: under its Service when it serves one; under
// the name prefix of a Service outside the input when it deletes a
// resource no Service is known for but CCM's name says whose it was.
func groupOf(c *plan.Change) (groupKind, string) {
	switch {
	case c.ServesOthers:
		return groupShared, ""
	case len(c.Services) == 1 && isEndpoint(c.Services[0]):
		return groupEndpoint, c.Services[0]
	case len(c.Services) == 1:
		return groupService, c.Services[0]
	case len(c.Services) == 0 && c.IsDelete():
		if prefix := plan.UIDPrefixIn(c.ID().Name()); prefix != "" {
			return groupUnnamed, prefix
		}
	}
	return groupShared, ""
}

// serviceLess orders namespace/name keys by namespace, then name, each in
// natural order.
func serviceLess(a, b string) bool {
	ans, aname := splitService(a)
	bns, bname := splitService(b)
	if ans != bns {
		return naturalLess(ans, bns)
	}
	return naturalLess(aname, bname)
}

// naturalLess compares strings with runs of digits compared as numbers,
// so svc-2 sorts before svc-10; equal numbers with different leading zeros
// and otherwise equal strings fall back to byte order, which keeps the
// order total.
func naturalLess(a, b string) bool {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		if isDigit(a[i]) && isDigit(b[j]) {
			ei, ej := digitsEnd(a, i), digitsEnd(b, j)
			na, nb := strings.TrimLeft(a[i:ei], "0"), strings.TrimLeft(b[j:ej], "0")
			if len(na) != len(nb) {
				return len(na) < len(nb)
			}
			if na != nb {
				return na < nb
			}
			i, j = ei, ej
			continue
		}
		if a[i] != b[j] {
			return a[i] < b[j]
		}
		i++
		j++
	}
	if len(a)-i != len(b)-j {
		return len(a)-i < len(b)-j
	}
	return a < b
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func digitsEnd(s string, i int) int {
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	return i
}

// servicesNote names the Services a shared change serves, at most five.
func servicesNote(services []string) string {
	if len(services) < 2 {
		return ""
	}
	if len(services) > 5 {
		return fmt.Sprintf("serves %s and %s", strings.Join(services[:5], ", "), count(len(services)-5, "more Service", "more Services"))
	}
	return "serves " + strings.Join(services, ", ")
}

func (g group) summary() Summary {
	var s Summary
	for _, c := range g.changes {
		s.add(c)
	}
	return s
}

func isEndpoint(owner string) bool {
	_, ok := plan.EndpointOf(owner)
	return ok
}
