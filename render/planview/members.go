package planview

import (
	"bufio"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/render/style"
)

// A backend pool's members are a list of objects ({name, properties:
// {ipAddress}}) that would print as JSON; plans show them member by member,
// whatever their length, as "10.224.0.4 (aks-nodepool1-0)", and say how
// many stay as they are.

// isMemberList reports whether a display path names pool members.
func isMemberList(path string) bool {
	return path == plan.PoolMembersField || strings.HasSuffix(path, "."+plan.PoolMembersField)
}

// memberText is how a pool member reads: its address, then its name.
func memberText(v any) (string, bool) {
	m, ok := v.(map[string]any)
	if !ok {
		return "", false
	}
	props, _ := m["properties"].(map[string]any)
	ip, _ := props["ipAddress"].(string)
	name, _ := m["name"].(string)
	switch {
	case ip != "" && name != "":
		return ip + " (" + name + ")", true
	case ip != "":
		return ip, true
	case name != "":
		return name + " (no address)", true
	}
	return "", false
}

// jsonMember is a pool member in the JSON plan's member_changes.
type jsonMember struct {
	Name      string `json:"name"`
	IPAddress string `json:"ip_address"`
}

// jsonMembers is the member diff of one member list (SCHEMA.md
// member_changes).
type jsonMembers struct {
	Path      []string     `json:"path"`
	Added     []jsonMember `json:"added"`
	Removed   []jsonMember `json:"removed"`
	Unchanged int          `json:"unchanged"`
}

// memberChanges are the member diffs of a change's pool member lists: its
// attribute changes, or on create the members it creates.
func memberChanges(c *plan.Change) []jsonMembers {
	var out []jsonMembers
	for _, a := range c.Attributes {
		if len(a.Path) > 0 && a.Path[len(a.Path)-1] == plan.PoolMembersField {
			out = append(out, diffMembers(a.Path, a.Before, a.After))
		}
	}
	if c.Before == nil && c.After != nil {
		if l, ok := c.After.Properties[plan.PoolMembersField]; ok {
			out = append(out, diffMembers([]string{"properties", plan.PoolMembersField}, nil, l))
		}
	}
	return out
}

func diffMembers(path []string, before, after any) jsonMembers {
	b, _ := before.([]any)
	a, _ := after.([]any)
	d := jsonMembers{Path: path, Added: []jsonMember{}, Removed: []jsonMember{}}
	left := map[jsonMember]int{}
	for _, m := range b {
		left[jsonMemberOf(m)]++
	}
	for _, m := range a {
		jm := jsonMemberOf(m)
		if left[jm] > 0 {
			left[jm]--
			d.Unchanged++
			continue
		}
		d.Added = append(d.Added, jm)
	}
	for _, m := range b {
		if jm := jsonMemberOf(m); left[jm] > 0 {
			left[jm]--
			d.Removed = append(d.Removed, jm)
		}
	}
	return d
}

func jsonMemberOf(v any) jsonMember {
	m, _ := v.(map[string]any)
	props, _ := m["properties"].(map[string]any)
	name, _ := m["name"].(string)
	ip, _ := props["ipAddress"].(string)
	return jsonMember{Name: name, IPAddress: ip}
}

// maxImpactMembers bounds the members a pool's impact names.
const maxImpactMembers = 4

// poolImpact says what a disruptive pool update breaks: the load-balancing
// rules of a pool left empty, or the members whose Node the input lacks.
func poolImpact(c *plan.Change) []string {
	var removed []string
	left := 0
	for _, m := range memberChanges(c) {
		for _, r := range m.Removed {
			removed = append(removed, memberLabel(r))
		}
		left += m.Unchanged + len(m.Added)
	}
	var out []string
	if c.Reason == plan.ReasonNodesNotInInput && len(removed) > 0 {
		names := removed
		more := ""
		if len(names) > maxImpactMembers {
			more = fmt.Sprintf(" and %d more", len(names)-maxImpactMembers)
			names = names[:maxImpactMembers]
		}
		out = append(out, fmt.Sprintf("%s the pool because no Node of the input has their address: %s%s",
			count(len(removed), "member leaves", "members leave"), strings.Join(names, ", "), more))
	}
	if left == 0 {
		out = append(out, fmt.Sprintf("pool %s is left with no members, so the load-balancing rules using it stop serving traffic", plan.ShowName(c.Before.Name())))
	}
	return out
}

func memberLabel(m jsonMember) string {
	switch {
	case m.IPAddress != "" && m.Name != "":
		return m.IPAddress + " (" + m.Name + ")"
	case m.IPAddress != "":
		return m.IPAddress
	}
	return m.Name
}

// maxMembershipPools bounds the pools listed per membership note.
const maxMembershipPools = 6

// MembershipText names the pools in m and who keeps their members.
func MembershipText(m plan.Membership) string {
	var why string
	switch m.Code {
	case plan.MembershipVMs:
		why = "managed by the nodes' VMs and scale sets (nodeIPConfiguration), not by azsvc"
	case plan.MembershipServiceGateway:
		why = "managed by ServiceGateway (podIP), not by azsvc"
	case plan.MembershipNoNodes:
		why = "not planned: no Nodes in the input (add Node manifests to -f, or use --from-cluster); Azure's stay"
	case plan.MembershipNoEndpoints:
		why = "not planned: no EndpointSlices in the input for these externalTrafficPolicy Local Services; Azure's stay"
	case plan.MembershipKept:
		why = "left as Azure holds them: no node qualifies, and CCM never empties a single load balancer's pool"
	case plan.MembershipPreConfigured:
		why = "left as Azure holds them: preConfiguredBackendPoolLoadBalancerTypes says these load balancers' pools are pre-configured, and CCM never changes their members"
	case plan.MembershipNoVNet:
		why = "not planned: azure.json has no vnetName, which members name"
	default:
		why = string(m.Code)
	}
	pools := m.Pools
	more := ""
	if len(pools) > maxMembershipPools {
		more = fmt.Sprintf(" and %d more", len(pools)-maxMembershipPools)
		pools = pools[:maxMembershipPools]
	}
	return strings.Join(pools, ", ") + more + ": " + why
}

func writeMembership(w *bufio.Writer, notes []plan.Membership, st style.Style) {
	items := make([]string, len(notes))
	for i, m := range notes {
		items[i] = "  " + MembershipText(m)
	}
	writeSection(w, st.Bold("Backend pool members:"), items, "    ")
}

func membershipMarkdown(b *strings.Builder, notes []plan.Membership) {
	if len(notes) == 0 {
		return
	}
	b.WriteString("\n#### Backend pool members\n\n")
	for _, m := range notes {
		writeWrapped(b, "- "+escapeText(MembershipText(m)), "  ")
	}
}

// isIPConfigList reports whether a display path names a resource's IP
// configurations (a PLS's NAT IPs), which plans show one line each.
func isIPConfigList(path string) bool {
	return path == "ipConfigurations" || strings.HasSuffix(path, ".ipConfigurations")
}

// ipConfigTexts renders IP configurations as ipConfigText does, anything
// else as memberTexts.
func ipConfigTexts(l []any) []string {
	out := memberTexts(l)
	for i, v := range l {
		if t, ok := ipConfigText(v); ok {
			out[i] = t
		}
	}
	return out
}

// ipConfigText is how an IP configuration reads: its name, then its
// address, allocation, whether primary, version and subnet, e.g.
// "pls-nat-static-10.0.0.5 (10.0.0.5, Static, primary, IPv4, subnet
// vnet/v/subnet/s)"; other fields follow as key=value.
func ipConfigText(v any) (string, bool) {
	m, ok := v.(map[string]any)
	name, _ := m["name"].(string)
	props, _ := m["properties"].(map[string]any)
	if !ok || name == "" {
		return "", false
	}
	var parts []string
	if ip, ok := props["privateIPAddress"]; ok {
		parts = append(parts, strings.Trim(formatValue(ip), `"`))
	}
	for _, k := range []string{"privateIPAllocationMethod", "primary", "privateIPAddressVersion"} {
		switch x := props[k].(type) {
		case string:
			parts = append(parts, x)
		case bool:
			if x {
				parts = append(parts, k)
			}
		}
	}
	if sub, ok := props["subnet"]; ok {
		parts = append(parts, "subnet "+formatValue(sub))
	}
	for _, k := range slices.Sorted(maps.Keys(props)) {
		switch k {
		case "privateIPAddress", "privateIPAllocationMethod", "primary", "privateIPAddressVersion", "subnet":
			continue
		}
		parts = append(parts, k+"="+formatValue(props[k]))
	}
	return name + " (" + strings.Join(parts, ", ") + ")", true
}
