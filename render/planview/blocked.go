package planview

import (
	"fmt"
	"strings"

	"github.com/azsvc/azsvc/plan"
)

// BlockedText says why azsvc will not make a change. A block that leaves
// its Services without what they ask for (plan.BlockCode.Fails) names
// them first and ends with the did-you-mean the plan found.
func BlockedText(b plan.Blocked) string {
	if s := blockedSuggestion(b); s != "" {
		return blockedSentence(b) + "; " + s
	}
	return blockedSentence(b)
}

// blockedSentence is BlockedText without the did-you-mean, which lists
// show on a line of its own.
func blockedSentence(b plan.Blocked) string {
	text := blockedReason(b)
	if b.Fails() && b.Code != plan.BlockPinnedIPNotFound && len(b.Services) > 0 { // CCM's own message names it
		text = ownersText(b.Services) + ": " + text
	}
	return text
}

func blockedSuggestion(b plan.Blocked) string {
	if b.Suggestion == "" {
		return ""
	}
	return "did you mean " + b.Suggestion + "?"
}

// blockedMark marks a block in lists: ✗ when it fails the plan, ! when
// it only holds something back.
func blockedMark(b plan.Blocked) string {
	if b.Fails() {
		return "✗"
	}
	return "!"
}

// FailingBlockedNote says, under the blocked entries, what the failing
// ones mean for plan and apply; "" when none fails.
func FailingBlockedNote(blocked []plan.Blocked) string {
	failing := plan.FailingBlocks(blocked)
	if len(failing) == 0 {
		return ""
	}
	return fmt.Sprintf("✗ %s: plan and apply exit 4, and apply writes nothing unless --allow-blocked.", BlockedFailure(failing))
}

// BlockedFailure says which Services and PrivateEndpoints the failing
// blocks leave without what their manifests ask for.
func BlockedFailure(failing []plan.Blocked) string {
	var owners []string
	for _, b := range failing {
		owners = append(owners, b.Services...)
	}
	owners = plan.SortedUnique(owners)
	who := "the Services"
	if len(owners) > 0 {
		who = ownersText(owners)
	}
	return fmt.Sprintf("%s %s %s without what the input asks for, so Azure will not match it",
		count(len(failing), "blocked change", "blocked changes"), plural(len(failing), "leaves", "leave"), who)
}

// ownersText names the Services and PrivateEndpoints of a block.
func ownersText(owners []string) string {
	var svcs, eps []string
	for _, o := range owners {
		if key, ok := plan.EndpointOf(o); ok {
			eps = append(eps, key)
			continue
		}
		svcs = append(svcs, o)
	}
	var parts []string
	if len(svcs) > 0 {
		parts = append(parts, plural(len(svcs), "Service", "Services")+" "+strings.Join(svcs, ", "))
	}
	if len(eps) > 0 {
		parts = append(parts, plural(len(eps), "PrivateEndpoint", "PrivateEndpoints")+" "+strings.Join(eps, ", "))
	}
	return strings.Join(parts, " and ")
}

func blockedReason(b plan.Blocked) string {
	switch b.Code {
	case plan.BlockNotManaged:
		return fmt.Sprintf("already exists and azsvc does not manage it (%s)", UnmanagedText(b.Why))
	case plan.BlockBelongsToOthers:
		return "already exists and belongs to " + strings.Join(b.Owners, ", ")
	case plan.BlockNSGReplace:
		return "would need re-creating the network security group, which azsvc never deletes"
	case plan.BlockSubnetMissing:
		return fmt.Sprintf("subnet %s not found in vnet %s (resource group %s)", b.Value, b.Other, b.Group)
	case plan.BlockPIPPrefixMissing:
		return fmt.Sprintf("public IP prefix %s not found in resource group %s (CCM fails the Service: its new public IP cannot be carved from it)", b.Value, b.Group)
	case plan.BlockUserPIPMissing:
		return fmt.Sprintf("public IP %s not found in resource group %s (user-assigned: azsvc never creates it)", b.Value, b.Group)
	case plan.BlockDeleteInUse:
		return fmt.Sprintf("cannot delete: %s is still used by %s, which azsvc keeps", b.Address, b.Other)
	case plan.BlockEndpointConnected:
		return fmt.Sprintf("cannot delete: private link service %s on it has a connection from %s, which the input declares "+
			"(remove the PrivateEndpoint too, or keep the Service)", b.Value, b.Other)
	case plan.BlockReplaceInUse:
		return fmt.Sprintf("cannot replace: %s is still used by %s, which azsvc keeps", b.Address, b.Other)
	case plan.BlockEmptiedLB:
		return fmt.Sprintf("cannot delete the emptied load balancer: %s is not managed by azsvc", b.Other)
	case plan.BlockDependsOnBlocked:
		return "depends on " + b.Other + ", which is blocked"
	case plan.BlockPinnedIPNotFound:
		return fmt.Sprintf("service %s: user supplied IP Address %s was not found in resource group %s "+
			"(CCM fails the Service: nothing is planned for it until a public IP there has that address)",
			strings.Join(b.Services, ", "), b.Value, b.Group)
	case plan.BlockSharedAcrossLBs:
		return fmt.Sprintf("its IP address is already used by frontend %s of another load balancer; "+
			"a frontend cannot be shared across load balancers (nothing is planned for these Services until the IP is free)", b.Other)
	case plan.BlockSharedPort:
		return fmt.Sprintf("frontend %s is shared with %s, whose rule %s already uses %s "+
			"(CCM fails the Service: use another port, or stop sharing the IP)", b.Other, ownerText(b.Owners), b.Group, b.Value)
	case plan.BlockNSGRuleNotManaged:
		return fmt.Sprintf("an NSG rule with this name exists and azsvc does not manage it (%s)", UnmanagedText(b.Why))
	case plan.BlockNotVisible:
		return fmt.Sprintf("private link service %s is not visible to subscription %s, so ARM refuses the connection "+
			"(add the subscription to the PLS's azure-pls-visibility)", b.Other, b.Value)
	case plan.BlockNodeIPsNotPlanned, plan.BlockNodeIPsLeft, plan.BlockNodeIPsPartial:
		return fmt.Sprintf("the NSG rule for %s %s: with floating IP disabled its destinations are the node IPs, "+
			"which backend pool %s does not show (a nodeIPConfiguration pool lists NICs); CCM adds them when it reconciles the Service",
			strings.Join(b.Services, ", "), nodeIPsOutcome[b.Code], b.Other)
	}
	return b.Code.String()
}

var nodeIPsOutcome = map[plan.BlockCode]string{
	plan.BlockNodeIPsNotPlanned: "is not planned",
	plan.BlockNodeIPsLeft:       "is left as it is",
	plan.BlockNodeIPsPartial:    "is planned without the cluster's node IPs",
}

func ownerText(owners []string) string {
	if len(owners) == 0 || owners[0] == "" {
		return "a Service outside the input"
	}
	return strings.Join(owners, ", ")
}

// UnmanagedText says which ownership rule (ccm-semantics §2.4) a resource
// fails.
func UnmanagedText(u plan.Unmanaged) string {
	switch u.Code {
	case plan.UnmanagedLB:
		return "load balancer " + u.Value + " is not one of the cluster's load balancers"
	case plan.UnmanagedNSG:
		return "not the cluster's network security group"
	case plan.UnmanagedParentLB:
		return "its load balancer is not managed by the cluster"
	case plan.UnmanagedPool:
		return "backend pool " + u.Value + " is not the cluster pool"
	case plan.UnmanagedPrefix:
		return "name does not start with the prefix of a Service in scope"
	case plan.UnmanagedParentNSG:
		return "not in the cluster's network security group"
	case plan.UnmanagedRuleName:
		return "name does not start with k8s-azure-lb"
	case plan.UnmanagedPriority:
		return "priority " + u.Value + " is outside the managed band 500-4096"
	case plan.UnmanagedUserPIP:
		return "user-assigned public IP (no " + plan.TagService + " tag) not pinned by a Service in scope"
	case plan.UnmanagedOtherCluster:
		return "tagged for cluster " + u.Value
	case plan.UnmanagedUntagged:
		return "not tagged " + plan.TagClusterName + "=" + u.Value
	}
	return u.Code.String()
}
