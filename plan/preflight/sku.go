package preflight

import (
	"fmt"
	"strings"

	"github.com/azsvc/azsvc/plan"
)

// ARM creates a public IP or load balancer without a SKU as Standard.
const defaultSKU = "Standard"

// checkSKUs refuses what ARM refuses about SKUs:
//   - creating a Basic load balancer or public IP: Azure retired both on
//     2025-09-30, so a loadBalancerSku: basic cluster cannot get new ones;
//   - a frontend whose public IP's SKU differs from its load balancer's
//     (arm-rules §2.2 DifferentSkuLoadBalancersAndPublicIPAddressNotAllowed),
//     checked where the plan writes either.
func checkSKUs(w *world) []error {
	var errs []error
	for _, st := range w.puts(plan.KindPublicIP) {
		if w.created(st) && strings.EqualFold(plan.AsPublicIP(st.Body).SKUName(), "Basic") {
			errs = append(errs, retired(st.Target, "public IPs"))
		}
	}
	for _, st := range w.puts(plan.KindLoadBalancer) {
		lbSKU := orDefault(plan.AsLoadBalancer(st.Body).SKUName())
		if w.created(st) && strings.EqualFold(lbSKU, "Basic") {
			errs = append(errs, retired(st.Target, "load balancers"))
			continue
		}
		// ARM validates the whole body of an LB on every PUT: every
		// frontend it carries is checked, not only the changed ones.
		for _, fe := range st.Children {
			if fe.Kind() != plan.KindFrontend {
				continue
			}
			id := plan.AsFrontend(fe).PublicIPID()
			if id == "" {
				continue
			}
			pip, ok := w.get(plan.KeyOf(id))
			if !ok {
				continue
			}
			if pipSKU := orDefault(plan.AsPublicIP(pip).SKUName()); !strings.EqualFold(pipSKU, lbSKU) {
				errs = append(errs, fmt.Errorf("%s: public IP %s is SKU %s but load balancer %s is SKU %s, and ARM refuses a frontend whose SKUs differ "+
					"(DifferentSkuLoadBalancersAndPublicIPAddressNotAllowed)", fe.ID.Address(), pip.ID.Address(), pipSKU, st.Target.Name(), lbSKU))
			}
		}
	}
	return errs
}

func orDefault(sku string) string {
	if sku == "" {
		return defaultSKU
	}
	return sku
}

func retired(id plan.ID, what string) error {
	return fmt.Errorf("%s: Azure retired Basic SKU %s on 2025-09-30 and no longer creates them; "+
		"set loadBalancerSku to standard in azure.json (CCM's default) and migrate the cluster", id.Address(), what)
}
