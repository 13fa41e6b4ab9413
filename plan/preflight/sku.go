package preflight

import (
	"slices"
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
func checkSKUs(w *world) []plan.Refusal {
	var refused []plan.Refusal
	for _, st := range w.puts(plan.KindPublicIP) {
		if w.created(st) && strings.EqualFold(plan.AsPublicIP(st.Body).SKUName(), "Basic") {
			refused = append(refused, plan.Refusal{Address: st.Target.Address(), Code: plan.RefuseBasicPIP})
		}
	}
	for _, st := range w.puts(plan.KindLoadBalancer) {
		lbSKU := orDefault(plan.AsLoadBalancer(st.Body).SKUName())
		if w.created(st) && strings.EqualFold(lbSKU, "Basic") {
			refused = append(refused, plan.Refusal{Address: st.Target.Address(), Code: plan.RefuseBasicLB,
				LeftBehind: w.newPublicIPsOf(st)})
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
				refused = append(refused, plan.Refusal{Address: fe.ID.Address(), Code: plan.RefuseSKUMismatch,
					Other: pip.ID.Address(), OtherSKU: pipSKU, SKU: lbSKU})
			}
		}
	}
	return refused
}

func orDefault(sku string) string {
	if sku == "" {
		return defaultSKU
	}
	return sku
}

// newPublicIPsOf are the public IPs the plan creates for the frontends of
// load balancer write st. CCM creates each before it PUTs the load
// balancer (ccm-semantics §6 "When created", azure_loadbalancer.go:2984-2995
// ensurePublicIPExists inside reconcileFrontendIPConfigs), so when that PUT
// fails they stay.
func (w *world) newPublicIPsOf(st *plan.Step) []string {
	var out []string
	for _, fe := range st.Children {
		if fe.Kind() != plan.KindFrontend {
			continue
		}
		k := plan.KeyOf(plan.AsFrontend(fe).PublicIPID())
		if pip, ok := w.final[k]; ok && pip != nil && w.created(pip) && !slices.Contains(out, pip.Target.Address()) {
			out = append(out, pip.Target.Address())
		}
	}
	return out
}
