package exposure

import (
	"slices"
	"strconv"
	"strings"

	"github.com/azsvc/azsvc/plan"
)

// tally gathers one Service's reach on both sides of the plan, from the
// changes that touch it.
type tally struct {
	reach   [2]map[Reach]bool
	public  [2]map[string]bool            // ports served on public frontends
	sources [2]map[string]map[string]bool // NSG port -> allowed sources
	deny    [2]bool
	pls     []PrivateLink
	changes map[string]bool
	order   map[string]int // address -> position in the plan
}

func newTally(order map[string]int) *tally {
	t := &tally{changes: map[string]bool{}, order: order}
	for i := range 2 {
		t.reach[i], t.public[i], t.sources[i] = map[Reach]bool{}, map[string]bool{}, map[string]map[string]bool{}
	}
	return t
}

func idx(s side) int {
	if s == after {
		return 1
	}
	return 0
}

// add records what r, one side of c, says about the Service; false when
// it says nothing about reach.
func (t *tally) add(s side, c *plan.Change, r *plan.Resource, fronts frontends) bool {
	i := idx(s)
	switch r.Kind() {
	case plan.KindFrontend:
		reach := ReachInternal
		if isPublic(r) {
			reach = ReachPublic
		}
		t.reach[i][reach] = true
	case plan.KindRule:
		rule := plan.AsRule(r)
		if !fronts.public(rule.FrontendID(), s) {
			return false
		}
		t.public[i][rulePort(rule)] = true
	case plan.KindPrivateLinkService:
		if s == after || c.After == nil { // one entry per change, from both sides
			return t.privateLink(c)
		}
		return false
	default:
		return false
	}
	return true
}

func (t *tally) privateLink(c *plan.Change) bool {
	var vis, auto [2][]string
	for i, r := range []*plan.Resource{c.Before, c.After} {
		if r != nil {
			pls := plan.AsPrivateLinkService(r)
			vis[i], auto[i] = pls.Visibility(), pls.AutoApproval()
		}
	}
	pl := PrivateLink{Address: c.ID().Address(), Visibility: diffSubscriptions(vis), AutoApproval: diffSubscriptions(auto)}
	var parts []Direction
	for _, d := range []Subscriptions{pl.Visibility, pl.AutoApproval} {
		parts = append(parts, subscriptionsDirection(d)...)
	}
	dir, ok := direction(parts)
	if !ok {
		return false
	}
	pl.Direction = dir
	t.pls = append(t.pls, pl)
	return true
}

func (t *tally) changed(addr string) { t.changes[addr] = true }

// changeList is the changes behind the tally, in plan order.
func (t *tally) changeList() []string {
	out := make([]string, 0, len(t.changes))
	for a := range t.changes {
		out = append(out, a)
	}
	slices.SortFunc(out, func(a, b string) int { return t.order[a] - t.order[b] })
	return out
}

// exposure is the Service's change of reach; false when there is none.
func (t *tally) exposure() (Exposure, bool) {
	e := Exposure{Opened: minus(t.public[1], t.public[0]), Closed: minus(t.public[0], t.public[1]),
		Sources: t.sourceChanges(), PrivateLink: t.pls, Changes: t.changeList()}
	var parts []Direction
	e.From, e.To = reachOf(t.reach[0]), reachOf(t.reach[1])
	switch {
	case e.From == e.To, e.From != ReachPublic && e.To != ReachPublic:
		e.From, e.To = "", ""
	case e.To == ReachPublic:
		parts = append(parts, Wider)
	default:
		parts = append(parts, Narrower)
	}
	if len(e.Opened) > 0 {
		parts = append(parts, Wider)
	}
	if len(e.Closed) > 0 {
		parts = append(parts, Narrower)
	}
	for _, s := range e.Sources {
		parts = append(parts, s.Direction)
	}
	// A deny-all rule narrows only what could reach the Service before,
	// and widens only what still can after: not for a new or a removed
	// frontend.
	fresh := e.From == ReachNone || e.To == ReachNone
	switch {
	case t.deny[1] && !t.deny[0]:
		e.DenyAll = "added"
		if !fresh {
			parts = append(parts, Narrower)
		}
	case t.deny[0] && !t.deny[1]:
		e.DenyAll = "removed"
		if !fresh {
			parts = append(parts, Wider)
		}
	}
	for _, pl := range t.pls {
		parts = append(parts, pl.Direction)
	}
	dir, ok := direction(parts)
	e.Direction = dir
	if e.Opened == nil {
		e.Opened = []string{}
	}
	if e.Closed == nil {
		e.Closed = []string{}
	}
	if e.PrivateLink == nil {
		e.PrivateLink = []PrivateLink{}
	}
	return e, ok
}

// reachOf is the widest reach of a side's changed frontends.
func reachOf(m map[Reach]bool) Reach {
	switch {
	case m[ReachPublic]:
		return ReachPublic
	case m[ReachInternal]:
		return ReachInternal
	}
	return ReachNone
}

// sourceChanges are the ports whose allowed sources change, those with
// the same change together, in port order.
func (t *tally) sourceChanges() []Sources {
	ports := map[string]bool{}
	for i := range 2 {
		for p := range t.sources[i] {
			ports[p] = true
		}
	}
	var out []Sources
	for _, p := range sortedPorts(ports) {
		b, a := sortedKeys(t.sources[0][p]), sortedKeys(t.sources[1][p])
		dir, ok := sourcesDirection(b, a)
		if !ok {
			continue
		}
		if j := slices.IndexFunc(out, func(s Sources) bool { return slices.Equal(s.Before, b) && slices.Equal(s.After, a) }); j >= 0 {
			out[j].Ports = append(out[j].Ports, p)
			continue
		}
		out = append(out, Sources{Ports: []string{p}, Before: b, After: a, Direction: dir})
	}
	if out == nil {
		return []Sources{}
	}
	return out
}

// rulePort is a load-balancing rule's protocol and frontend port,
// "tcp/443"; "all" for an HA ports rule.
func rulePort(rule plan.Rule) string {
	proto := strings.ToLower(rule.Protocol())
	port, ok := rule.FrontendPort()
	if proto == "all" && port == 0 {
		return "all"
	}
	if !ok {
		return proto + "/" + plan.ServerAssignedText
	}
	return proto + "/" + strconv.Itoa(port)
}

// nsgPorts are an NSG rule's destination ports with their protocol.
func nsgPorts(rule plan.SecurityRule) []string {
	proto := strings.ToLower(rule.Protocol())
	if proto == "*" || proto == "" {
		proto = "any"
	}
	var out []string
	for _, p := range rule.RawPortRanges() {
		s, ok := p.(string)
		if !ok {
			s = plan.ServerAssignedText // a node port (floating IP disabled)
		}
		if s == "*" {
			s = "all"
		}
		out = append(out, proto+"/"+s)
	}
	return out
}
