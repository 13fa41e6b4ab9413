package exposure

import (
	"slices"

	"github.com/azsvc/azsvc/plan"
)

// NSG rules are shared: CCM names an allow rule after its protocol,
// sources and ports, and puts the addresses of every Service wanting them
// in its destinations (ccm-semantics §5.3); nothing in a rule says which
// Service put a destination there. So what the NSG admits is tallied per
// destination address, on both sides of the plan, and an address is the
// Services whose public IP or frontend has it, when the plan changes
// those, else the Services that every changed rule holding it serves.

// dest is what the changed rules admit to one destination address.
type dest struct {
	sources  [2]map[string]map[string]bool // port -> sources
	deny     [2]bool
	services []string // nil until the first rule holding it
	seen     bool
	changes  []string
}

// nsgTally gathers the destinations of the plan's NSG rule changes.
type nsgTally struct {
	dests map[string]*dest
	order []string
	// known are the Services of the addresses the plan's public IP and
	// frontend changes hold: a new public IP's address (a marker) or one
	// read, a frontend's private IP.
	known map[string][]string
}

// knowAddresses indexes the addresses of the public IPs and frontends the
// plan changes by the Services they serve.
func (n *nsgTally) knowAddresses(changes []*plan.Change) {
	n.known = map[string][]string{}
	note := func(token string, c *plan.Change, r *plan.Resource) {
		svcs := r.Services
		if len(svcs) == 0 {
			svcs = c.Services
		}
		if token != "" && len(svcs) > 0 {
			n.known[token] = plan.SortedUnique(append(n.known[token], svcs...))
		}
	}
	for _, c := range changes {
		for _, r := range []*plan.Resource{c.Before, c.After} {
			if r == nil {
				continue
			}
			switch r.Kind() {
			case plan.KindPublicIP:
				note(string(r.Key())+"#ipAddress", c, r)
				if ip := plan.AsPublicIP(r).Address(); ip != "" {
					note(plan.CanonicalIP(ip), c, r)
				}
			case plan.KindFrontend:
				note(string(r.Key())+"#"+plan.PrivateIPField, c, r)
				if ip := plan.AsFrontend(r).PrivateIP(); ip != "" {
					note(plan.CanonicalIP(ip), c, r)
				}
			}
		}
	}
}

func (n *nsgTally) add(c *plan.Change) {
	touched := map[string]bool{}
	for i, r := range []*plan.Resource{c.Before, c.After} {
		if r == nil {
			continue
		}
		rule := plan.AsSecurityRule(r)
		if rule.Direction() != "inbound" {
			continue
		}
		for _, v := range rule.Destinations() {
			token, ok := destToken(v)
			if !ok {
				continue
			}
			d := n.dest(token)
			touched[token] = true
			if rule.Deny() {
				d.deny[i] = true
				continue
			}
			for _, port := range nsgPorts(rule) {
				if d.sources[i][port] == nil {
					d.sources[i][port] = map[string]bool{}
				}
				for _, src := range rule.Sources() {
					d.sources[i][port][src] = true
				}
			}
		}
	}
	for token := range touched {
		d := n.dests[token]
		d.services = intersect(d.services, c.Services, d.seen)
		d.seen = true
		d.changes = append(d.changes, c.ID().Address())
	}
}

func (n *nsgTally) dest(token string) *dest {
	if n.dests == nil {
		n.dests = map[string]*dest{}
	}
	d, ok := n.dests[token]
	if !ok {
		d = &dest{}
		for i := range 2 {
			d.sources[i] = map[string]map[string]bool{}
		}
		n.dests[token] = d
		n.order = append(n.order, token)
	}
	return d
}

// intersect narrows the Services of an address to those of one more rule
// holding it; when none is common (node IPs several Services share) the
// union stays, so no Service is left out.
func intersect(have, more []string, seen bool) []string {
	if !seen {
		return slices.Clone(more)
	}
	var out []string
	for _, s := range have {
		if slices.Contains(more, s) {
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		return plan.SortedUnique(append(slices.Clone(have), more...))
	}
	return out
}

// destToken identifies a destination: an address, or the value a marker
// stands for (a new public IP's address, the node IPs of a pool).
func destToken(v any) (string, bool) {
	switch t := v.(type) {
	case string:
		return plan.CanonicalIP(t), t != ""
	}
	if src, field, ok := plan.UnknownSource(v); ok {
		return string(src) + "#" + field, true
	}
	if sv, _, ok := plan.AsServerValue(v); ok {
		return sv.Service + "#" + sv.Field, true
	}
	return "", false
}

// feed adds what each destination's rules admit to the tallies of the
// Services it is, in the order the destinations were met.
func (n *nsgTally) feed(get func(owner) *tally) {
	owners := n.owners()
	for _, token := range n.order {
		d := n.dests[token]
		for _, s := range owners[token] {
			if _, endpoint := plan.EndpointOf(s); endpoint {
				continue
			}
			t := get(owner{service: s})
			for i := range 2 {
				t.deny[i] = t.deny[i] || d.deny[i]
				for port, srcs := range d.sources[i] {
					if t.sources[i][port] == nil {
						t.sources[i][port] = map[string]bool{}
					}
					for src := range srcs {
						t.sources[i][port][src] = true
					}
				}
			}
			for _, addr := range d.changes {
				t.changed(addr)
			}
		}
	}
}

// owners are the Services of each destination: those the plan's public IP
// and frontend changes give it, else those every rule holding it serves,
// less the Services a rule already has another address of (a Service has
// one address per IP family, and the families have rules of their own).
func (n *nsgTally) owners() map[string][]string {
	out := map[string][]string{}
	sure := map[string]map[string]bool{} // change -> Services owning one of its addresses alone
	for _, token := range n.order {
		svcs, known := n.known[token]
		if !known {
			svcs = n.dests[token].services
		}
		out[token] = svcs
		if len(svcs) == 1 {
			for _, c := range n.dests[token].changes {
				if sure[c] == nil {
					sure[c] = map[string]bool{}
				}
				sure[c][svcs[0]] = true
			}
		}
	}
	for _, token := range n.order {
		if _, known := n.known[token]; known || len(out[token]) < 2 {
			continue
		}
		var left []string
		for _, s := range out[token] {
			if !slices.ContainsFunc(n.dests[token].changes, func(c string) bool { return sure[c][s] }) {
				left = append(left, s)
			}
		}
		if len(left) > 0 {
			out[token] = left
		}
	}
	return out
}
