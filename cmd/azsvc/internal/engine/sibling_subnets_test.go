package engine

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/azsvc/azsvc/apply"
	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/providers/azure/emulator"
)

// plsInSubnet is an internal Service whose PLS puts its NAT IP in subnet.
func plsInSubnet(i int, subnet string) string {
	return fmt.Sprintf(`apiVersion: v1
kind: Service
metadata:
  name: svc-%[1]d
  namespace: shop
  uid: 5b0c%[1]d1d2-7e3f-4a5b-8c6d-9e0f1a2b3c4d
  annotations:
    service.beta.kubernetes.io/azure-load-balancer-internal: "true"
    service.beta.kubernetes.io/azure-pls-create: "true"
    service.beta.kubernetes.io/azure-pls-ip-configuration-subnet: %[2]s
spec:
  type: LoadBalancer
  ports:
    - {name: https, protocol: TCP, port: 443, nodePort: %[3]d}
`, i, subnet, 31000+i)
}

// TestSiblingSubnetsInOneApply: one apply disables the PLS network
// policies of several subnets of one VNet (issue 21 item 3). A subnet's
// etag is its VNet's: writing one subnet moves its siblings' etags, and the
// second subnet write failed with 412 on the etag read at plan time.
func TestSiblingSubnetsInOneApply(t *testing.T) {
	for _, n := range []int{2, 5} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			cfg := exampleConfig(t)
			var docs []string
			for i := range n {
				docs = append(docs, plsInSubnet(i, fmt.Sprintf("pls-%d", i)))
			}
			in := mustInputs(t, cfg, []byte(strings.Join(docs, "---\n")), false)
			tg := newMemTarget(t, in, emulator.Options{InstantOperations: true})
			vnet := fmt.Sprintf("/subscriptions/%s/resourceGroups/%s/providers/Microsoft.Network/virtualNetworks/%s",
				cfg.SubscriptionForIDs(), cfg.ResourceGroup, cfg.VnetName)
			for i := range n {
				// As ARM creates a subnet: PLS network policies Enabled.
				putBody(t, tg.Emulator, fmt.Sprintf("%s/subnets/pls-%d", vnet, i),
					fmt.Sprintf(`{"properties": {"addressPrefix": "10.225.%d.0/24"}}`, 10+i))
			}
			p := mustPlan(t, in, tg)
			subnetWrites := 0
			for _, st := range p.Steps {
				if st.Target.Kind == plan.KindSubnet {
					subnetWrites++
				}
			}
			if subnetWrites != n {
				t.Fatalf("%d subnet writes, want %d:\n%s", subnetWrites, n, planLines(p))
			}
			if _, err := apply.Run(context.Background(), p, tg.Provider, apply.Options{}); err != nil {
				t.Fatalf("apply: %v\nplan:\n%s", err, planLines(p))
			}
			requireEmptyPlan(t, in, tg, "after one apply")
		})
	}
}
