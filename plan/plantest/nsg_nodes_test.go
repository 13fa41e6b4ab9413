package plantest

import (
	"reflect"
	"strings"
	"testing"

	"github.com/azsvc/azsvc/plan"
)

// nodesWorld is svcA's world with floating IP disabled: its NSG rule's
// destinations are the node IPs of the cluster pool, alone or next to an
// additional public IP.
func nodesWorld(extra ...any) *plan.State {
	st := world(svcA)
	pool := plan.ChildID(lbID(false), plan.KindBackendPool, tCluster).Key()
	for _, r := range st.OfKind(plan.KindSecurityRule) {
		delete(r.Properties, "destinationAddressPrefix")
		if len(extra) == 0 {
			r.Properties[plan.DestinationField] = plan.BackendNodeIPs(pool)
		} else {
			r.Properties[plan.DestinationField] = append(append([]any(nil), extra...), plan.BackendNodeIPs(pool))
		}
	}
	return st
}

func nodeRule(p *plan.Plan) *plan.Change {
	for _, c := range p.Changes {
		if c.ID().Kind == plan.KindSecurityRule {
			return c
		}
	}
	return nil
}

func TestNodeIPsFromANodeIPPool(t *testing.T) {
	desired := nodesWorld()
	observed := observe(world(svcA))
	for _, r := range observed.OfKind(plan.KindSecurityRule) {
		observed.Delete(r.Key())
	}
	pool, _ := observed.Get(plan.ChildID(lbID(false), plan.KindBackendPool, tCluster).Key())
	pool.Properties["loadBalancerBackendAddresses"] = []any{
		map[string]any{"name": "node-2", "properties": map[string]any{"ipAddress": "10.224.0.5"}},
		map[string]any{"name": "node-1", "properties": map[string]any{"ipAddress": "10.224.0.4"}},
		map[string]any{"name": "node-1-again", "properties": map[string]any{"ipAddress": "10.224.0.4"}},
	}
	p := mustDiff(t, desired, observed, scopeOf(false, svcA))
	c := nodeRule(p)
	if c == nil || !c.Has(plan.ActionCreate) {
		t.Fatalf("no NSG rule create: %v", stepLines(p))
	}
	if got, want := c.After.Properties[plan.DestinationField], []any{"10.224.0.4", "10.224.0.5"}; !reflect.DeepEqual(got, want) {
		t.Errorf("destinations = %v, want %v", got, want)
	}
	if len(p.Blocked) != 0 {
		t.Errorf("blocked: %v", p.Blocked)
	}
}

func TestNodeIPsNotVisible(t *testing.T) {
	tests := []struct {
		name      string
		desired   *plan.State
		wantDests []any // nil: the rule is left out
		wantNote  plan.BlockCode
	}{
		{"only node IPs: the rule is left out", nodesWorld(), nil, plan.BlockNodeIPsNotPlanned},
		{"with an additional IP: planned without the node IPs", nodesWorld("20.9.9.9"), []any{"20.9.9.9"},
			plan.BlockNodeIPsPartial},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			observed := observe(world(svcA))
			for _, r := range observed.OfKind(plan.KindSecurityRule) {
				observed.Delete(r.Key())
			}
			p := mustDiff(t, tc.desired, observed, scopeOf(false, svcA))
			c := nodeRule(p)
			switch {
			case tc.wantDests == nil && c != nil:
				t.Errorf("planned %v %s", c.Actions, c.ID().Address())
			case tc.wantDests != nil && (c == nil || !reflect.DeepEqual(plan.AsSecurityRule(c.After).Destinations(), tc.wantDests)):
				t.Errorf("rule change = %+v, want destinations %v", c, tc.wantDests)
			}
			if len(p.Blocked) != 1 || p.Blocked[0].Code != tc.wantNote ||
				!reflect.DeepEqual(p.Blocked[0].Services, []string{"web/a"}) || p.Blocked[0].Other != "lb/kubernetes/pool/kubernetes" {
				t.Errorf("blocked = %+v, want one note %s", p.Blocked, tc.wantNote)
			}
			for _, st := range p.Steps {
				for _, r := range st.Children {
					if plan.HasMarker(r.Properties) {
						t.Errorf("step %s carries a marker in %s", st.Target.Address(), r.ID.Address())
					}
				}
			}
		})
	}
}

// A rule CCM already filled with node IPs is kept as it is: the node IPs
// are not an address this plan answers for.
func TestNodeIPsExistingRuleKept(t *testing.T) {
	desired := nodesWorld()
	observed := observe(world(svcA))
	for _, r := range observed.OfKind(plan.KindSecurityRule) {
		plan.SetDestinations(r.Properties, []any{"10.224.0.4", "10.224.0.5"})
	}
	p := mustDiff(t, desired, observed, scopeOf(false, svcA))
	if c := nodeRule(p); c != nil {
		t.Errorf("planned %v %s: %v", c.Actions, c.ID().Address(), c.Attributes)
	}
	if len(p.Blocked) != 1 || p.Blocked[0].Code != plan.BlockNodeIPsLeft {
		t.Errorf("blocked = %v, want a note that the rule is left as it is", p.Blocked)
	}
}

// With no rule left in the desired state, the NSG is reconciled only when
// the scope names it: removing the last public Service (pruned) must take
// its address out of the shared rule, and delete the rule it leaves empty.
func TestScopeSecurityGroupCleanedWithoutDesiredRules(t *testing.T) {
	observed := observe(world(svcA, svcI))
	desired := world(svcI)
	desired.Delete(nsgID().Key()) // no Service wants a rule: plan/desired writes no NSG
	for _, tc := range []struct {
		name       string
		nsg        plan.Key
		wantDelete bool
	}{
		{"scope names the NSG", nsgID().Key(), true},
		{"scope without it", "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			scope := scopeOf(true, svcI)
			scope.SecurityGroup = tc.nsg
			p := mustDiff(t, desired, observed, scope)
			deleted := false
			for _, c := range p.Changes {
				deleted = deleted || c.ID().Kind == plan.KindSecurityRule && c.IsDelete()
			}
			if deleted != tc.wantDelete {
				t.Errorf("NSG rule deleted = %v, want %v:\n%s", deleted, tc.wantDelete, strings.Join(stepLines(p), "\n"))
			}
		})
	}
}
