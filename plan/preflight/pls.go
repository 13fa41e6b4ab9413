package preflight

import (
	"strings"

	"github.com/azsvc/azsvc/plan"
)

// checkPLS refuses private link services ARM would refuse (arm-rules §2.2):
// on a load balancer that is not Standard, or with a NAT IP in a subnet
// whose private link service network policies are not disabled after the
// plan (the plan disables them where CCM would, ccm-semantics §8).
func checkPLS(w *world) []plan.Refusal {
	var refused []plan.Refusal
	for _, st := range w.puts(plan.KindPrivateLinkService) {
		pls := plan.AsPrivateLinkService(st.Body)
		for _, fe := range pls.FrontendIDs() {
			lbKey, _ := fe.Parent()
			if lb, ok := w.get(lbKey); ok && !strings.EqualFold(orDefault(plan.AsLoadBalancer(lb).SKUName()), "Standard") {
				refused = append(refused, plan.Refusal{Address: st.Target.Address(), Code: plan.RefusePLSNotStandard,
					Other: lb.ID.Address(), OtherSKU: plan.AsLoadBalancer(lb).SKUName()})
			}
		}
		seen := map[plan.Key]bool{}
		for _, c := range pls.NATIPConfigs() {
			k := plan.KeyOf(c.SubnetID)
			sn, ok := w.get(k)
			if !ok || seen[k] {
				continue
			}
			seen[k] = true
			if !plan.AsSubnet(sn).PLSPoliciesDisabled() {
				refused = append(refused, plan.Refusal{Address: st.Target.Address(), Code: plan.RefusePLSSubnetPolicies, Other: sn.ID.Address()})
			}
		}
	}
	return refused
}
