package main

import (
	"strings"

	"github.com/azsvc/azsvc/plan/cluster"
)

// configHelp is `azsvc help config`: azure.json as azsvc reads it, and the
// CCM settings it does not plan (cluster.NotModelled, also listed in the
// README's Configuration section).
func configHelp() string {
	var b strings.Builder
	b.WriteString(`--config is the cloud provider's own azure.json, read as CCM reads it: the
resource groups, location, VNet and subnet, NSG, load balancer SKU and name,
backend pool type, multi-SLB configurations, the shared health probe, tags and
credentials, with CCM's defaults (loadBalancerSku is standard when absent).
render, plan and apply need it; validate checks it when given.

A value CCM refuses to start on is an error naming the key (exit 1), and so is
a loadBalancerSku other than standard or basic in any letter case: CCM builds
a Basic load balancer for any other value. Keys CCM reads only to tune itself
(caches, rate limits, backoff, routes, node settings) are accepted silently;
a key CCM does not know is noted and ignored.

azure.json settings that shape Services but that azsvc does not plan as CCM
does:

`)
	for _, u := range cluster.NotModelled() {
		for _, l := range wrap(strings.Join(u.Keys, ", "), 74) {
			b.WriteString("  " + l + "\n")
		}
		for _, l := range wrap(u.What, 72) {
			b.WriteString("      " + l + "\n")
		}
	}
	return b.String()
}
