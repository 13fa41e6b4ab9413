package engine

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/azsvc/azsvc/apply"
	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/preflight"
	"github.com/azsvc/azsvc/providers/azure/emulator"
)

// frontdoor is an internal Service whose frontend takes a dynamic address
// in pls-subnet (10.225.1.0/24, where the lowest free one is 10.225.1.4).
const frontdoor = `apiVersion: v1
kind: Service
metadata:
  name: frontdoor
  namespace: shop
  uid: 0d3b7a51-2c4e-4f68-9a1b-7e5c3d2f1a90
  annotations:
    service.beta.kubernetes.io/azure-load-balancer-internal: "true"
    service.beta.kubernetes.io/azure-load-balancer-internal-subnet: pls-subnet
spec:
  type: LoadBalancer
  ports: [{name: http, protocol: TCP, port: 80, nodePort: 30080}]
`

// ordersWithNAT is an internal Service with a PLS whose NAT IP is static in
// pls-subnet.
func ordersWithNAT(ip string) string {
	return fmt.Sprintf(`apiVersion: v1
kind: Service
metadata:
  name: orders
  namespace: shop
  uid: 7c2e9f14-5a3b-4d8c-b6e1-0f9a8d7c6b52
  annotations:
    service.beta.kubernetes.io/azure-load-balancer-internal: "true"
    service.beta.kubernetes.io/azure-pls-create: "true"
    service.beta.kubernetes.io/azure-pls-ip-configuration-subnet: pls-subnet
    service.beta.kubernetes.io/azure-pls-ip-configuration-ip-address: %s
spec:
  type: LoadBalancer
  ports: [{name: https, protocol: TCP, port: 443, nodePort: 30443}]
`, ip)
}

// TestStaticNATIPAfterDynamicFrontend: a PLS NAT IP pinned to the address
// that a frontend created earlier in the same apply gets dynamically (Azure
// gives it the lowest free address of the subnet) is refused at plan time,
// naming that frontend (issue 21 item 4). Before, the plan applied the
// load balancer and stopped at the PLS with PrivateIPAddressInUse. The
// PLS's own frontend is in the same load balancer write, so no order of
// the writes avoids it. A static address the plan's dynamic allocations
// cannot reach applies in one go.
func TestStaticNATIPAfterDynamicFrontend(t *testing.T) {
	cfg := exampleConfig(t)
	t.Run("taken", func(t *testing.T) {
		in := mustInputs(t, cfg, []byte(frontdoor+"---\n"+ordersWithNAT("10.225.1.4")), false)
		tg := newMemTarget(t, in, emulator.Options{InstantOperations: true})
		p, _, err := Plan(context.Background(), in, tg)
		if !errors.Is(err, preflight.ErrRefused) || p == nil {
			if p != nil {
				_, err = apply.Run(context.Background(), p, tg.Provider, apply.Options{})
			}
			t.Fatalf("plan was not refused; apply: %v", err)
		}
		want := plan.Refusal{Address: "pls/pls-a7c2e9f145a3b4d8cb6e10f9a8d7c6b5", Code: plan.RefuseIPTakenDynamic, IP: "10.225.1.4",
			Subnet: "vnet/aks-vnet/subnet/pls-subnet", Other: "lb/aks-prod-weu-internal/frontend/a0d3b7a512c4e4f689a1b7e5c3d2f1a9-pls-subnet"}
		if len(p.Refused) != 1 || fmt.Sprint(p.Refused[0]) != fmt.Sprint(want) {
			t.Fatalf("refused %+v\nwant    %+v", p.Refused, want)
		}
	})
	t.Run("free", func(t *testing.T) {
		in := mustInputs(t, cfg, []byte(frontdoor+"---\n"+ordersWithNAT("10.225.1.5")), false)
		tg := newMemTarget(t, in, emulator.Options{InstantOperations: true})
		applyPlan(t, in, tg)
		requireEmptyPlan(t, in, tg, "after one apply")
	})
}
