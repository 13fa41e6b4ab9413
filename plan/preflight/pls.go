package preflight

import (
	"fmt"
	"strings"

	"github.com/azsvc/azsvc/plan"
)

// checkPLS refuses private link services ARM would refuse (arm-rules §2.2):
// on a load balancer that is not Standard, or with a NAT IP in a subnet
// whose private link service network policies are not disabled after the
// plan (the plan disables them where CCM would, ccm-semantics §8).
func checkPLS(w *world) []error {
	var errs []error
	for _, st := range w.puts(plan.KindPrivateLinkService) {
		pls := plan.AsPrivateLinkService(st.Body)
		for _, fe := range pls.FrontendIDs() {
			lbKey, _ := fe.Parent()
			if lb, ok := w.get(lbKey); ok && !strings.EqualFold(orDefault(plan.AsLoadBalancer(lb).SKUName()), "Standard") {
				errs = append(errs, fmt.Errorf("%s: a private link service needs a Standard load balancer, and %s is %s",
					st.Target.Address(), lb.ID.Address(), plan.AsLoadBalancer(lb).SKUName()))
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
				errs = append(errs, fmt.Errorf("%s: subnet %s has private link service network policies enabled, and ARM refuses "+
					"a private link service NAT IP there; disable them (privateLinkServiceNetworkPolicies: Disabled)", st.Target.Address(), sn.ID.Address()))
			}
		}
	}
	return errs
}
