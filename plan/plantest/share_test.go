package plantest

import (
	"strings"
	"testing"

	"github.com/azsvc/azsvc/plan"
)

// pinTo rewrites the desired state of the single Service s so that its
// frontend pins addr: by address to a public IP (external), or as a static
// private IP (internal), as plan/desired builds it.
func pinTo(st *plan.State, s svc, addr string, lb plan.ID) *plan.State {
	out := plan.NewState()
	fe := plan.ChildID(lb, plan.KindFrontend, s.prefix())
	for _, r := range st.Resources() {
		r = r.Clone()
		switch {
		case r.Kind() == plan.KindPublicIP:
			continue
		case r.Kind() == plan.KindLoadBalancer && r.Key() != lb.Key():
			r.ID = lb
		case r.Kind() == plan.KindFrontend && s.internal:
			r.Properties["privateIPAllocationMethod"], r.Properties["privateIPAddress"] = "Static", addr
		case r.Kind() == plan.KindFrontend:
			r.Properties["publicIPAddress"] = map[string]any{"id": plan.PublicIPByAddress(plan.PublicIPCollection(tSub, tRG), addr)}
		case r.Kind() == plan.KindSecurityRule:
			plan.SetDestinations(r.Properties, []any{addr})
		}
		if r.Kind() != plan.KindLoadBalancer && r.Kind() != plan.KindSecurityGroup && r.Kind() != plan.KindSecurityRule {
			r.ID = reparent(r.ID, lb)
		}
		if r.Kind() == plan.KindRule {
			r.Properties["frontendIPConfiguration"] = plan.Ref(fe)
			r.Properties["probe"] = plan.Ref(reparent(plan.ChildID(lbID(s.internal), plan.KindProbe, r.Name()), lb))
			r.Properties["backendAddressPool"] = plan.Ref(plan.ChildID(lb, plan.KindBackendPool, tCluster))
		}
		out.Put(r)
	}
	return out
}

func reparent(id, lb plan.ID) plan.ID {
	if id.Kind.Parent() != plan.KindLoadBalancer {
		return id
	}
	return plan.ChildID(lb, id.Kind, id.Name())
}

// changeLines renders changes as "actions address", sorted as the plan is.
func changeLines(p *plan.Plan) []string {
	var out []string
	for _, c := range p.Changes {
		out = append(out, strings.Join(actionStrings(c.Actions), "+")+" "+c.ID().Address())
	}
	return out
}

// TestPinnedAddressSharesExistingFrontend: a Service pinning the address of
// another Service's frontend joins that frontend (ccm-semantics §2.4 "FIP
// (secondary/shared)") and, for a managed public IP, its tag (§6 Sharing).
func TestPinnedAddressSharesExistingFrontend(t *testing.T) {
	for _, internal := range []bool{false, true} {
		name := map[bool]string{false: "public", true: "internal"}[internal]
		t.Run(name, func(t *testing.T) {
			a := svc{name: "web/a", uid: uid(1), internal: internal, ports: []int{80}}
			b := svc{name: "web/b", uid: uid(2), internal: internal, ports: []int{8080}}
			observed := observe(world(a))
			addr := observedAddress(t, observed, a)
			desired := pinTo(world(b), b, addr, lbID(internal))
			scope := scopeOf(false, b)
			scope.Services[0].PinnedIPs = []string{addr}

			p := mustDiff(t, desired, observed, scope)
			if len(p.Blocked) > 0 {
				t.Fatalf("blocked: %+v", p.Blocked)
			}
			aFE := plan.ChildID(lbID(internal), plan.KindFrontend, a.prefix())
			want := map[string]bool{
				"create lb/" + lbName(internal) + "/probe/" + b.prefix() + "-TCP-8080": true,
				"create lb/" + lbName(internal) + "/rule/" + b.prefix() + "-TCP-8080":  true,
			}
			if !internal {
				want["create nsg/aks-agentpool-nsg/rule/k8s-azure-lb_allow_IPv4_8080"] = true
				want["update pip/kubernetes-"+a.prefix()] = true
			}
			for _, l := range changeLines(p) {
				if !want[l] {
					t.Errorf("unexpected change %q", l)
				}
				delete(want, l)
			}
			for l := range want {
				t.Errorf("missing change %q", l)
			}
			for _, c := range p.Changes {
				switch c.ID().Kind {
				case plan.KindRule:
					if got := plan.RefID(c.After.Properties["frontendIPConfiguration"]); plan.KeyOf(got) != aFE.Key() {
						t.Errorf("b's rule uses frontend %s, want a's %s", got, aFE)
					}
				case plan.KindPublicIP:
					if got := c.After.Tags[plan.TagService]; got != "web/a,web/b" {
						t.Errorf("%s = %q, want web/a,web/b (a out of scope is kept)", plan.TagService, got)
					}
					if c.Reason != plan.ReasonServiceAdded {
						t.Errorf("public IP update reason %q, want service_added (not drift)", c.Reason)
					}
				}
			}
		})
	}
}

// TestPinnedAddressOnAnotherLoadBalancerIsBlocked: a frontend cannot be
// shared across load balancers, so the Service fails with a Blocked entry
// instead of an ARM rejection.
func TestPinnedAddressOnAnotherLoadBalancerIsBlocked(t *testing.T) {
	a := svc{name: "web/a", uid: uid(1), ports: []int{80}}
	b := svc{name: "web/b", uid: uid(2), ports: []int{8080}}
	observed := observe(world(a))
	addr := observedAddress(t, observed, a)
	desired := pinTo(world(b), b, addr, plan.NewID(tSub, tRG, plan.KindLoadBalancer, "other"))
	scope := scopeOf(false, b)
	scope.LoadBalancerNames = []string{"other"}

	p := mustDiff(t, desired, observed, scope)
	if len(p.Blocked) != 1 || p.Blocked[0].Code != plan.BlockSharedAcrossLBs {
		t.Fatalf("blocked = %+v, want one entry about another load balancer", p.Blocked)
	}
	for _, l := range changeLines(p) {
		if strings.HasPrefix(l, "create lb/") {
			t.Errorf("unexpected change %q", l)
		}
	}
}

// TestRenamedFrontendKeepingItsIPIsNotShared: a Service whose frontend is
// renamed (a subnet annotation added) keeps its static IP on the new
// frontend; its old frontend is replaced, not joined.
func TestRenamedFrontendKeepingItsIPIsNotShared(t *testing.T) {
	a := svc{name: "web/a", uid: uid(1), internal: true, ports: []int{80}}
	observed := observe(world(a))
	addr := observedAddress(t, observed, a)
	desired := pinTo(world(a), a, addr, lbID(true))
	renamed := plan.NewState()
	for _, r := range desired.Resources() {
		r = r.Clone()
		if r.Kind() == plan.KindFrontend {
			r.ID = plan.ChildID(lbID(true), plan.KindFrontend, a.prefix()+"-other")
		}
		if r.Kind() == plan.KindRule {
			r.Properties["frontendIPConfiguration"] = plan.Ref(plan.ChildID(lbID(true), plan.KindFrontend, a.prefix()+"-other"))
		}
		renamed.Put(r)
	}
	p := mustDiff(t, renamed, observed, scopeOf(false, a))
	lines := strings.Join(changeLines(p), "\n")
	for _, w := range []string{"create lb/kubernetes-internal/frontend/" + a.prefix() + "-other", "delete lb/kubernetes-internal/frontend/" + a.prefix()} {
		if !strings.Contains(lines, w) {
			t.Errorf("missing %q in\n%s", w, lines)
		}
	}
}

func observedAddress(t *testing.T, observed *plan.State, s svc) string {
	t.Helper()
	fe, ok := observed.Get(plan.ChildID(lbID(s.internal), plan.KindFrontend, s.prefix()).Key())
	if !ok {
		t.Fatalf("no observed frontend for %s", s.name)
	}
	if ip, ok := fe.Properties["privateIPAddress"].(string); ok {
		return ip
	}
	pip, _ := observed.Get(plan.KeyOf(plan.RefID(fe.Properties["publicIPAddress"])))
	return pip.Properties["ipAddress"].(string)
}

// TestPinnedAddressPortConflictIsBlocked: on a shared frontend no two
// Services may use the same protocol and frontend port (ccm-semantics §3,
// checkLoadBalancerResourcesConflicts); ARM would refuse the duplicate.
func TestPinnedAddressPortConflictIsBlocked(t *testing.T) {
	a := svc{name: "web/a", uid: uid(1), ports: []int{80}}
	b := svc{name: "web/b", uid: uid(2), ports: []int{80}}
	observed := observe(world(a))
	addr := observedAddress(t, observed, a)
	desired := pinTo(world(b), b, addr, lbID(false))
	scope := scopeOf(false, b)
	scope.Services[0].PinnedIPs = []string{addr}

	p := mustDiff(t, desired, observed, scope)
	if len(p.Blocked) == 0 || p.Blocked[0].Code != plan.BlockSharedPort || p.Blocked[0].Value != "tcp/80" {
		t.Fatalf("blocked = %+v, want a port conflict", p.Blocked)
	}
	for _, l := range changeLines(p) {
		t.Errorf("unexpected change %q", l)
	}
}
