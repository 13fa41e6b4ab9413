package plantest

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/azsvc/azsvc/plan"
)

var (
	svcA = svc{name: "web/a", uid: uid(1), ports: []int{80, 443}}
	svcB = svc{name: "web/b", uid: uid(2), ports: []int{80, 443}}
	svcI = svc{name: "web/i", uid: uid(3), ports: []int{8080}, internal: true}
)

func TestDiffConvergedIsEmpty(t *testing.T) {
	desired := world(svcA, svcB, svcI)
	p := mustDiff(t, desired, observe(desired), scopeOf(false, svcA, svcB, svcI))
	if len(p.Changes) != 0 || len(p.Steps) != 0 || len(p.Blocked) != 0 {
		t.Fatalf("converged state planned changes:\n%s\nblocked: %v", strings.Join(stepLines(p), "\n"), p.Blocked)
	}
	if p.NoOp != desired.Len() {
		t.Errorf("NoOp = %d, want %d", p.NoOp, desired.Len())
	}
}

func TestDiffFromEmptyCreatesInDependencyOrder(t *testing.T) {
	desired := world(svcA)
	observed := plan.NewState()
	observed.Put(&plan.Resource{ID: nsgID(), Location: "eastus", Etag: "W/\"nsg\""})
	p := mustDiff(t, desired, observed, scopeOf(false, svcA))
	want := []string{
		"put pip/kubernetes-" + svcA.prefix() + " [create:pip/kubernetes-" + svcA.prefix() + "]",
		"put lb/kubernetes [create:lb/kubernetes create:lb/kubernetes/frontend/" + svcA.prefix() +
			" create:lb/kubernetes/pool/kubernetes create:lb/kubernetes/probe/" + svcA.prefix() + "-TCP-443 create:lb/kubernetes/probe/" + svcA.prefix() +
			"-TCP-80 create:lb/kubernetes/rule/" + svcA.prefix() + "-TCP-443 create:lb/kubernetes/rule/" + svcA.prefix() + "-TCP-80]",
		"put nsg/aks-agentpool-nsg [create:nsg/aks-agentpool-nsg/rule/k8s-azure-lb_allow_IPv4_80_443]",
	}
	if got := stepLines(p); !reflect.DeepEqual(got, want) {
		t.Fatalf("steps:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	rule := p.Steps[2].Changes[0].After
	if rule.Properties["priority"] != 500 {
		t.Errorf("priority = %v, want 500", rule.Properties["priority"])
	}
	if d := rule.Properties["destinationAddressPrefix"]; !plan.IsUnknown(d) {
		t.Errorf("destination = %v, want known after apply", d)
	}
	if p.Steps[1].IfMatch != "" || p.Steps[2].IfMatch != "W/\"nsg\"" {
		t.Errorf("IfMatch = %q, %q", p.Steps[1].IfMatch, p.Steps[2].IfMatch)
	}
}

func TestUnownedChildrenCarriedVerbatim(t *testing.T) {
	observed := observe(world(svcA))
	lb := lbID(false)
	userFE := &plan.Resource{ID: plan.ChildID(lb, plan.KindFrontend, "team-x-fe"), Etag: "W/\"u\"",
		Properties: map[string]any{"publicIPAddress": map[string]any{"id": "/subscriptions/sub/resourceGroups/rg/providers/Microsoft.Network/publicIPAddresses/team-x"}, "custom": []any{1.0, "x"}}}
	userRule := &plan.Resource{ID: plan.ChildID(lb, plan.KindRule, "team-x-rule"), Properties: map[string]any{
		"protocol": "Tcp", "frontendPort": 22.0, "frontendIPConfiguration": plan.Ref(userFE.ID)}}
	ssh := &plan.Resource{ID: plan.ChildID(nsgID(), plan.KindSecurityRule, "allow-ssh"), Properties: map[string]any{
		"priority": 100.0, "access": "Allow", "direction": "Inbound", "destinationAddressPrefix": "10.0.0.4"}}
	lookalike := &plan.Resource{ID: plan.ChildID(nsgID(), plan.KindSecurityRule, "k8s-azure-lb_allow_IPv4_custom"), Properties: map[string]any{
		"priority": 4097.0, "access": "Allow", "direction": "Inbound", "destinationAddressPrefix": "20.0.0.1"}}
	for _, r := range []*plan.Resource{userFE, userRule, ssh, lookalike} {
		observed.Put(r)
	}
	desired := world(svcA, svcB)
	p := mustDiff(t, desired, observed, scopeOf(false, svcA, svcB))
	for _, c := range p.Changes {
		for _, r := range []*plan.Resource{userFE, userRule, ssh, lookalike} {
			if c.Key() == r.Key() {
				t.Errorf("plan changes unowned %s", r.ID.Address())
			}
		}
	}
	var sawLB, sawNSG bool
	for _, st := range p.Steps {
		switch st.Target.Key() {
		case lb.Key():
			sawLB = true
			requireChild(t, st, userFE)
			requireChild(t, st, userRule)
		case nsgID().Key():
			sawNSG = true
			requireChild(t, st, ssh)
			requireChild(t, st, lookalike)
		}
	}
	if !sawLB || !sawNSG {
		t.Fatalf("expected LB and NSG writes, got:\n%s", strings.Join(stepLines(p), "\n"))
	}
}

func requireChild(t *testing.T, st *plan.Step, want *plan.Resource) {
	t.Helper()
	for _, c := range st.Children {
		if c.Key() == want.Key() {
			if !reflect.DeepEqual(c, want) {
				t.Errorf("%s carried as %+v, want verbatim %+v", want.ID.Address(), c, want)
			}
			return
		}
	}
	t.Errorf("step %s dropped unowned child %s", st.Target.Address(), want.ID.Address())
}

func TestOutOfScopeServicesLeftAloneUnlessPrune(t *testing.T) {
	observed := observe(world(svcA, svcB))
	desired := world(svcA)
	p := mustDiff(t, desired, observed, scopeOf(false, svcA))
	if len(p.Changes) != 0 {
		t.Fatalf("out-of-scope web/b was changed:\n%s", strings.Join(stepLines(p), "\n"))
	}
	p = mustDiff(t, desired, observed, scopeOf(true, svcA))
	deleted := map[string]bool{}
	for _, c := range p.Changes {
		if c.IsDelete() {
			deleted[c.ID().Address()] = true
		}
	}
	for _, addr := range []string{"pip/kubernetes-" + svcB.prefix(), "lb/kubernetes/frontend/" + svcB.prefix(), "lb/kubernetes/rule/" + svcB.prefix() + "-TCP-80"} {
		if !deleted[addr] {
			t.Errorf("prune did not delete %s; plan:\n%s", addr, strings.Join(stepLines(p), "\n"))
		}
	}
	nsgChanges := 0
	for _, c := range p.Changes {
		if c.ID().Kind == plan.KindSecurityRule {
			nsgChanges++
			if c.After.Properties["destinationAddressPrefix"] != "20.0.0.2" {
				t.Errorf("pruned Service's address kept in %s: %v", c.ID().Address(), c.After.Properties)
			}
		}
	}
	if nsgChanges != 1 {
		t.Errorf("want the shared NSG rule updated once, got %d changes", nsgChanges)
	}
}

func TestRemovedInScopeServiceIsDeletedAndSharedNSGRuleKept(t *testing.T) {
	observed := observe(world(svcA, svcB))
	p := mustDiff(t, world(svcA), observed, scopeOf(false, svcA, svcB))
	got := stepLines(p)
	want := []string{
		"put nsg/aks-agentpool-nsg [update:nsg/aks-agentpool-nsg/rule/k8s-azure-lb_allow_IPv4_80_443]",
		// Inside one write, a rule goes before the probe and frontend it used.
		"put lb/kubernetes [delete:lb/kubernetes/rule/" + svcB.prefix() + "-TCP-443 delete:lb/kubernetes/probe/" + svcB.prefix() + "-TCP-443" +
			" delete:lb/kubernetes/rule/" + svcB.prefix() + "-TCP-80 delete:lb/kubernetes/frontend/" + svcB.prefix() + " delete:lb/kubernetes/probe/" + svcB.prefix() + "-TCP-80]",
		"delete pip/kubernetes-" + svcB.prefix() + " [delete:pip/kubernetes-" + svcB.prefix() + "]",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("steps:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	rule := p.Steps[0].Changes[0].After
	if d := rule.Properties["destinationAddressPrefix"]; d != "20.0.0.2" {
		t.Errorf("shared rule destinations = %v, want only web/a's 20.0.0.2", d)
	}
	pipDel := p.Steps[2].Changes[0]
	if !pipDel.Disruptive || !pipDel.IsDelete() || plan.AsPublicIP(pipDel.Before).Address() != "20.0.0.3" {
		t.Errorf("PIP delete = %+v, want a disruptive delete of 20.0.0.3", pipDel)
	}
}

func TestSharedPIPKeepsOutOfScopeServiceInTag(t *testing.T) {
	observed := observe(world(svcA))
	pip, _ := observed.Get(plan.NewID(tSub, tRG, plan.KindPublicIP, tCluster+"-"+svcA.prefix()).Key())
	pip.Tags[plan.TagService] = "other/x,web/a"
	p := mustDiff(t, world(), observed, scopeOf(false, svcA))
	for _, c := range p.Changes {
		if c.Key() != pip.Key() {
			continue
		}
		if !c.Has(plan.ActionUpdate) || c.After.Tags[plan.TagService] != "other/x" {
			t.Fatalf("shared PIP change = %v tags %v, want update to other/x", c.Actions, c.After.Tags)
		}
		return
	}
	t.Fatalf("no change of the shared PIP; plan:\n%s", strings.Join(stepLines(p), "\n"))
}

func TestBlockedByOwnership(t *testing.T) {
	observed := observe(world())
	userPIP := &plan.Resource{ID: plan.NewID(tSub, tRG, plan.KindPublicIP, tCluster+"-"+svcA.prefix()), Location: "eastus",
		Properties: map[string]any{"ipAddress": "52.1.1.1"}}
	otherPIP := &plan.Resource{ID: plan.NewID(tSub, tRG, plan.KindPublicIP, "kubernetes-"+svcB.prefix()), Location: "eastus",
		Tags: map[string]string{plan.TagService: "other/y"}, Properties: map[string]any{"ipAddress": "52.1.1.2"}}
	userRule := &plan.Resource{ID: plan.ChildID(nsgID(), plan.KindSecurityRule, "k8s-azure-lb_allow_IPv4_80_443"),
		Properties: map[string]any{"priority": 200.0, "access": "Allow", "direction": "Inbound"}}
	for _, r := range []*plan.Resource{userPIP, otherPIP, userRule} {
		observed.Put(r)
	}
	p := mustDiff(t, world(svcA, svcB), observed, scopeOf(false, svcA, svcB))
	var addrs []string
	for _, b := range p.Blocked {
		addrs = append(addrs, b.Address)
	}
	want := []string{
		"lb/kubernetes/frontend/" + svcA.prefix(), "lb/kubernetes/frontend/" + svcB.prefix(),
		"lb/kubernetes/rule/" + svcA.prefix() + "-TCP-443", "lb/kubernetes/rule/" + svcA.prefix() + "-TCP-80",
		"lb/kubernetes/rule/" + svcB.prefix() + "-TCP-443", "lb/kubernetes/rule/" + svcB.prefix() + "-TCP-80",
		"nsg/aks-agentpool-nsg/rule/k8s-azure-lb_allow_IPv4_80_443", userPIP.ID.Address(), otherPIP.ID.Address()}
	if !reflect.DeepEqual(addrs, want) {
		t.Fatalf("blocked = %v, want %v (%+v)", addrs, want, p.Blocked)
	}
	for _, c := range p.Changes {
		if c.Key() == userPIP.Key() || c.Key() == otherPIP.Key() || c.Key() == userRule.Key() {
			t.Errorf("plan changes blocked %s", c.ID().Address())
		}
	}
}

func TestAdoptAddsMissingTagsOnly(t *testing.T) {
	desired := world(svcA)
	observed := observe(desired)
	pip, _ := observed.Get(plan.NewID(tSub, tRG, plan.KindPublicIP, tCluster+"-"+svcA.prefix()).Key())
	delete(pip.Tags, plan.TagClusterName)
	p := mustDiff(t, desired, observed, scopeOf(false, svcA))
	if len(p.Changes) != 1 || p.Changes[0].Actions[0] != plan.ActionAdopt {
		t.Fatalf("want one adopt, got:\n%s", strings.Join(stepLines(p), "\n"))
	}
	if p.Changes[0].After.Properties["ipAddress"] != pip.Properties["ipAddress"] {
		t.Errorf("adopt body lost the observed address")
	}
}

// An owned resource that differs from the Services is an update, and not
// drift: without a record of what azsvc wrote (plan --since), an edit in
// Azure and an edit of the manifests look the same.
func TestUpdateComparesOnlyDesiredFieldsAndClaimsNoDrift(t *testing.T) {
	desired := world(svcA)
	observed := observe(desired)
	rk := plan.ChildID(lbID(false), plan.KindRule, svcA.prefix()+"-TCP-80").Key()
	rule, _ := observed.Get(rk)
	rule.Properties["idleTimeoutInMinutes"] = 30.0
	rule.Properties["azureFilledField"] = "x"
	p := mustDiff(t, desired, observed, scopeOf(false, svcA))
	if len(p.Changes) != 1 || len(p.Drift) != 0 {
		t.Fatalf("want one update and no drift, got %d changes %d drift", len(p.Changes), len(p.Drift))
	}
	c := p.Changes[0]
	if len(c.Attributes) != 1 || strings.Join(c.Attributes[0].Path, ".") != "properties.idleTimeoutInMinutes" {
		t.Errorf("attributes = %+v", c.Attributes)
	}
	if c.After.Properties["azureFilledField"] != "x" {
		t.Errorf("update body dropped a field azsvc does not set")
	}
}

func TestUpdateDropsFieldsARMRejectsTogether(t *testing.T) {
	desired := world(svcA)
	observed := observe(desired)
	probe, _ := observed.Get(plan.ChildID(lbID(false), plan.KindProbe, svcA.prefix()+"-TCP-80").Key())
	probe.Properties["protocol"], probe.Properties["requestPath"] = "Http", "/healthz"
	fe, _ := observed.Get(plan.ChildID(lbID(false), plan.KindFrontend, svcA.prefix()).Key())
	fe.Properties["subnet"] = map[string]any{"id": tSubnet}
	delete(fe.Properties, "publicIPAddress")
	p := mustDiff(t, desired, observed, scopeOf(false, svcA))
	for _, c := range p.Changes {
		switch c.Key() {
		case probe.Key():
			if _, ok := c.After.Properties["requestPath"]; ok || !c.Disruptive {
				t.Errorf("Tcp probe body %v, disruptive %v", c.After.Properties, c.Disruptive)
			}
		case fe.Key():
			if _, ok := c.After.Properties["subnet"]; ok {
				t.Errorf("public frontend body keeps the subnet: %v", c.After.Properties)
			}
			if !c.Disruptive || !plan.MovesTraffic(c) {
				t.Errorf("frontend change %+v: want a disruptive IP change", c.Attributes)
			}
		}
	}
}

func TestUnmanagedPLSBlocksFrontendRemoval(t *testing.T) {
	observed := observe(world(svcA, svcB))
	fe := plan.ChildID(lbID(false), plan.KindFrontend, svcB.prefix())
	observed.Put(&plan.Resource{ID: plan.NewID(tSub, tRG, plan.KindPrivateLinkService, "team-pls"), Tags: map[string]string{"owner": "team"},
		Properties: map[string]any{"loadBalancerFrontendIpConfigurations": []any{plan.Ref(fe)}}})
	p := mustDiff(t, world(svcA), observed, scopeOf(false, svcA, svcB))
	var blocked []string
	for _, b := range p.Blocked {
		blocked = append(blocked, b.Address+": "+b.Code.String()+" "+b.Other)
	}
	want := []string{
		"lb/kubernetes/frontend/" + svcB.prefix() + ": delete_in_use pls/team-pls",
		"pip/kubernetes-" + svcB.prefix() + ": delete_in_use lb/kubernetes/frontend/" + svcB.prefix(),
	}
	if !reflect.DeepEqual(blocked, want) {
		t.Fatalf("blocked:\n%s\nwant:\n%s", strings.Join(blocked, "\n"), strings.Join(want, "\n"))
	}
	for _, c := range p.Changes {
		if c.ID().Kind == plan.KindRule && !c.IsDelete() {
			t.Errorf("rule %s not deleted", c.ID().Address())
		}
		if c.Key() == fe.Key() || c.ID().Kind == plan.KindPublicIP || c.ID().Kind == plan.KindPrivateLinkService {
			t.Errorf("blocked resource changed: %v %s", c.Actions, c.ID().Address())
		}
	}
}

func TestLastFrontendRemovalDeletesLB(t *testing.T) {
	observed := observe(world(svcA, svcI))
	p := mustDiff(t, world(svcA), observed, scopeOf(false, svcA, svcI))
	lines := stepLines(p)
	if len(lines) != 1 || !strings.HasPrefix(lines[0], "delete lb/kubernetes-internal [") {
		t.Fatalf("want one LB delete, got:\n%s", strings.Join(lines, "\n"))
	}
	if p.Steps[0].IfMatch != `W/"kubernetes-internal"` {
		t.Errorf("IfMatch = %q", p.Steps[0].IfMatch)
	}
}

// TestPrunedResourcesServeTheirService: --prune deletes the resources of a
// Service outside the input under that Service, named by its public IP's
// tag; an internal one, which has no tagged resource, is known only by
// its name prefix and its deletes serve no Service.
func TestPrunedResourcesServeTheirService(t *testing.T) {
	internal := svc{name: "web/internal", uid: uid(9), internal: true, ports: []int{8080}}
	observed := observe(world(svcA, svcB, internal))
	p := mustDiff(t, world(svcA), observed, scopeOf(true, svcA))
	ofB := 0
	for _, c := range p.Changes {
		if !c.IsDelete() {
			continue
		}
		if slices.Equal(c.Services, []string{svcB.name}) {
			ofB++
		}
		want := []string{svcB.name}
		if strings.Contains(c.ID().Name(), internal.prefix()) {
			want = nil
		}
		if c.ID().Kind == plan.KindLoadBalancer || c.ID().Kind == plan.KindBackendPool {
			continue // the emptied internal LB serves whoever its children did
		}
		if !reflect.DeepEqual(c.Services, want) {
			t.Errorf("%s serves %q, want %q", c.ID().Address(), c.Services, want)
		}
	}
	if ofB < 5 { // public IP, frontend, two rules, two probes
		t.Errorf("%d deletes serve %s, want its public IP, frontend, rules and probes", ofB, svcB.name)
	}
}
