package planview

import (
	"fmt"
	"strings"

	"github.com/azsvc/azsvc/plan"
)

// Impact says, in plain language, what a disruptive change breaks
// (ux-anchors §8.2 item 6); nothing for the others.
func Impact(c *plan.Change) []string {
	if !c.Disruptive {
		return nil
	}
	var msgs []string
	switch {
	case c.IsReplace():
		msgs = replaceImpact(c)
	case c.IsDelete():
		msgs = deleteImpact(c)
	case c.Has(plan.ActionUpdate):
		msgs = updateImpact(c)
	}
	if c.Cause != "" {
		msgs = append(msgs, fmt.Sprintf("re-created because %s is replaced", addressOf(c.Cause)))
	}
	return msgs
}

func replaceImpact(c *plan.Change) []string {
	b := c.Before
	switch b.Kind() {
	case plan.KindPublicIP:
		return []string{fmt.Sprintf("public IP %s will be replaced by a new address, so DNS pointing at it breaks", pipLabel(b))}
	case plan.KindFrontend:
		return []string{fmt.Sprintf("frontend %s (%s) is re-created, so traffic to it stops while it is rebuilt", plan.ShowName(b.Name()), frontendIP(b))}
	case plan.KindPrivateLinkService:
		return []string{plsImpact(b)}
	case plan.KindPrivateEndpoint:
		return []string{peReplaceImpact(c)}
	}
	if c.Cause != "" {
		return nil // the cause says why
	}
	return []string{fmt.Sprintf("%s is deleted and re-created", b.ID.Shown())}
}

func deleteImpact(c *plan.Change) []string {
	b := c.Before
	switch b.Kind() {
	case plan.KindPublicIP:
		return []string{fmt.Sprintf("public IP %s will be released, so DNS pointing at it breaks", pipLabel(b))}
	case plan.KindFrontend:
		return []string{fmt.Sprintf("frontend %s (%s) stops receiving traffic", plan.ShowName(b.Name()), frontendIP(b))}
	case plan.KindRule:
		rule := plan.AsRule(b)
		return []string{fmt.Sprintf("traffic to %s port %v stops being load-balanced", b.Properties["protocol"], rule.RawFrontendPort())}
	case plan.KindProbe:
		return []string{fmt.Sprintf("health probe %s is removed", plan.ShowName(b.Name()))}
	case plan.KindPrivateLinkService:
		return []string{plsImpact(b)}
	case plan.KindPrivateEndpoint:
		return []string{fmt.Sprintf("private endpoint %s is deleted, so clients using it lose access", plan.ShowName(b.Name()))}
	case plan.KindSecurityRule:
		return []string{fmt.Sprintf("NSG rule %s is removed, so the traffic it allowed is blocked", plan.ShowName(b.Name()))}
	case plan.KindLoadBalancer:
		return []string{fmt.Sprintf("load balancer %s is deleted", plan.ShowName(b.Name()))}
	case plan.KindARecord:
		return []string{fmt.Sprintf("DNS record %s is deleted, so its name stops resolving", plan.ShowName(b.Name()))}
	case plan.KindPrivateDNSZone:
		return []string{fmt.Sprintf("private DNS zone %s is deleted, with every record left in it", plan.ShowName(b.Name()))}
	case plan.KindVNetLink:
		return []string{fmt.Sprintf("virtual network %s stops resolving names in zone %s", valueText(b.Properties["virtualNetwork"]), b.ID.Names[0])}
	}
	return []string{fmt.Sprintf("%s is deleted", b.ID.Shown())}
}

func updateImpact(c *plan.Change) []string {
	if c.Before.Kind() == plan.KindBackendPool {
		return poolImpact(c)
	}
	var out []string
	for _, a := range c.Attributes {
		if !plan.TrafficAttribute(c.Before.Kind(), a.Path) {
			continue
		}
		switch c.Before.Kind() {
		case plan.KindFrontend:
			out = append(out, fmt.Sprintf("frontend %s IP changes from %s to %s", plan.ShowName(c.Before.Name()), valueText(a.Before), valueText(a.After)))
		case plan.KindProbe:
			out = append(out, fmt.Sprintf("health probe moves from %s to %s%s, so backends that do not answer it go unhealthy",
				valueText(a.Before), valueText(a.After), probePath(c.After)))
		}
	}
	return out
}

func plsImpact(pls *plan.Resource) string {
	if n := len(plan.AsPrivateLinkService(pls).Connections()); n > 0 {
		return fmt.Sprintf("private link service %s is deleted: %s will be dropped", plan.ShowName(pls.Name()), count(n, "private endpoint connection", "private endpoint connections"))
	}
	return fmt.Sprintf("private link service %s is deleted, so private endpoints connected to it lose access", plan.ShowName(pls.Name()))
}

func pipLabel(pip *plan.Resource) string {
	if ip := plan.AsPublicIP(pip).Address(); ip != "" {
		return ip
	}
	return plan.ShowName(pip.Name())
}

func frontendIP(fe *plan.Resource) string {
	f := plan.AsFrontend(fe)
	if ip := f.PrivateIP(); ip != "" {
		return ip
	}
	if id := f.PublicIPID(); id != "" {
		return "public IP " + addressOf(plan.Key(id))
	}
	return "no address"
}

func probePath(r *plan.Resource) string {
	if r == nil {
		return ""
	}
	p := plan.AsProbe(r)
	if !strings.HasPrefix(strings.ToLower(p.Protocol()), "http") {
		return ""
	}
	if path := p.RequestPath(); path != "" {
		return " " + path
	}
	return ""
}

// valueText renders a value for messages: Unknown as "(known after apply)",
// references by address.
func valueText(v any) string {
	switch t := v.(type) {
	case nil:
		return "(none)"
	case string:
		if strings.HasPrefix(t, "/subscriptions/") {
			return addressOf(plan.Key(t))
		}
		return t
	case map[string]any:
		if id := plan.RefID(t); id != "" {
			return addressOf(plan.Key(id))
		}
	}
	if plan.IsUnknown(v) {
		return "(known after apply)"
	}
	return strings.TrimSpace(fmt.Sprint(v))
}

// addressOf is the plan address of a key, or the key itself when it does
// not parse as an ID.
func addressOf(k plan.Key) string {
	id, err := plan.ParseID(string(k))
	if err != nil {
		return string(k)
	}
	return id.Shown()
}

// peReplaceImpact: a new endpoint gets a new address, and its DNS records
// are rewritten to it in the same plan.
func peReplaceImpact(c *plan.Change) string {
	b := c.Before
	ip := plan.AsPrivateEndpoint(b).PrivateIP()
	if ip == "" {
		ip = "its address"
	}
	msg := fmt.Sprintf("private endpoint %s is re-created: %s changes, and the DNS records pointing at it follow; clients reconnect", plan.ShowName(b.Name()), ip)
	if c.Reason == plan.ReasonConnectionLost {
		msg += fmt.Sprintf(" (its connection is %s: only a new endpoint can ask the PLS owner again)", plan.AsPrivateEndpoint(b).Status())
	}
	return msg
}
