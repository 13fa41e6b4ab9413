package plantest

import (
	"reflect"
	"strings"
	"testing"

	"github.com/azsvc/azsvc/plan"
)

// The PLS NAT subnet (ccm-semantics §8 "Subnet policy"): azsvc owns only
// its privateLinkServiceNetworkPolicies field.

var svcP = svc{name: "web/p", uid: uid(4), ports: []int{443}, internal: true, pls: true}

// tPLSSubnet is where svcP's PLS places its NAT IPs; its frontend is in
// tSubnet.
const tPLSSubnet = "/subscriptions/sub/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/vnet/subnets/pls"

func subnetKey() plan.Key { return plan.KeyOf(tPLSSubnet) }

// plsWorld is world(svcP) with the PLS NAT IPs in tPLSSubnet.
func plsWorld() *plan.State {
	st := world(svcP)
	for _, p := range st.OfKind(plan.KindPrivateLinkService) {
		for _, ipc := range p.Properties["ipConfigurations"].([]any) {
			ipc.(map[string]any)["properties"].(map[string]any)["subnet"] = map[string]any{"id": tPLSSubnet}
		}
	}
	return st
}

// withPLSSubnet adds the desired NAT subnet, as plan/desired builds it.
func withPLSSubnet(st *plan.State) *plan.State {
	id, err := plan.ParseID(tPLSSubnet)
	if err != nil {
		panic(err)
	}
	st.Put(&plan.Resource{ID: id, Properties: map[string]any{"privateLinkServiceNetworkPolicies": "Disabled"},
		Services: []string{svcP.name}, Owned: true})
	return st
}

// observedSubnet is the subnet as Read returns it: every writable field.
func observedSubnet(policy string) *plan.Resource {
	id, _ := plan.ParseID(tPLSSubnet)
	return &plan.Resource{ID: id, Etag: `W/"subnet-1"`, Properties: map[string]any{
		"addressPrefix":                     "10.0.0.0/16",
		"networkSecurityGroup":              plan.Ref(nsgID()),
		"routeTable":                        map[string]any{"id": "/subscriptions/sub/resourceGroups/rg/providers/Microsoft.Network/routeTables/rt"},
		"serviceEndpoints":                  []any{map[string]any{"service": "Microsoft.Storage", "locations": []any{"*"}}},
		"privateEndpointNetworkPolicies":    "Disabled",
		"privateLinkServiceNetworkPolicies": policy,
	}}
}

func TestSubnetAlreadyDisabledIsNoOp(t *testing.T) {
	desired := withPLSSubnet(plsWorld())
	observed := observe(plsWorld())
	observed.Put(observedSubnet("Disabled"))
	p := mustDiff(t, desired, observed, scopeOf(false, svcP))
	if len(p.Steps) != 0 || len(p.Blocked) != 0 {
		t.Fatalf("want no steps, got:\n%s\nblocked: %v", strings.Join(stepLines(p), "\n"), p.Blocked)
	}
	if p.NoOp != desired.Len() {
		t.Errorf("NoOp = %d, want %d", p.NoOp, desired.Len())
	}
}

func TestSubnetEnabledIsUpdatedKeepingEveryOtherField(t *testing.T) {
	desired := withPLSSubnet(plsWorld())
	observed := observe(plsWorld())
	before := observedSubnet("Enabled")
	observed.Put(before)
	p := mustDiff(t, desired, observed, scopeOf(false, svcP))
	want := []string{"put vnet/vnet/subnet/pls [update:vnet/vnet/subnet/pls]"}
	if got := stepLines(p); !reflect.DeepEqual(got, want) {
		t.Fatalf("steps:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	st := p.Steps[0]
	if st.IfMatch != before.Etag {
		t.Errorf("IfMatch = %q, want %q", st.IfMatch, before.Etag)
	}
	wantBody := observedSubnet("Disabled").Properties
	if !reflect.DeepEqual(st.Body.Properties, wantBody) {
		t.Errorf("body properties = %v\nwant %v", st.Body.Properties, wantBody)
	}
	if before.Properties["privateLinkServiceNetworkPolicies"] != "Enabled" {
		t.Error("Diff modified the observed subnet")
	}
	c := st.Changes[0]
	wantAttr := []plan.AttributeChange{{Path: []string{"properties", "privateLinkServiceNetworkPolicies"}, Before: "Enabled", After: "Disabled"}}
	if !reflect.DeepEqual(c.Attributes, wantAttr) {
		t.Errorf("attributes = %+v, want %+v", c.Attributes, wantAttr)
	}
	if c.Reason != plan.ReasonServiceAdded || len(p.Drift) != 0 || c.Disruptive {
		t.Errorf("reason %q, drift %d, disruptive %v: want a non-disruptive service_added update outside drift", c.Reason, len(p.Drift), c.Disruptive)
	}
}

func TestSubnetUpdateRunsBeforePLSCreate(t *testing.T) {
	desired := withPLSSubnet(plsWorld())
	observed := plan.NewState()
	observed.Put(&plan.Resource{ID: nsgID(), Location: "eastus", Etag: `W/"nsg"`})
	observed.Put(observedSubnet("Enabled"))
	p := mustDiff(t, desired, observed, scopeOf(false, svcP))
	lines := stepLines(p)
	sub := stepIndex(t, lines, "put vnet/vnet/subnet/pls")
	pls := stepIndex(t, lines, "put pls/pls-"+svcP.prefix(), "create:")
	if sub > pls {
		t.Fatalf("want the subnet write before the PLS create, got:\n%s", strings.Join(lines, "\n"))
	}
	c := p.Steps[pls].Changes[0]
	found := false
	for _, k := range c.DependsOn {
		found = found || k == subnetKey()
	}
	if !found {
		t.Errorf("PLS DependsOn = %v, want the subnet", c.DependsOn)
	}
}

func TestMissingSubnetBlocksThePLS(t *testing.T) {
	desired := withPLSSubnet(plsWorld())
	observed := plan.NewState()
	observed.Put(&plan.Resource{ID: nsgID(), Location: "eastus", Etag: `W/"nsg"`})
	p := mustDiff(t, desired, observed, scopeOf(false, svcP))
	for _, st := range p.Steps {
		if k := st.Target.Kind; k == plan.KindSubnet || k == plan.KindPrivateLinkService {
			t.Errorf("planned %s %s for a subnet that does not exist", st.Op, st.Target.Address())
		}
	}
	want := map[string]plan.Blocked{
		"vnet/vnet/subnet/pls":     {Code: plan.BlockSubnetMissing, Value: "pls", Other: "vnet", Group: "rg"},
		"pls/pls-" + svcP.prefix(): {Code: plan.BlockDependsOnBlocked, Other: "vnet/vnet/subnet/pls"},
	}
	got := map[string]plan.Blocked{}
	for _, b := range p.Blocked {
		got[b.Address] = plan.Blocked{Code: b.Code, Value: b.Value, Other: b.Other, Group: b.Group}
		if !reflect.DeepEqual(b.Services, []string{svcP.name}) {
			t.Errorf("%s services = %v", b.Address, b.Services)
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("blocked = %v\nwant %v", got, want)
	}
}

func TestSubnetIsNeverDeleted(t *testing.T) {
	for _, prune := range []bool{false, true} {
		observed := observe(plsWorld())
		observed.Put(observedSubnet("Disabled"))
		p := mustDiff(t, world(), observed, scopeOf(prune, svcP))
		for _, c := range p.Changes {
			if c.ID().Kind == plan.KindSubnet {
				t.Errorf("prune=%v: planned %v of the subnet", prune, c.Actions)
			}
		}
		if stepIndexOf(p, "pls/pls-"+svcP.prefix()) < 0 {
			t.Errorf("prune=%v: want the PLS of the removed Service deleted, got:\n%s", prune, strings.Join(stepLines(p), "\n"))
		}
	}
}

func stepIndexOf(p *plan.Plan, addr string) int {
	for i, st := range p.Steps {
		if st.Target.Address() == addr {
			return i
		}
	}
	return -1
}

func TestSubnetAddress(t *testing.T) {
	id, err := plan.ParseID(tSubnet)
	if err != nil {
		t.Fatal(err)
	}
	if id.Kind != plan.KindSubnet || id.Address() != "vnet/vnet/subnet/nodes" || id.String() != tSubnet {
		t.Errorf("parsed %+v, address %s, string %s", id, id.Address(), id.String())
	}
	if p, _ := id.ParentID(); p.Kind != plan.KindVirtualNetwork || p.Address() != "vnet/vnet" {
		t.Errorf("parent = %+v", p)
	}
	if plan.KindSubnet.Rank() >= plan.KindPrivateLinkService.Rank() {
		t.Error("a subnet must rank before the PLS that uses it")
	}
}
