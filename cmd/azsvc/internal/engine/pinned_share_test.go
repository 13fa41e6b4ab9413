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

// pinnedService is a manifest for a Service on one TCP port, internal or
// public, optionally pinning an address with azure-load-balancer-ipv4.
func pinnedService(name, uid string, port int, internal bool, pin string) string {
	var ann strings.Builder
	if internal {
		ann.WriteString("    service.beta.kubernetes.io/azure-load-balancer-internal: \"true\"\n")
	}
	if pin != "" {
		fmt.Fprintf(&ann, "    service.beta.kubernetes.io/azure-load-balancer-ipv4: %q\n", pin)
	}
	return fmt.Sprintf("apiVersion: v1\nkind: Service\nmetadata:\n  name: %s\n  namespace: default\n  uid: %s\n"+
		"  annotations:\n    example.com/test: \"true\"\n%sspec:\n  type: LoadBalancer\n  selector:\n    app: %s\n"+
		"  ports:\n    - name: p%d\n      protocol: TCP\n      port: %d\n      targetPort: %d\n      nodePort: %d\n",
		name, uid, ann.String(), name, port, port, port, 30000+port%1000)
}

// frontendAddress is the address observed on the frontend of the Service
// with UID prefix: its private IP, or its public IP's address.
func frontendAddress(t *testing.T, observed *plan.State, prefix string) string {
	t.Helper()
	for _, fe := range observed.OfKind(plan.KindFrontend) {
		if !strings.HasPrefix(fe.Name(), prefix) {
			continue
		}
		if ip, ok := fe.Properties["privateIPAddress"].(string); ok && ip != "" {
			return ip
		}
		ref, _ := fe.Properties["publicIPAddress"].(map[string]any)
		id, _ := ref["id"].(string)
		if pip, ok := observed.Get(plan.KeyOf(id)); ok {
			if ip, ok := pip.Properties["ipAddress"].(string); ok {
				return ip
			}
		}
	}
	t.Fatalf("no frontend with prefix %s", prefix)
	return ""
}

// TestPinningAnotherServicesAddressSharesItsFrontend: Service b pins the
// address Azure gave Service a's frontend. CCM makes b a secondary owner of
// a's frontend and, on a managed public IP, adds b to the k8s-azure-service
// tag (ccm-semantics §2.4 "FIP (secondary/shared)", §6 "Sharing"); a second
// frontend on the same address is refused by ARM (PublicIPAddressInUse,
// MultipleIpConfigsRequestSamePrivateIpAddress). Each case also plans b
// alone (a out of scope): a's frontend is kept.
func TestPinningAnotherServicesAddressSharesItsFrontend(t *testing.T) {
	const (
		uidA = "16160000-2222-3333-4444-555555555555"
		uidB = "26160000-2222-3333-4444-555555555555"
	)
	prefixA := "a" + strings.ReplaceAll(uidA, "-", "")[:31]
	for _, internal := range []bool{false, true} {
		t.Run(fmt.Sprintf("internal=%v", internal), func(t *testing.T) {
			cfg := exampleConfig(t)
			a := pinnedService("a", uidA, 80, internal, "")
			in := mustInputs(t, cfg, []byte(a), false)
			tg := newMemTarget(t, in, emulator.Options{InstantOperations: true})
			if _, err := apply.Run(context.Background(), mustPlan(t, in, tg), tg.Provider, apply.Options{}); err != nil {
				t.Fatal(err)
			}
			addr := frontendAddress(t, mustRead(t, tg), prefixA)
			b := pinnedService("b", uidB, 8080, internal, addr)

			both := mustInputs(t, cfg, []byte(a+"---\n"+b), false)
			retarget(tg, both)
			p := mustPlan(t, both, tg)
			for _, c := range p.Changes {
				if c.ID().Kind == plan.KindFrontend {
					t.Errorf("plan changes frontend %s %v; b must join a's frontend", c.ID().Address(), c.Actions)
				}
			}
			if len(p.Blocked) > 0 {
				t.Fatalf("blocked: %+v", p.Blocked)
			}
			if _, err := apply.Run(context.Background(), p, tg.Provider, apply.Options{}); err != nil {
				t.Fatalf("apply a+b: %v\n%s", err, planLines(p))
			}
			requireEmptyPlan(t, both, tg, "second plan of a+b")
			observed := mustRead(t, tg)
			if got := len(observed.OfKind(plan.KindFrontend)); got != 1 {
				t.Errorf("%d frontends, want a's one", got)
			}
			if !internal {
				requireServiceTag(t, observed, "default/a,default/b")
			}

			onlyB := mustInputs(t, cfg, []byte(b), false)
			retarget(tg, onlyB)
			requireEmptyPlan(t, onlyB, tg, "plan of b alone (a out of scope)")

			// b stops pinning: it gets a frontend of its own, a's stays, and
			// b leaves a's public IP's tag.
			unpinned := mustInputs(t, cfg, []byte(a+"---\n"+pinnedService("b", uidB, 8080, internal, "")), false)
			retarget(tg, unpinned)
			if _, err := apply.Run(context.Background(), mustPlan(t, unpinned, tg), tg.Provider, apply.Options{}); err != nil {
				t.Fatalf("apply with b unpinned: %v", err)
			}
			requireEmptyPlan(t, unpinned, tg, "second plan with b unpinned")
			observed = mustRead(t, tg)
			if got := len(observed.OfKind(plan.KindFrontend)); got != 2 {
				t.Errorf("%d frontends after b stopped pinning, want 2", got)
			}
			if !internal {
				pip, _ := observed.Get(plan.NewID(cfg.SubscriptionForIDs(), cfg.ResourceGroup, plan.KindPublicIP, "aks-prod-weu-"+prefixA).Key())
				if pip == nil || pip.Tags[plan.TagService] != "default/a" {
					t.Errorf("a's public IP after b stopped pinning: %+v, want tag %s=default/a", pip, plan.TagService)
				}
			}
		})
	}
}

func requireServiceTag(t *testing.T, observed *plan.State, want string) {
	t.Helper()
	for _, pip := range observed.OfKind(plan.KindPublicIP) {
		if got := pip.Tags[plan.TagService]; got != want {
			t.Errorf("public IP %s: %s = %q, want %q", pip.Name(), plan.TagService, got, want)
		}
	}
}
