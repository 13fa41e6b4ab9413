package planview

import (
	"bufio"
	"fmt"
	"strings"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/render/style"
)

// RefusalText says why ARM would refuse a write of the plan
// (plan/preflight).
func RefusalText(r plan.Refusal) string {
	switch r.Code {
	case plan.RefuseLimit:
		if l := r.Limit; l != nil {
			return fmt.Sprintf("%s would be %d, over the limit of %d", l.Name, l.Used, l.Max)
		}
	case plan.RefuseBasicLB:
		return retiredText("load balancers", leftBehindText(r.LeftBehind))
	case plan.RefuseBasicPIP:
		return retiredText("public IPs", "")
	case plan.RefuseSKUMismatch:
		return fmt.Sprintf("public IP %s is SKU %s but its load balancer is SKU %s, and ARM refuses a frontend whose SKUs differ "+
			"(DifferentSkuLoadBalancersAndPublicIPAddressNotAllowed)", r.Other, r.OtherSKU, r.SKU)
	case plan.RefuseIPOutsideSubnet:
		return fmt.Sprintf("static IP %s is outside subnet %s (%s)", r.IP, r.Subnet, strings.Join(r.Prefixes, ", "))
	case plan.RefuseIPReserved:
		return fmt.Sprintf("static IP %s is one of the five addresses Azure reserves in subnet %s (%s)", r.IP, r.Subnet, strings.Join(r.Prefixes, ", "))
	case plan.RefuseGroupMissing:
		return fmt.Sprintf("resource group %s does not exist, and azsvc creates none (ARM: ResourceGroupNotFound)", r.Other)
	case plan.RefuseIPTaken:
		return fmt.Sprintf("static IP %s is already used by %s in subnet %s", r.IP, r.Other, r.Subnet)
	case plan.RefuseIPTakenDynamic:
		return fmt.Sprintf("static IP %s would be taken first by %s, which an earlier step gives a dynamic address: Azure assigns "+
			"the lowest free address of subnet %s, so ARM would refuse this write half-way through the apply "+
			"(PrivateIPAddressInUse); choose a static IP above the addresses the plan's new dynamic IPs take, or give %s a static one",
			r.IP, r.Other, r.Subnet, r.Other)
	case plan.RefusePLSNotStandard:
		return fmt.Sprintf("a private link service needs a Standard load balancer, and %s is %s", r.Other, r.OtherSKU)
	case plan.RefusePLSSubnetPolicies:
		return fmt.Sprintf("subnet %s has private link service network policies enabled, and ARM refuses a private link service NAT IP there; "+
			"disable them (privateLinkServiceNetworkPolicies: Disabled)", r.Other)
	case plan.RefuseReferenceMissing:
		return fmt.Sprintf("references %s, which does not exist and which no earlier step creates, so ARM would refuse the write "+
			"(InvalidResourceReference)", r.Other)
	case plan.RefuseReferenceDeleted:
		return fmt.Sprintf("references %s, which an earlier step deletes, so ARM would refuse the write (InvalidResourceReference)", r.Other)
	}
	return r.Code.String()
}

func retiredText(what, ccm string) string {
	return "Azure retired Basic SKU " + what + " on 2025-09-30 and no longer creates them; " + ccm +
		"set loadBalancerSku to standard in azure.json (CCM's default) and migrate the cluster"
}

// leftBehindText says what CCM would leave in Azure when the write fails:
// the public IPs it creates first.
func leftBehindText(pips []string) string {
	switch len(pips) {
	case 0:
		return ""
	case 1:
		return "CCM would create public IP " + pips[0] + " first, then fail at this load balancer's PUT and leave it behind; "
	}
	return "CCM would create public IPs " + strings.Join(pips, ", ") + " first, then fail at this load balancer's PUT and leave them behind; "
}

// RefusedHeading introduces the refusals in text and markdown.
const RefusedHeading = "Refused (ARM would refuse these writes, so nothing is applied)"

func writeRefused(w *bufio.Writer, refused []plan.Refusal, st style.Style) {
	if len(refused) == 0 {
		return
	}
	fmt.Fprintf(w, "\n%s\n", st.BoldRed(RefusedHeading+":"))
	for _, r := range refused {
		for _, l := range style.Wrap(fmt.Sprintf("  ✗ %s: %s", plan.ShownAddress(r.Address), RefusalText(r)), style.Width, "      ") {
			fmt.Fprintln(w, l)
		}
	}
}

func refusedMarkdown(b *strings.Builder, refused []plan.Refusal) {
	if len(refused) == 0 {
		return
	}
	b.WriteString("\n#### ❌ " + RefusedHeading + "\n\n")
	for _, r := range refused {
		writeWrapped(b, fmt.Sprintf("- `%s`: %s", escapeCode(plan.ShownAddress(r.Address)), escapeText(RefusalText(r))), "  ")
	}
}

// jsonRefusal is a refusal as the JSON plan shows it (SCHEMA.md): its
// facts and their wording.
type jsonRefusal struct {
	plan.Refusal
	Reason string `json:"reason"`
}

func refusedJSON(refused []plan.Refusal) []jsonRefusal {
	out := make([]jsonRefusal, len(refused))
	for i, r := range refused {
		out[i] = jsonRefusal{Refusal: r, Reason: RefusalText(r)}
	}
	return out
}
