package planview

import (
	"fmt"
	"sort"
	"strings"

	"github.com/azsvc/azsvc/plan"
)

// Chain is one private endpoint's Private Link chain as the plan touches
// it: the Services behind the private link service, the load balancer
// frontend it sits on, the PLS, the endpoint, and the DNS records that
// point at it, by zone. Parts the plan does not change are named when the
// changes name them, else left empty.
type Chain struct {
	Services []string    `json:"services"`
	Frontend string      `json:"frontend,omitempty"`
	PLS      string      `json:"private_link_service,omitempty"`
	Endpoint string      `json:"private_endpoint"`
	Zones    []ChainZone `json:"zones"`
}

// ChainZone is a zone of a chain and the records it holds for the endpoint.
type ChainZone struct {
	Zone    string   `json:"zone"`
	Records []string `json:"records"`
}

// Chains lists the chain of every private endpoint the plan creates,
// changes or deletes, by endpoint address.
func Chains(p *plan.Plan) []Chain {
	byKey := map[plan.Key]*plan.Change{}
	for _, c := range p.Changes {
		byKey[c.Key()] = c
	}
	var out []Chain
	for _, c := range p.Changes {
		if c.ID().Kind != plan.KindPrivateEndpoint {
			continue
		}
		pe := c.After
		if pe == nil {
			pe = c.Before
		}
		ch := Chain{Services: []string{}, Endpoint: c.ID().Address(), Zones: []ChainZone{}}
		ch.PLS, ch.Frontend, ch.Services = plsLink(plan.AsPrivateEndpoint(pe).Target(), byKey)
		ch.Zones = recordsOf(pe, p.Changes)
		out = append(out, ch)
	}
	return out
}

// plsLink names the PLS a connection target names, and the frontend and
// Services of that PLS when the plan changes it.
func plsLink(target any, byKey map[plan.Key]*plan.Change) (pls, frontend string, services []string) {
	services = []string{}
	var k plan.Key
	switch t := target.(type) {
	case string:
		id, err := plan.ParseID(t)
		if err != nil {
			return t, "", services // an alias
		}
		k = id.Key()
	default:
		k, _, _ = plan.UnknownSource(target)
	}
	if k == "" {
		return "", "", services
	}
	pls = addressOf(k)
	if c := byKey[k]; c != nil {
		r := c.After
		if r == nil {
			r = c.Before
		}
		if fes := plan.AsPrivateLinkService(r).FrontendIDs(); len(fes) > 0 {
			frontend = addressOf(fes[0])
		}
		services = append(services, c.Services...)
	}
	return pls, frontend, services
}

// recordsOf finds the A records of the endpoint's owner among the changes.
func recordsOf(pe *plan.Resource, changes []*plan.Change) []ChainZone {
	zones := map[string][]string{}
	for _, c := range changes {
		if c.ID().Kind != plan.KindARecord || !sharesService(c.Services, pe.Services) {
			continue
		}
		id := c.ID()
		zones[id.Names[0]] = append(zones[id.Names[0]], id.Name())
	}
	out := []ChainZone{}
	for z, recs := range zones {
		sort.Strings(recs)
		out = append(out, ChainZone{Zone: z, Records: recs})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Zone < out[j].Zone })
	return out
}

func sharesService(a, b []string) bool {
	for _, x := range a {
		for _, y := range b {
			if x == y {
				return true
			}
		}
	}
	return false
}

// Line renders a chain on one line: Service → frontend → PLS → endpoint →
// zone: records.
func (ch Chain) Line() string {
	var parts []string
	if len(ch.Services) > 0 {
		parts = append(parts, "Service "+strings.Join(ch.Services, ", "))
	}
	for _, p := range []string{ch.Frontend, ch.PLS, ch.Endpoint} {
		if p != "" {
			parts = append(parts, p)
		}
	}
	var zones []string
	for _, z := range ch.Zones {
		zones = append(zones, z.Zone+": "+strings.Join(z.Records, ", "))
	}
	if len(zones) > 0 {
		parts = append(parts, strings.Join(zones, "; "))
	}
	return strings.Join(parts, " → ")
}

// AwaitingText says what an endpoint awaiting approval by the PLS owner
// waits for.
func AwaitingText(a plan.Awaiting) string {
	what := "its connection will be Pending"
	if a.Status != "" {
		what = "its connection is " + a.Status
	}
	target := a.Target
	if target == "" {
		target = "the private link service"
	}
	return fmt.Sprintf("%s until the owner of %s approves it", what, target)
}
