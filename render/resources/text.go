package resources

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/render/style"
)

// Text writes a readable tree grouped by Service: for each Service the
// top-level resources it uses (public IPs, load balancers, the NSG, Private
// Link Services) and, under each, the children that serve it. A resource
// serving several Services appears under each of them, marked shared.
func Text(w io.Writer, st *plan.State, s style.Style) error {
	tw := &textWriter{w: w, s: s}
	bySvc := map[string][]*plan.Resource{}
	for _, r := range st.Resources() {
		for _, svc := range r.Services {
			bySvc[svc] = append(bySvc[svc], r)
		}
	}
	if len(bySvc) == 0 {
		tw.line(0, s.Dim("no Azure resources"))
		return tw.err
	}
	svcs := make([]string, 0, len(bySvc))
	for svc := range bySvc {
		svcs = append(svcs, svc)
	}
	// Services first, then the PrivateEndpoints that consume their PLSs.
	sort.Slice(svcs, func(i, j int) bool {
		_, ei := plan.EndpointOf(svcs[i])
		_, ej := plan.EndpointOf(svcs[j])
		if ei != ej {
			return ej
		}
		return svcs[i] < svcs[j]
	})
	for i, svc := range svcs {
		if i > 0 {
			tw.line(0, "")
		}
		tw.line(0, s.Bold(ownerTitle(svc)))
		tw.service(st, bySvc[svc])
	}
	return tw.err
}

type textWriter struct {
	w   io.Writer
	s   style.Style
	err error
}

func (tw *textWriter) line(depth int, text string) {
	if tw.err != nil {
		return
	}
	_, tw.err = fmt.Fprintf(tw.w, "%s%s\n", strings.Repeat("  ", depth), text)
}

// service prints one Service's resources grouped under their top-level
// parent, in kind rank order.
func (tw *textWriter) service(st *plan.State, rs []*plan.Resource) {
	var parents []plan.Key
	children := map[plan.Key][]*plan.Resource{}
	seen := map[plan.Key]bool{}
	for _, r := range rs {
		parent := r.Key()
		if pid, ok := r.ID.ParentID(); ok {
			parent = pid.Key()
			children[parent] = append(children[parent], r)
		}
		if !seen[parent] {
			seen[parent] = true
			parents = append(parents, parent)
		}
	}
	for _, pk := range parents {
		parent, ok := st.Get(pk)
		if !ok {
			id, _ := plan.ParseID(string(pk))
			tw.line(1, tw.s.Cyan(kindLabel(id.Kind))+" "+plan.ShowName(id.Name()))
		} else {
			tw.line(1, tw.s.Cyan(kindLabel(parent.Kind()))+" "+plan.ShowName(parent.Name())+tw.s.Dim(topSummary(parent)))
			for _, d := range tw.details(parent) {
				tw.line(2, d)
			}
		}
		for _, c := range children[pk] {
			tw.child(c)
		}
	}
}

// child is a child resource's line: kind, name and what it does, the
// description on indented lines of its own when the line would be wider
// than style.Width.
func (tw *textWriter) child(c *plan.Resource) {
	head := fmt.Sprintf("%-9s %s", kindLabel(c.Kind()), plan.ShowName(c.Name()))
	text := tw.summary(c)
	if text == "" || len(head)+2+len(text) <= style.Width-4 {
		if text != "" {
			text = tw.s.Dim("  " + text)
		}
		tw.line(2, head+text+tw.shared(c))
		return
	}
	tw.line(2, head+tw.shared(c))
	pad := strings.Repeat(" ", 10)
	for _, l := range style.Wrap(pad+text, style.Width-4, pad) {
		tw.line(2, tw.s.Dim(l))
	}
}

func (tw *textWriter) shared(r *plan.Resource) string {
	if n := len(r.Services); n > 1 {
		return tw.s.Yellow(fmt.Sprintf("  (shared by %d Services)", n))
	}
	return ""
}

func kindLabel(k plan.Kind) string {
	switch k {
	case plan.KindLoadBalancer:
		return "load balancer"
	case plan.KindFrontend:
		return "frontend"
	case plan.KindBackendPool:
		return "pool"
	case plan.KindRule, plan.KindSecurityRule:
		return "rule"
	case plan.KindProbe:
		return "probe"
	case plan.KindPublicIP:
		return "public IP"
	case plan.KindSecurityGroup:
		return "NSG"
	case plan.KindPrivateLinkService:
		return "private link service"
	case plan.KindVirtualNetwork:
		return "virtual network"
	case plan.KindSubnet:
		return "subnet"
	case plan.KindPrivateEndpoint:
		return "private endpoint"
	case plan.KindPLSConnection:
		return "connection"
	case plan.KindPrivateDNSZone:
		return "private DNS zone"
	case plan.KindVNetLink:
		return "link"
	case plan.KindARecord:
		return "A record"
	}
	return string(k)
}

// ownerTitle names what owns resources: a Service, or a PrivateEndpoint
// object (plan.EndpointOwner).
func ownerTitle(owner string) string {
	if key, ok := plan.EndpointOf(owner); ok {
		return "Private endpoint " + key
	}
	return "Service " + owner
}

// topSummary is the short description after a top-level resource's name.
func topSummary(r *plan.Resource) string {
	var parts []string
	if n, ok := r.SKU["name"].(string); ok {
		parts = append(parts, n)
	}
	if r.Location != "" {
		parts = append(parts, r.Location)
	}
	if len(r.Zones) > 0 {
		parts = append(parts, "zones "+strings.Join(r.Zones, ","))
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, ", ") + ")"
}
