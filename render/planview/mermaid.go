package planview

import (
	"fmt"
	"io"
	"strings"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/quote"
)

// Mermaid writes the plan as a flowchart for a pull request (a bare
// mermaid document: wrap it in a ```mermaid fence). Where each change
// lands is its frame (issue 22 item 2): one subgraph per subscription the
// plan writes to, the cluster's marked, holding one per resource group,
// holding the changes, each labelled with its symbol and address. The
// Services and PrivateEndpoints of the input point at their frontends and
// endpoints; a change points at the changed resources it references; a
// private endpoint points at the DNS zones holding records of its
// address, and a zone at its records and links. Node ids are generated,
// so any name is safe; labels are quoted and escaped.
func Mermaid(w io.Writer, in Input) error {
	g := &mermaid{ids: map[string]string{}}
	g.add("flowchart LR")
	p := in.Plan
	for _, s := range WritesLines(plan.WriteScopes(p, in.Header.Subscription)) {
		g.add("  %% writes to subscription " + s)
	}
	g.owners(p.Changes)
	g.scopes(p, in.Header.Subscription)
	g.edges(p)
	_, err := io.WriteString(w, quote.Lines(strings.Join(g.lines, "\n")+"\n"))
	return err
}

type mermaid struct {
	ids   map[string]string
	lines []string
	// placed are the keys drawn as nodes: the changes, and the zones of
	// changed records and links the plan does not change.
	placed map[plan.Key]bool
}

func (g *mermaid) add(line string) { g.lines = append(g.lines, line) }

func (g *mermaid) id(key string) string {
	if id, ok := g.ids[key]; ok {
		return id
	}
	id := fmt.Sprintf("n%d", len(g.ids))
	g.ids[key] = id
	return id
}

// owners declares a node per Service and PrivateEndpoint with changes.
func (g *mermaid) owners(changes []*plan.Change) {
	seen := map[string]bool{}
	for _, c := range changes {
		for _, s := range c.Services {
			if !seen[s] {
				seen[s] = true
				g.add(fmt.Sprintf("  %s([\"%s\"])", g.id("owner:"+s), mermaidEscape(ownerLabel(s))))
			}
		}
	}
}

func ownerLabel(owner string) string {
	if key, ok := plan.EndpointOf(owner); ok {
		return "PrivateEndpoint " + key
	}
	return "Service " + owner
}

// scopes declares the changes inside their subscription's and resource
// group's subgraphs, in the order plan.WriteScopes lists them.
func (g *mermaid) scopes(p *plan.Plan, clusterSub string) {
	g.placed = map[plan.Key]bool{}
	zones := missingZones(p.Changes)
	for _, ws := range plan.WriteScopes(p, clusterSub) {
		label := "subscription " + ws.Subscription
		if ws.Cluster {
			label += " (the cluster's)"
		}
		g.add(fmt.Sprintf("  subgraph %s[\"%s\"]", g.id("sub:"+strings.ToLower(ws.Subscription)), mermaidEscape(label)))
		for _, rg := range ws.ResourceGroups {
			g.add(fmt.Sprintf("    subgraph %s[\"%s\"]", g.id("rg:"+strings.ToLower(ws.Subscription+"/"+rg.Name)), mermaidEscape("resource group "+rg.Name)))
			for _, z := range zones {
				if strings.EqualFold(z.Subscription, ws.Subscription) && strings.EqualFold(z.ResourceGroup, rg.Name) {
					g.placed[z.Key()] = true
					g.add(fmt.Sprintf("      %s[/\"%s\"/]", g.id(string(z.Key())), mermaidEscape(z.Shown()+" (unchanged)")))
				}
			}
			for _, c := range p.Changes {
				if id := c.ID(); strings.EqualFold(id.Subscription, ws.Subscription) && strings.EqualFold(id.ResourceGroup, rg.Name) {
					g.placed[c.Key()] = true
					g.add(fmt.Sprintf("      %s[\"%s\"]", g.id(string(c.Key())), mermaidEscape(symbol(c.Actions)+" "+id.Shown())))
				}
			}
			g.add("    end")
		}
		g.add("  end")
	}
}

// missingZones are the DNS zones of changed records and links that the
// plan does not change: drawn so that the zone → record edges have a zone.
func missingZones(changes []*plan.Change) []plan.ID {
	changed := map[plan.Key]bool{}
	for _, c := range changes {
		changed[c.Key()] = true
	}
	var out []plan.ID
	for _, c := range changes {
		if zone, ok := c.ID().ParentID(); ok && zone.Kind == plan.KindPrivateDNSZone && !changed[zone.Key()] {
			changed[zone.Key()] = true
			out = append(out, zone)
		}
	}
	return out
}

// edges draws owner → frontend and endpoint, change → referenced change,
// endpoint → zone → record, zone → link; each edge once.
func (g *mermaid) edges(p *plan.Plan) {
	drawn := map[string]bool{}
	edge := func(from, to string) {
		if e := from + " --> " + to; from != to && !drawn[e] {
			drawn[e] = true
			g.add("  " + e)
		}
	}
	var endpoints []*plan.Change
	for _, c := range p.Changes {
		if c.ID().Kind == plan.KindPrivateEndpoint {
			endpoints = append(endpoints, c)
		}
	}
	for _, c := range p.Changes {
		node := g.id(string(c.Key()))
		if c.ID().Kind == plan.KindARecord {
			// The records of an endpoint's owner hold its address (Chains).
			for _, pe := range endpoints {
				if zone, _ := c.ID().ParentID(); sharesService(c.Services, pe.Services) {
					edge(g.id(string(pe.Key())), g.id(string(zone.Key())))
				}
			}
		}
		if k := c.ID().Kind; k == plan.KindFrontend || k == plan.KindPrivateEndpoint {
			for _, s := range c.Services {
				edge(g.id("owner:"+s), node)
			}
		}
		r := c.After
		if r == nil {
			r = c.Before
		}
		zone, inZone := c.ID().ParentID()
		inZone = inZone && zone.Kind == plan.KindPrivateDNSZone
		if inZone {
			edge(g.id(string(zone.Key())), node)
		}
		for _, ref := range plan.Dependencies(r) {
			if !g.placed[ref] {
				continue
			}
			if refID, err := plan.ParseID(string(ref)); err == nil && refID.Kind == plan.KindPrivateEndpoint && inZone {
				edge(g.id(string(ref)), g.id(string(zone.Key()))) // the record holds the endpoint's address
				continue
			}
			edge(node, g.id(string(ref)))
		}
	}
}

// mermaidEscape makes text safe inside a quoted mermaid label.
func mermaidEscape(s string) string {
	return strings.NewReplacer(`"`, "#quot;", "<", "#lt;", ">", "#gt;", "\n", " ").Replace(s)
}
