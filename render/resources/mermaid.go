package resources

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/desired"
)

// Mermaid writes a flowchart of Services -> frontends -> rules -> probes,
// frontends -> public IPs and Private Link Services, and Services -.->
// the NSG rules that admit their traffic. Load balancers and the NSG are
// subgraphs. Node ids are generated (n0, n1, ...) in state order, so any
// resource name is safe; labels are quoted and escaped. The output is a
// bare mermaid document: wrap it in a ```mermaid fence for GitHub.
func Mermaid(w io.Writer, st *plan.State) error {
	g := &graph{ids: map[string]string{}, declared: map[string]bool{}}
	g.add("flowchart LR")
	rs := st.Resources()
	var svcs []string
	seen := map[string]bool{}
	for _, r := range rs {
		for _, s := range r.Services {
			if !seen[s] {
				seen[s] = true
				svcs = append(svcs, s)
			}
		}
	}
	sort.Strings(svcs)
	for _, s := range svcs {
		g.declare("  ", g.id("svc:"+s), fmt.Sprintf("([\"%s\"])", escape(ownerTitle(s))))
	}
	g.nodes(st, rs)
	g.edges(st, rs)
	_, err := io.WriteString(w, strings.Join(g.lines, "\n")+"\n")
	return err
}

type graph struct {
	ids      map[string]string
	declared map[string]bool // node ids already declared
	lines    []string
}

func (g *graph) add(line string) { g.lines = append(g.lines, line) }

// id returns the node id of a key, allocating n<i> on first use.
func (g *graph) id(key string) string {
	if id, ok := g.ids[key]; ok {
		return id
	}
	id := fmt.Sprintf("n%d", len(g.ids))
	g.ids[key] = id
	return id
}

// shown reports whether a kind is drawn as a node.
func shown(k plan.Kind) bool {
	switch k {
	case plan.KindFrontend, plan.KindRule, plan.KindProbe, plan.KindPublicIP, plan.KindPrivateLinkService, plan.KindSecurityRule,
		plan.KindPrivateEndpoint, plan.KindVNetLink, plan.KindARecord:
		return true
	}
	return false
}

// nodes declares every drawn resource, children inside their parent's
// subgraph.
func (g *graph) nodes(st *plan.State, rs []*plan.Resource) {
	children := map[plan.Key][]*plan.Resource{}
	for _, r := range rs {
		if pid, ok := r.ID.ParentID(); ok && shown(r.Kind()) {
			children[pid.Key()] = append(children[pid.Key()], r)
		}
	}
	for _, r := range rs {
		switch {
		case r.Kind() == plan.KindLoadBalancer || r.Kind() == plan.KindSecurityGroup || r.Kind() == plan.KindPrivateDNSZone:
			g.add(fmt.Sprintf("  subgraph %s[\"%s %s\"]", g.id("group:"+string(r.Key())), kindLabel(r.Kind()), escape(plan.ShowName(r.Name()))))
			for _, c := range children[r.Key()] {
				g.add("    " + g.node(c))
			}
			g.add("  end")
		case r.Kind().Parent() == "" && shown(r.Kind()):
			g.add("  " + g.node(r))
		}
	}
	for _, r := range rs { // children whose parent is not in the state
		if pid, ok := r.ID.ParentID(); ok && shown(r.Kind()) {
			if _, there := st.Get(pid.Key()); !there {
				g.add("  " + g.node(r))
			}
		}
	}
}

// declare adds a node declaration once.
func (g *graph) declare(indent, id, shape string) {
	if g.declared[id] {
		return
	}
	g.declared[id] = true
	g.add(indent + id + shape)
}

func (g *graph) node(r *plan.Resource) string {
	label := escape(kindLabel(r.Kind()) + " " + plan.ShowName(r.Name()))
	if r.Kind() == plan.KindRule {
		label += "<br/>" + escape(value(r.Properties["protocol"])+" "+value(r.Properties["frontendPort"]))
	}
	id := g.id(string(r.Key()))
	g.declared[id] = true
	return fmt.Sprintf("%s[\"%s\"]", id, label)
}

// edges draws Service -> frontend, frontend -> rule -> probe, frontend ->
// PIP, frontend -> PLS and Service -.-> NSG rule.
func (g *graph) edges(st *plan.State, rs []*plan.Resource) {
	for _, r := range rs {
		switch r.Kind() {
		case plan.KindFrontend:
			for _, s := range r.Services {
				g.add(fmt.Sprintf("  %s --> %s", g.id("svc:"+s), g.id(string(r.Key()))))
			}
			g.refEdge(st, r, r.Properties["publicIPAddress"], "")
		case plan.KindRule:
			g.refEdge(st, r, r.Properties["frontendIPConfiguration"], "reverse")
			g.refEdge(st, r, r.Properties["probe"], "")
		case plan.KindPrivateLinkService:
			for _, ref := range asList(r.Properties["loadBalancerFrontendIpConfigurations"]) {
				g.refEdge(st, r, ref, "reverse")
			}
		case plan.KindSecurityRule:
			for _, s := range r.Services {
				g.add(fmt.Sprintf("  %s -.-> %s", g.id("svc:"+s), g.id(string(r.Key()))))
			}
		case plan.KindPrivateEndpoint:
			g.endpointEdges(st, r)
		case plan.KindARecord:
			for _, v := range plan.AsARecord(r).Addresses() {
				if src, _, ok := plan.UnknownSource(v); ok {
					g.add(fmt.Sprintf("  %s --> %s", g.id(string(src)), g.id(string(r.Key()))))
				}
			}
		}
	}
}

// endpointEdges draws owner --> endpoint and PLS --> endpoint (the
// connection); a PLS outside the state becomes a node of its own.
func (g *graph) endpointEdges(st *plan.State, r *plan.Resource) {
	for _, s := range r.Services {
		g.add(fmt.Sprintf("  %s --> %s", g.id("svc:"+s), g.id(string(r.Key()))))
	}
	var pls plan.Key
	label := ""
	switch t := plan.AsPrivateEndpoint(r).Target().(type) {
	case string:
		pls, label = plan.KeyOf(t), t
		if id, err := plan.ParseID(t); err == nil {
			label = plan.ShowName(id.Name())
		}
	default:
		pls, _, _ = plan.UnknownSource(t)
	}
	if pls == "" {
		return
	}
	if _, inState := st.Get(pls); !inState {
		g.declare("  ", g.id(string(pls)), fmt.Sprintf("[/\"private link service %s (not managed)\"/]", escape(label)))
	}
	g.add(fmt.Sprintf("  %s -. connection .-> %s", g.id(string(pls)), g.id(string(r.Key()))))
}

// refEdge draws r --> target (or target --> r when reverse) for a
// reference {"id": ...}; a target outside the state (a user-assigned PIP)
// becomes a node of its own.
func (g *graph) refEdge(st *plan.State, r *plan.Resource, ref any, dir string) {
	m, ok := ref.(map[string]any)
	if !ok {
		return
	}
	var target string
	switch id := m["id"].(type) {
	case string:
		key := plan.KeyOf(id)
		target = g.id(string(key))
		if _, inState := st.Get(key); !inState {
			g.declare("  ", target, fmt.Sprintf("[/\"public IP %s (not managed)\"/]", escape(refValue(id))))
		}
	default:
		_, addr, isAddr := desired.ByAddress(id)
		if !isAddr {
			return
		}
		target = g.id("addr:" + addr)
		g.declare("  ", target, fmt.Sprintf("[/\"public IP %s (not managed)\"/]", escape(addr)))
	}
	from, to := g.id(string(r.Key())), target
	if dir == "reverse" {
		from, to = to, from
	}
	g.add(fmt.Sprintf("  %s --> %s", from, to))
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

// escape makes text safe inside a quoted mermaid label.
func escape(s string) string {
	return strings.NewReplacer(`"`, "#quot;", "<", "#lt;", ">", "#gt;").Replace(s)
}
