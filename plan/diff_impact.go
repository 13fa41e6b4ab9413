package plan

import (
	"fmt"
	"strings"
)

// describe marks disruptive changes and writes their plain-language impact
// (ux-anchors §8.2 item 6): every delete and replace, and the updates that
// move traffic (a frontend IP change, a probe protocol change).
func (d *differ) describe() {
	for _, k := range sortedChangeKeys(d.changes) {
		c := d.changes[k]
		var msgs []string
		switch {
		case c.IsReplace():
			msgs = replaceImpact(c)
		case c.IsDelete():
			msgs = deleteImpact(c)
		case c.hasAction(ActionUpdate):
			msgs = updateImpact(c)
		}
		if len(msgs) > 0 || c.hasAction(ActionDelete) {
			c.Disruptive = true
			c.Impact = append(msgs, c.Impact...)
		}
	}
}

func replaceImpact(c *Change) []string {
	b := c.Before
	switch b.Kind() {
	case KindPublicIP:
		return []string{fmt.Sprintf("public IP %s will be replaced by a new address, so DNS pointing at it breaks", pipLabel(b))}
	case KindFrontend:
		return []string{fmt.Sprintf("frontend %s (%s) is re-created, so traffic to it stops while it is rebuilt", b.Name(), frontendIP(b))}
	case KindPrivateLinkService:
		return []string{plsImpact(b)}
	}
	if len(c.Impact) > 0 {
		return nil // the cascade already said why
	}
	return []string{fmt.Sprintf("%s is deleted and re-created", b.ID.Address())}
}

func deleteImpact(c *Change) []string {
	b := c.Before
	switch b.Kind() {
	case KindPublicIP:
		return []string{fmt.Sprintf("public IP %s will be released, so DNS pointing at it breaks", pipLabel(b))}
	case KindFrontend:
		return []string{fmt.Sprintf("frontend %s (%s) stops receiving traffic", b.Name(), frontendIP(b))}
	case KindRule:
		return []string{fmt.Sprintf("traffic to %s port %v stops being load-balanced", b.Properties["protocol"], b.Properties["frontendPort"])}
	case KindProbe:
		return []string{fmt.Sprintf("health probe %s is removed", b.Name())}
	case KindPrivateLinkService:
		return []string{plsImpact(b)}
	case KindPrivateEndpoint:
		return []string{fmt.Sprintf("private endpoint %s is deleted, so clients using it lose access", b.Name())}
	case KindSecurityRule:
		return []string{fmt.Sprintf("NSG rule %s is removed, so the traffic it allowed is blocked", b.Name())}
	case KindLoadBalancer:
		return []string{fmt.Sprintf("load balancer %s is deleted", b.Name())}
	case KindARecord:
		return []string{fmt.Sprintf("DNS record %s is deleted, so its name stops resolving", b.Name())}
	}
	return []string{fmt.Sprintf("%s is deleted", b.ID.Address())}
}

func updateImpact(c *Change) []string {
	var out []string
	for _, a := range c.Attributes {
		last := a.Path[len(a.Path)-1]
		switch {
		case c.Before.Kind() == KindFrontend && (last == "privateIPAddress" || hasPathPrefix(a.Path, []string{"properties", "publicIPAddress"})):
			out = append(out, fmt.Sprintf("frontend %s IP changes from %s to %s", c.Before.Name(), valueText(a.Before), valueText(a.After)))
		case c.Before.Kind() == KindProbe && last == "protocol":
			out = append(out, fmt.Sprintf("health probe moves from %s to %s%s, so backends that do not answer it go unhealthy",
				valueText(a.Before), valueText(a.After), probePath(c.After)))
		}
	}
	return out
}

func plsImpact(pls *Resource) string {
	if conns, ok := pls.Properties["privateEndpointConnections"].([]any); ok && len(conns) > 0 {
		return fmt.Sprintf("private link service %s is deleted: %d private endpoint connection(s) will be dropped", pls.Name(), len(conns))
	}
	return fmt.Sprintf("private link service %s is deleted, so private endpoints connected to it lose access", pls.Name())
}

func pipLabel(pip *Resource) string {
	if ip, ok := pip.Properties["ipAddress"].(string); ok && ip != "" {
		return ip
	}
	return pip.Name()
}

func frontendIP(fe *Resource) string {
	if ip, ok := fe.Properties["privateIPAddress"].(string); ok && ip != "" {
		return ip
	}
	if id := refID(fe.Properties["publicIPAddress"]); id != "" {
		return "public IP " + addressOfKey(Key(id))
	}
	return "no address"
}

func probePath(r *Resource) string {
	if r == nil {
		return ""
	}
	if p, _ := r.Properties["protocol"].(string); !strings.HasPrefix(strings.ToLower(p), "http") {
		return ""
	}
	if p, ok := r.Properties["requestPath"].(string); ok && p != "" {
		return " " + p
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
			return addressOfKey(Key(t))
		}
		return t
	case map[string]any:
		if id := refID(t); id != "" {
			return addressOfKey(Key(id))
		}
	}
	if IsUnknown(v) {
		return "(known after apply)"
	}
	return strings.TrimSpace(fmt.Sprint(v))
}
