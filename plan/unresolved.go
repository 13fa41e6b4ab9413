package plan

import (
	"cmp"
	"slices"
)

// Unresolved is a value the API server assigns that changes of a plan
// need: a Service's UID that names what they create, a node port a probe,
// rule or NSG rule targets, the node IPs an NSG rule allows. Apply refuses
// a plan with any (it never writes a guess), before any write.
type Unresolved struct {
	ServerValue
	// Addresses are the changes that need it, in plan order.
	Addresses []string `json:"addresses"`
}

// UnresolvedOf lists the values the API server assigns that p's creates
// and updates need, by Service and field. A name built from a placeholder
// UID (UIDPlaceholderPrefix) is the UID of the Service scope gives that
// prefix; a reference to such a resource needs it too. Deletes need
// nothing: they name what exists.
func UnresolvedOf(p *Plan, scope Scope) []Unresolved {
	byPrefix := map[string]string{}
	for _, s := range scope.Services {
		if IsUIDPlaceholder(s.Prefix) {
			byPrefix[s.Prefix] = s.Name
		}
	}
	found := map[ServerValue][]string{}
	need := func(v ServerValue, addr string) {
		if l := found[v]; len(l) == 0 || l[len(l)-1] != addr {
			found[v] = append(l, addr)
		}
	}
	uid := func(name, addr string) {
		if pfx := UIDPrefixIn(name); pfx != "" && IsUIDPlaceholder(pfx) {
			need(ServerValue{Service: byPrefix[pfx], Field: FieldUID}, addr)
		}
	}
	for _, c := range p.Changes {
		if c.After == nil {
			continue
		}
		addr := c.ID().Address()
		EachServerValue(c.After.Properties, func(v ServerValue) { need(v, addr) })
		if len(byPrefix) == 0 {
			continue // no name holds a placeholder: skip walking names and references
		}
		for _, n := range c.ID().Names {
			uid(n, addr)
		}
		EachReference(c.After.Properties, func(ref string) {
			if id, err := ParseID(ref); err == nil {
				for _, n := range id.Names {
					uid(n, addr)
				}
			}
		})
	}
	out := make([]Unresolved, 0, len(found))
	for v, addrs := range found {
		out = append(out, Unresolved{ServerValue: v, Addresses: addrs})
	}
	slices.SortFunc(out, func(a, b Unresolved) int {
		return cmp.Or(cmp.Compare(a.Service, b.Service), cmp.Compare(a.Field, b.Field))
	})
	return out
}
