package plantest

import (
	"reflect"
	"slices"
	"testing"

	"github.com/azsvc/azsvc/plan"
)

// pinnedWorld is svcA's world with its frontend pinned by address to a
// user-assigned public IP (no managed PIP), in the given collection.
func pinnedWorld(s svc, addr string) *plan.State {
	st := world(s)
	for _, r := range st.OfKind(plan.KindPublicIP) {
		st.Delete(r.Key())
	}
	fe, _ := st.Get(plan.ChildID(lbID(false), plan.KindFrontend, s.prefix()).Key())
	fe.Properties["publicIPAddress"] = map[string]any{"id": plan.PublicIPByAddress(plan.PublicIPCollection(tSub, tRG), addr)}
	for _, r := range st.OfKind(plan.KindSecurityRule) {
		plan.SetDestinations(r.Properties, []any{plan.CanonicalIP(addr)}) // plan/desired writes addresses canonically
	}
	return st
}

func userPIP(rg, name, addr string) *plan.Resource {
	return &plan.Resource{ID: plan.NewID(tSub, rg, plan.KindPublicIP, name), Location: "eastus", Etag: `W/"u"`,
		SKU: map[string]any{"name": "Standard", "tier": "Regional"}, Tags: map[string]string{"owner": "me"},
		Properties: map[string]any{"ipAddress": addr, "publicIPAllocationMethod": "Static"}}
}

func pinnedScope(s svc, addr string) plan.Scope {
	sc := scopeOf(false, s)
	sc.Services[0].PinnedIPs = []string{addr}
	return sc
}

func TestPublicIPByAddressRoundTrip(t *testing.T) {
	coll := plan.PublicIPCollection("Sub", "RG-1")
	c, addr, ok := plan.ParsePublicIPByAddress(plan.PublicIPByAddress(coll, "2603:1020::a"))
	if !ok || c != coll || addr != "2603:1020::a" {
		t.Fatalf("parse = %q %q %v", c, addr, ok)
	}
	if _, _, ok := plan.ParsePublicIPByAddress(plan.AfterApply(coll, "ipAddress")); ok {
		t.Error("a plain AfterApply parsed as by-address")
	}
	if _, ok := plan.ParseBackendNodeIPs(plan.PublicIPByAddress(coll, "1.2.3.4")); ok {
		t.Error("a by-address marker parsed as node IPs")
	}
}

func TestPinnedPublicIPResolvesToObservedID(t *testing.T) {
	for _, tc := range []struct{ name, pinned, observed string }{
		{"IPv4", "20.62.10.7", "20.62.10.7"},
		{"IPv6 spelled differently", "2603:1020:206:3:0:0:0:a", "2603:1020:206:3::a"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			desired := pinnedWorld(svcA, tc.pinned)
			observed := plan.NewState()
			observed.Put(&plan.Resource{ID: nsgID(), Location: "eastus"})
			pip := userPIP(tRG, "byo", tc.observed)
			observed.Put(pip)
			observed.Put(userPIP("other-rg", "elsewhere", tc.observed)) // same address, wrong group
			p := mustDiff(t, desired, observed, pinnedScope(svcA, tc.pinned))
			if len(p.Blocked) != 0 {
				t.Fatalf("blocked: %v", p.Blocked)
			}
			var fe *plan.Change
			for _, c := range p.Changes {
				if c.ID().Kind == plan.KindFrontend {
					fe = c
				}
				if c.Key() == pip.Key() {
					t.Errorf("plan changes the user-assigned public IP: %v", c.Actions)
				}
			}
			if fe == nil {
				t.Fatal("no frontend change")
			}
			if got := plan.RefID(fe.After.Properties["publicIPAddress"]); got != pip.ID.String() {
				t.Errorf("frontend publicIPAddress.id = %v, want %s", fe.After.Properties["publicIPAddress"], pip.ID)
			}

			// Once applied, the same desired state plans nothing.
			after := observe(desired)
			after.Put(pip)
			got, _ := after.Get(fe.Key())
			got.Properties["publicIPAddress"] = plan.Ref(pip.ID)
			for _, r := range after.OfKind(plan.KindSecurityRule) {
				plan.SetDestinations(r.Properties, []any{tc.observed})
			}
			again := mustDiff(t, desired, after, pinnedScope(svcA, tc.pinned))
			if len(again.Changes) != 0 || len(again.Blocked) != 0 {
				t.Errorf("converged plan: %v blocked %v", stepLines(again), again.Blocked)
			}
		})
	}
}

func TestPinnedPublicIPNotFoundBlocksTheService(t *testing.T) {
	desired := pinnedWorld(svcA, "20.62.10.9")
	for k, r := range world(svcB).All() {
		if have, ok := desired.Get(k); ok && r.Kind() != plan.KindSecurityRule {
			have.AddService(svcB.name) // the shared LB and pool
			continue
		}
		desired.Put(r)
	}
	observed := plan.NewState()
	observed.Put(&plan.Resource{ID: nsgID(), Location: "eastus"})
	observed.Put(userPIP(tRG, "byo", "20.62.10.7"))
	scope := pinnedScope(svcA, "20.62.10.9")
	scope.Services = append(scope.Services, svcB.ref())
	p := mustDiff(t, desired, observed, scope)

	fe := plan.ChildID(lbID(false), plan.KindFrontend, svcA.prefix()).Address()
	want := []plan.Blocked{{Address: fe, Code: plan.BlockPinnedIPNotFound, Services: []string{"web/a"}, Value: "20.62.10.9", Group: "rg",
		Suggestion: "20.62.10.7"}} // the address the group's public IP has
	if !reflect.DeepEqual(p.Blocked, want) {
		t.Errorf("blocked:\n%+v\nwant %+v", p.Blocked, want)
	}
	for _, c := range p.Changes {
		for _, s := range c.Services {
			if s == svcA.name && len(c.Services) == 1 {
				t.Errorf("plan still changes %s for the failed Service", c.ID().Address())
			}
		}
		if c.ID().Kind == plan.KindSecurityRule {
			for _, d := range plan.AsSecurityRule(c.After).Destinations() {
				if d == "20.62.10.9" {
					t.Errorf("NSG rule %s allows the address that was not found", c.ID().Address())
				}
			}
		}
	}
	for _, kind := range []plan.Kind{plan.KindRule, plan.KindProbe} {
		found := false
		for _, c := range p.Changes {
			found = found || c.ID().Kind == kind && slices.Contains(c.Services, svcB.name)
		}
		if !found {
			t.Errorf("the other Service lost its %s changes", kind)
		}
	}
	for _, st := range p.Steps {
		for _, r := range append([]*plan.Resource{st.Body}, st.Children...) {
			if r != nil && plan.HasMarker(r.Properties) {
				if _, _, ok := plan.ParsePublicIPByAddress(plan.RefValue(r.Properties["publicIPAddress"])); ok {
					t.Errorf("step %s carries an unresolved by-address reference", st.Target.Address())
				}
			}
		}
	}
}
