package statusview

import (
	"fmt"
	"strings"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/conditions"
	"github.com/azsvc/azsvc/render/planview"
)

// maxListed is how many addresses a message names before it counts the
// rest.
const maxListed = 3

// message words condition c; ip is the private endpoint's address, for
// the DNS conditions.
func message(c conditions.Condition, ip string) string {
	list := addressList(c.Addresses)
	switch c.Reason {
	case conditions.AsExpected:
		return asExpected[c.Type]
	case conditions.NotCreated:
		if len(c.Addresses) > maxListed {
			return fmt.Sprintf("none of its %d resources is in Azure yet", len(c.Addresses))
		}
		return "not in Azure yet: " + list
	case conditions.Missing:
		return "not in Azure: " + list
	case conditions.NoAddress:
		return "no address assigned yet: " + list
	case conditions.NoAlias:
		return "no alias assigned yet: " + list
	case conditions.ConnectionPending:
		return "the connection is Pending: awaiting approval by the private link service's owner"
	case conditions.ConnectionRejected:
		return "the private link service's owner rejected the connection: a plan re-creates the endpoint"
	case conditions.ConnectionDisconnected:
		return "the private link service's owner removed the connection: a plan re-creates the endpoint"
	case conditions.NoConnectionState:
		return "Azure reports no state for the connection"
	case conditions.RecordsStale:
		return fmt.Sprintf("not holding the endpoint's address %s: %s", ip, list)
	case conditions.EndpointAddressUnknown:
		return "the endpoint has no address to compare the records with"
	}
	if c.Changes != nil {
		return changesMessage(c.Reason, *c.Changes)
	}
	return ""
}

// asExpected are the messages of True conditions.
var asExpected = map[conditions.Type]string{
	conditions.LoadBalancerReady:       "its frontends, rules, probes and backend pools are in Azure",
	conditions.PublicIPReady:           "its public IPs are in Azure, with their addresses",
	conditions.SecurityRulesReady:      "the NSG rules that admit its traffic are in Azure",
	conditions.PrivateLinkServiceReady: "its private link service is in Azure, with its alias",
	conditions.PrivateEndpointApproved: "the connection is Approved",
	conditions.PrivateDNSReady:         "its zones, links and records are in Azure, every record holding the endpoint's address",
	conditions.InSync:                  "a plan changes nothing",
}

// changesMessage words InSync when it is False.
func changesMessage(reason conditions.Reason, n conditions.Changes) string {
	var parts []string
	if total := n.Total(); total > 0 {
		what := planview.Summary{Create: n.Create, Update: n.Update, Replace: n.Replace, Delete: n.Delete, Adopt: n.Adopt}.Counts()
		parts = append(parts, fmt.Sprintf("a plan has %s (%s)", planview.Count(total, "change", "changes"), what))
	}
	if n.Unresolved > 0 {
		parts = append(parts, fmt.Sprintf("apply needs %s the API server assigns", planview.Count(n.Unresolved, "value", "values")))
	}
	if n.Blocked > 0 {
		parts = append(parts, planview.Count(n.Blocked, "change", "changes")+" blocked")
	}
	if n.Refused > 0 {
		parts = append(parts, fmt.Sprintf("ARM would refuse %s", planview.Count(n.Refused, "write", "writes")))
	}
	msg := strings.Join(parts, "; ")
	if reason != conditions.ChangesPending || n.Unresolved > 0 {
		msg += " (azsvc plan says why)"
	}
	return msg
}

// addressList names the first addresses and counts the rest, with the
// placeholders of values the API server assigns worded.
func addressList(addrs []string) string {
	shown := make([]string, 0, maxListed)
	for i, a := range addrs {
		if i == maxListed {
			shown = append(shown, fmt.Sprintf("and %d more", len(addrs)-maxListed))
			break
		}
		shown = append(shown, plan.ShownAddress(a))
	}
	return strings.Join(shown, ", ")
}
