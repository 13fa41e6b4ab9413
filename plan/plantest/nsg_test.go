package plantest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/azsvc/azsvc/plan"
)

func nsgRule(name string, prio float64, access string) *plan.Resource {
	return &plan.Resource{ID: plan.ChildID(nsgID(), plan.KindSecurityRule, name), Properties: map[string]any{
		"priority": prio, "access": access, "direction": "Inbound", "destinationAddressPrefix": "1.2.3.4",
		"protocol": "Tcp", "sourceAddressPrefix": "Internet", "destinationPortRanges": []any{"1"}}}
}

func TestPriorityAllocation(t *testing.T) {
	tests := []struct {
		name     string
		existing []*plan.Resource
		deny     bool
		want     int
		wantErr  string
	}{
		{name: "first allow", want: 500},
		{name: "lowest free above 500", existing: []*plan.Resource{nsgRule("k8s-azure-lb_x", 500, "Allow"), nsgRule("k8s-azure-lb_y", 502, "Allow"), nsgRule("user", 501, "Allow")}, want: 503},
		{name: "gap reused", existing: []*plan.Resource{nsgRule("k8s-azure-lb_x", 501, "Allow")}, want: 500},
		{name: "unmanaged rule below the band ignored", existing: []*plan.Resource{nsgRule("user", 100, "Allow")}, want: 500},
		{name: "deny from the top", deny: true, want: 4095},
		{name: "deny below taken", deny: true, existing: []*plan.Resource{nsgRule("k8s-azure-lb_deny-all_IPv4x", 4095, "Deny")}, want: 4094},
		{name: "outbound rules do not collide", existing: func() []*plan.Resource {
			r := nsgRule("out", 500, "Allow")
			r.Properties["direction"] = "Outbound"
			return []*plan.Resource{r}
		}(), want: 500},
		{name: "exhausted", existing: fullBand(), wantErr: "security rule priority exhausted in nsg/aks-agentpool-nsg"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			observed := plan.NewState()
			observed.Put(&plan.Resource{ID: nsgID()})
			for _, r := range tt.existing {
				observed.Put(r)
			}
			desired := plan.NewState()
			desired.Put(&plan.Resource{ID: nsgID()})
			name, access := "k8s-azure-lb_allow_IPv4_new", "Allow"
			if tt.deny {
				name, access = "k8s-azure-lb_deny-all_IPv4", "Deny"
			}
			w := nsgRule(name, 0, access)
			delete(w.Properties, "priority")
			w.Properties["destinationAddressPrefix"] = "9.9.9.9"
			w.Services = []string{"web/a"}
			desired.Put(w)
			// the existing rules keep their destinations: their IPs belong to no Service in scope.
			p, err := diffOf(desired, observed, plan.Scope{Cluster: tCluster, Services: []plan.ServiceRef{{Name: "web/a", Prefix: "a1"}}})
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range p.Changes {
				if c.Key() == w.Key() {
					if got := c.After.Properties["priority"]; got != tt.want {
						t.Fatalf("priority = %v, want %d", got, tt.want)
					}
					return
				}
			}
			t.Fatalf("rule not created")
		})
	}
}

func fullBand() []*plan.Resource {
	var out []*plan.Resource
	for p := plan.ManagedPriorityMin; p < plan.ManagedPriorityMax; p++ {
		out = append(out, nsgRule(fmt.Sprintf("k8s-azure-lb_r%d", p), float64(p), "Allow"))
	}
	return out
}

func TestNSGRuleDroppedWhenLastDestinationGoes(t *testing.T) {
	solo := svc{name: "web/solo", uid: uid(9), ports: []int{8443}}
	observed := observe(world(svcA, solo))
	p := mustDiff(t, world(svcA), observed, scopeOf(false, svcA, solo))
	for _, c := range p.Changes {
		if c.ID().Kind == plan.KindSecurityRule {
			if !c.IsDelete() || c.ID().Name() != "k8s-azure-lb_allow_IPv4_8443" {
				t.Errorf("NSG change %v %s", c.Actions, c.ID().Address())
			}
			if strings.Join(c.Services, ",") != "web/solo" {
				t.Errorf("services = %v", c.Services)
			}
		}
	}
}

func TestNSGKeepsDestinationsOfOutOfScopeServices(t *testing.T) {
	observed := observe(world(svcA, svcB))
	// web/b is out of scope; web/a changes nothing: no change at all.
	p := mustDiff(t, world(svcA), observed, scopeOf(false, svcA))
	if len(p.Changes) != 0 {
		t.Fatalf("changes: %v", stepLines(p))
	}
	// web/a goes away: the shared rule keeps web/b's address only.
	p = mustDiff(t, world(), observed, scopeOf(false, svcA))
	for _, c := range p.Changes {
		if c.ID().Kind == plan.KindSecurityRule {
			if got := c.After.Properties["destinationAddressPrefix"]; got != "20.0.0.3" {
				t.Errorf("destinations = %v, want web/b's 20.0.0.3", got)
			}
			if c.Reason != plan.ReasonServiceRemoved {
				t.Errorf("reason = %s", c.Reason)
			}
		}
	}
}

// New rules take free priorities in the order CCM builds them, which the
// desired state records as their empty-NSG priorities (§5.4), not in name
// order.
func TestPriorityAllocationFollowsBuildOrder(t *testing.T) {
	observed := plan.NewState()
	observed.Put(&plan.Resource{ID: nsgID(), Location: "eastus"})
	observed.Put(nsgRule("k8s-azure-lb_taken", 500, "Allow"))
	desired := plan.NewState()
	desired.Put(&plan.Resource{ID: nsgID()})
	for name, prio := range map[string]float64{"k8s-azure-lb_z_built_first": 500, "k8s-azure-lb_a_built_second": 501, "k8s-azure-lb_deny": 4095} {
		access := "Allow"
		if prio > 4000 {
			access = "Deny"
		}
		r := nsgRule(name, prio, access)
		r.Services = []string{"web/a"}
		desired.Put(r)
	}
	p := mustDiff(t, desired, observed, plan.Scope{Cluster: tCluster})
	got := map[string]any{}
	for _, c := range p.Changes {
		got[c.ID().Name()] = c.After.Properties["priority"]
	}
	want := map[string]any{"k8s-azure-lb_z_built_first": 501, "k8s-azure-lb_a_built_second": 502, "k8s-azure-lb_deny": 4095}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("priorities %v, want %v", got, want)
	}
}
