// Package exposure says, from a plan's changes, how each Service's
// reachability changes: who can reach what, from where. A reviewer of a
// plan is first of all a security reviewer (issue 22 item 1), so this is
// computed in the core as typed data and renderers only word and place it
// (DESIGN.md "Diff, ownership, order").
//
// It reads the changes only: a Service's frontends (internal or public),
// its load-balancing rules on public frontends (the ports served to the
// Internet), the NSG allow and deny-all rules whose destinations are its
// addresses (the sources allowed, per port), and its private link
// services (which subscriptions may see and are auto-approved). What the
// plan does not change does not change who can reach it.
package exposure

import (
	"slices"
	"sort"

	"github.com/azsvc/azsvc/plan"
)

// Reach is where a Service's frontends answer: nowhere, inside the
// virtual network, or on a public IP.
type Reach string

const (
	ReachNone     Reach = "none"
	ReachInternal Reach = "internal"
	ReachPublic   Reach = "public"
)

// Direction says whether more or fewer can reach a Service.
type Direction string

const (
	Wider    Direction = "wider"
	Narrower Direction = "narrower"
	// Changed: some become able to reach it, others no longer.
	Changed Direction = "changed"
)

// Exposure is how one Service's reachability changes.
type Exposure struct {
	// Service is the namespace/name; empty for a Service outside the input
	// that only the name prefix of its resources identifies (Prefix).
	Service   string    `json:"service,omitempty"`
	Prefix    string    `json:"prefix,omitempty"`
	Direction Direction `json:"direction"`
	// From and To are set when the Service moves between internal and
	// public, or gains or loses its public frontend.
	From Reach `json:"from,omitempty"`
	To   Reach `json:"to,omitempty"`
	// Opened and Closed are the ports it starts or stops serving on a
	// public frontend: "tcp/443", or "all" for HA ports.
	Opened []string `json:"ports_opened"`
	Closed []string `json:"ports_closed"`
	// Sources are the NSG allow rules' sources per port, where they change.
	Sources []Sources `json:"sources"`
	// DenyAll is "added" or "removed" when a deny-all rule for its
	// addresses starts or stops refusing every other source.
	DenyAll string `json:"deny_all,omitempty"`
	// PrivateLink are its private link services whose visibility or
	// auto-approval changes.
	PrivateLink []PrivateLink `json:"private_link"`
	// Changes are the addresses of the changes behind it, in plan order.
	Changes []string `json:"changes"`
}

// Sources is what may reach some ports of a Service through the NSG
// before and after the plan: prefixes, "Internet", service tags, "*".
// Before is empty for ports no allow rule admitted, After for ports none
// will.
type Sources struct {
	Ports     []string  `json:"ports"`
	Before    []string  `json:"before"`
	After     []string  `json:"after"`
	Direction Direction `json:"direction"`
}

// PrivateLink is a change of who may see and connect to a private link
// service without its owner's approval.
type PrivateLink struct {
	Address      string        `json:"address"`
	Direction    Direction     `json:"direction"`
	Visibility   Subscriptions `json:"visibility"`
	AutoApproval Subscriptions `json:"auto_approval"`
}

// Subscriptions added to and removed from a list ("*": every one).
type Subscriptions struct {
	Added   []string `json:"added"`
	Removed []string `json:"removed"`
}

// Of lists the Services whose reachability p changes, by name (those known
// only by prefix last).
func Of(p *plan.Plan) []Exposure {
	fronts := frontendsOf(p.Changes)
	order := map[string]int{} // address -> position in the plan
	for i, c := range p.Changes {
		order[c.ID().Address()] = i
	}
	acc := map[owner]*tally{}
	var owners []owner
	get := func(o owner) *tally {
		t, ok := acc[o]
		if !ok {
			t = newTally(order)
			acc[o] = t
			owners = append(owners, o)
		}
		return t
	}
	var nsg nsgTally
	nsg.knowAddresses(p.Changes)
	for _, c := range p.Changes {
		if c.ID().Kind == plan.KindSecurityRule {
			nsg.add(c)
			continue
		}
		for _, side := range []side{before, after} {
			r := side.of(c)
			if r == nil {
				continue
			}
			for _, o := range ownersOf(c, r) {
				if get(o).add(side, c, r, fronts) {
					acc[o].changed(c.ID().Address())
				}
			}
		}
	}
	nsg.feed(get)
	var out []Exposure
	for _, o := range owners {
		if e, ok := acc[o].exposure(); ok {
			e.Service, e.Prefix = o.service, o.prefix
			out = append(out, e)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if (out[i].Service == "") != (out[j].Service == "") {
			return out[j].Service == ""
		}
		return out[i].Service+out[i].Prefix < out[j].Service+out[j].Prefix
	})
	return out
}

// owner is a Service, by name or by the name prefix of its resources.
type owner struct{ service, prefix string }

// ownersOf are the Services one side of a change serves: the resource's
// own Services, else the change's, else the prefix of a pruned resource's
// name. PrivateEndpoints are consumers: they expose nothing.
func ownersOf(c *plan.Change, r *plan.Resource) []owner {
	services := r.Services
	if len(services) == 0 {
		services = c.Services
	}
	var out []owner
	for _, s := range services {
		if _, endpoint := plan.EndpointOf(s); !endpoint {
			out = append(out, owner{service: s})
		}
	}
	if len(services) == 0 && c.IsDelete() {
		if prefix := plan.UIDPrefixIn(r.Name()); prefix != "" {
			out = append(out, owner{prefix: prefix})
		}
	}
	return out
}

// side is the resource before or after a change.
type side bool

const (
	before side = false
	after  side = true
)

func (s side) of(c *plan.Change) *plan.Resource {
	if s == after {
		return c.After
	}
	return c.Before
}

// frontends records, for the frontends the plan changes, whether each
// side is public: a load-balancing rule's frontend is looked up here.
type frontends map[plan.Key][2]*bool

func frontendsOf(changes []*plan.Change) frontends {
	out := frontends{}
	for _, c := range changes {
		if c.ID().Kind != plan.KindFrontend {
			continue
		}
		var sides [2]*bool
		for i, r := range []*plan.Resource{c.Before, c.After} {
			if r != nil {
				public := isPublic(r)
				sides[i] = &public
			}
		}
		out[c.Key()] = sides
	}
	return out
}

// public reports whether frontend k is public on side s: as the plan
// changes it, else by its load balancer's name, which is how CCM tells an
// internal load balancer (ccm-semantics §2.2, isInternalLoadBalancer).
func (f frontends) public(k plan.Key, s side) bool {
	i := 0
	if s == after {
		i = 1
	}
	if p := f[k][i]; p != nil {
		return *p
	}
	id, err := plan.ParseID(string(k))
	if err != nil {
		return false
	}
	return !hasSuffixFold(id.Names[0], "-internal")
}

func isPublic(fe *plan.Resource) bool { return plan.AsFrontend(fe).PublicIPRef() != nil }

// direction combines the directions of a Service's parts.
func direction(parts []Direction) (Direction, bool) {
	wider, narrower := slices.Contains(parts, Wider), slices.Contains(parts, Narrower)
	switch {
	case slices.Contains(parts, Changed), wider && narrower:
		return Changed, true
	case wider:
		return Wider, true
	case narrower:
		return Narrower, true
	}
	return "", false
}
