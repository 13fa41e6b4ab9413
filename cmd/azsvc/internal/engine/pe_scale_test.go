package engine

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/azsvc/azsvc/apply"
	"github.com/azsvc/azsvc/providers/azure/emulator"
)

// endpointFleet is one Service with a PLS and n PrivateEndpoints to it
// from the guest subscription, all writing into one set of zones: a
// record ep-<i> in scale.internal and in apps.scale.internal each.
func endpointFleet(n int) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, `apiVersion: v1
kind: Service
metadata:
  name: fleet-router
  namespace: fleet
  uid: 6a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d
  annotations:
    service.beta.kubernetes.io/azure-load-balancer-internal: "true"
    service.beta.kubernetes.io/azure-pls-create: "true"
    service.beta.kubernetes.io/azure-pls-ip-configuration-subnet: %s
    service.beta.kubernetes.io/azure-pls-auto-approval: %s
spec:
  type: LoadBalancer
  selector: {app: fleet-router}
  ports:
  - {name: https, protocol: TCP, port: 443, targetPort: 8443, nodePort: 30443}
`, plsSubnet, guestSub)
	for i := range n {
		fmt.Fprintf(&b, `---
apiVersion: azsvc.io/v1alpha1
kind: PrivateEndpoint
metadata: {name: ep-%[1]d, namespace: fleet}
spec:
  service: fleet-router
  subnetID: %[2]s
  dns:
  - {zone: scale.internal, records: [ep-%[1]d]}
  - {zone: apps.scale.internal, records: [ep-%[1]d]}
`, i, guestPESub)
	}
	return []byte(b.String())
}

// fleetFigures applies a fleet of n endpoints and measures the reads of
// the plan that follows, by ARM type, with the emulator's counters.
type fleetFigures struct {
	n, writes           int
	applyTime, planTime time.Duration
	reads               map[string]int // "METHOD type" -> calls
	total               int
}

func measureFleet(t *testing.T, n int) fleetFigures {
	t.Helper()
	cfg := exampleConfig(t)
	in := mustInputs(t, cfg, endpointFleet(n), false)
	tg := newMemTarget(t, in, emulator.Options{InstantOperations: true})
	p := mustPlan(t, in, tg)
	tg.Emulator.Counters().Reset()
	start := time.Now()
	if _, err := apply.Run(context.Background(), p, tg.Provider, apply.Options{}); err != nil {
		t.Fatalf("apply %d endpoints: %v", n, err)
	}
	f := fleetFigures{n: n, writes: tg.Emulator.Counters().Writes(""), applyTime: time.Since(start), reads: map[string]int{}}
	tg.Emulator.Counters().Reset()
	start = time.Now()
	requireEmptyPlan(t, in, tg, fmt.Sprintf("%d endpoints", n))
	f.planTime = time.Since(start)
	c := tg.Emulator.Counters()
	for _, typ := range []string{"Microsoft.Network/loadBalancers", "Microsoft.Network/publicIPAddresses",
		"Microsoft.Network/networkSecurityGroups", "Microsoft.Network/privateLinkServices",
		"Microsoft.Network/privateEndpoints", "Microsoft.Network/networkInterfaces",
		"Microsoft.Network/privateDnsZones", "Microsoft.Network/privateDnsZones/virtualNetworkLinks",
		"Microsoft.Network/privateDnsZones/A", "Microsoft.Network/virtualNetworks/subnets"} {
		for _, m := range []string{emulator.MethodList, emulator.MethodGet} {
			if k := c.Count(m, typ); k > 0 {
				f.reads[m+" "+typ] = k
			}
		}
	}
	f.total = c.Reads("")
	return f
}

// TestEndpointReadsConstant: a plan reads by listing per resource group and
// type, so its reads do not grow with the number of endpoints beyond list
// pages (100 items each): 1,000 endpoints in one zone set read like 10,
// plus the extra pages of endpoints, NICs and the two zones' records.
func TestEndpointReadsConstant(t *testing.T) {
	if testing.Short() {
		t.Skip("applies 1,000 private endpoints")
	}
	small, large := measureFleet(t, 10), measureFleet(t, 1000)
	pages := func(n int) int { return (n + 99) / 100 }
	extra := 0
	for _, items := range []int{large.n, large.n, large.n, large.n} { // endpoints, NICs, records of two zones
		extra += pages(items) - pages(small.n)
	}
	if large.total != small.total+extra {
		t.Errorf("reads: %d for %d endpoints, %d for %d; want only %d more (list pages)", small.total, small.n, large.total, large.n, extra)
	}
	for k, v := range large.reads {
		if strings.HasPrefix(k, emulator.MethodGet+" ") {
			t.Errorf("the plan of %d endpoints GETs one by one: %s = %d", large.n, k, v)
		}
	}
	for _, f := range []fleetFigures{small, large} {
		t.Logf("%d endpoints: apply %d writes in %s; the next plan (%s) reads %d times: %v", f.n, f.writes,
			f.applyTime.Round(time.Millisecond), f.planTime.Round(time.Millisecond), f.total, f.reads)
	}
}
