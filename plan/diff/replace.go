package diff

import (
	"github.com/azsvc/azsvc/plan"
)

// replaceFields are the fields ARM cannot change in place, per kind: a
// change to any of them (or below them) deletes and re-creates the
// resource.
//
//   - every top-level kind: location (ARM moves nothing between regions).
//   - public IP: zones, IP version, the public IP prefix, IP tags and the SKU
//     tier (ccm-semantics §6: prefix and IP tags are create-only, an IP-tag
//     mismatch makes CCM release the IP). The SKU name is not here: CCM
//     upgrades Basic to Standard in place (§6 "SKU").
//   - frontend: zones and IP version (a zonal frontend cannot be moved).
//   - load balancer: SKU (CCM deletes Basic LBs to migrate, §7.3 step 2).
//   - private link service: its load balancer frontend (arm-rules §2.2,
//     "changing the frontend after create" is rejected).
//   - private endpoint: subnet, connections and NIC name (fixed at create).
//   - private DNS link: the linked virtual network.
var replaceFields = map[plan.Kind][][]string{
	plan.KindPublicIP: {{"zones"}, {"properties", "publicIPAddressVersion"}, {"properties", "publicIPPrefix"},
		{"properties", "ipTags"}, {"sku", "tier"}},
	plan.KindFrontend:           {{"zones"}, {"properties", "privateIPAddressVersion"}},
	plan.KindLoadBalancer:       {{"sku"}},
	plan.KindPrivateLinkService: {{"properties", "loadBalancerFrontendIpConfigurations"}},
	plan.KindPrivateEndpoint: {{"properties", "subnet"}, {"properties", "privateLinkServiceConnections"},
		{"properties", "manualPrivateLinkServiceConnections"}, {"properties", "customNetworkInterfaceName"}},
	plan.KindVNetLink: {{"properties", "virtualNetwork"}},
}

// markReplacement flags the attributes that force replacement and reports
// whether any does.
func markReplacement(k plan.Kind, attrs []plan.AttributeChange) bool {
	any := false
	for i := range attrs {
		if forcesReplacement(k, attrs[i].Path) {
			attrs[i].ForcesReplacement, any = true, true
		}
	}
	return any
}

func forcesReplacement(k plan.Kind, path []string) bool {
	if path[0] == "location" && k.Parent() == "" {
		return true
	}
	for _, f := range replaceFields[k] {
		if plan.PathHasPrefix(path, f) || plan.PathHasPrefix(f, path) {
			return true
		}
	}
	return false
}
