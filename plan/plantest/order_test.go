package plantest

import (
	"reflect"
	"strings"
	"testing"

	"github.com/azsvc/azsvc/plan"
)

// stepIndex returns the index of the first step whose line contains all of
// subs, failing the test when there is none.
func stepIndex(t *testing.T, lines []string, subs ...string) int {
	t.Helper()
	for i, l := range lines {
		ok := true
		for _, s := range subs {
			ok = ok && strings.Contains(l, s)
		}
		if ok {
			return i
		}
	}
	t.Fatalf("no step with %q in:\n%s", subs, strings.Join(lines, "\n"))
	return -1
}

func TestOrderRemoveServiceWithPLS(t *testing.T) {
	withPLS := svcA
	withPLS.pls = true
	observed := observe(world(withPLS, svcB))
	pls, _ := observed.Get(plan.NewID(tSub, tRG, plan.KindPrivateLinkService, "pls-"+svcA.prefix()).Key())
	pls.Properties["privateEndpointConnections"] = []any{map[string]any{"name": "c1"}, map[string]any{"name": "c2"}}
	p := mustDiff(t, world(svcB), observed, scopeOf(false, svcA, svcB))
	lines := stepLines(p)
	plsDel := stepIndex(t, lines, "delete pls/pls-"+svcA.prefix())
	lbPut := stepIndex(t, lines, "put lb/kubernetes", "delete:lb/kubernetes/frontend/"+svcA.prefix())
	pipDel := stepIndex(t, lines, "delete pip/kubernetes-"+svcA.prefix())
	if !(plsDel < lbPut && lbPut < pipDel) {
		t.Fatalf("want PLS delete < LB write < PIP delete, got:\n%s", strings.Join(lines, "\n"))
	}
	c := p.Steps[plsDel].Changes[0]
	if !c.Disruptive || len(plan.AsPrivateLinkService(c.Before).Connections()) != 2 {
		t.Errorf("PLS change %+v: want a disruptive delete of a PLS with 2 connections", c)
	}
	if got := len(lines); got != 4 { // NSG, PLS, LB, PIP
		t.Errorf("want 4 writes, got:\n%s", strings.Join(lines, "\n"))
	}
}

func TestOrderPublicToInternal(t *testing.T) {
	observed := observe(world(svcA, svcB))
	moved := svcA
	moved.internal = true
	p := mustDiff(t, world(moved, svcB), observed, scopeOf(false, svcA, svcB))
	lines := stepLines(p)
	newLB := stepIndex(t, lines, "put lb/kubernetes-internal", "create:lb/kubernetes-internal/frontend/"+svcA.prefix())
	nsg := stepIndex(t, lines, "put nsg/aks-agentpool-nsg")
	oldFE := stepIndex(t, lines, "put lb/kubernetes ", "delete:lb/kubernetes/frontend/"+svcA.prefix())
	pipDel := stepIndex(t, lines, "delete pip/kubernetes-"+svcA.prefix())
	if !(newLB < nsg && nsg < oldFE && oldFE < pipDel) {
		t.Fatalf("want new frontend < NSG < old frontend removal < PIP delete, got:\n%s", strings.Join(lines, "\n"))
	}
	if len(lines) != 4 {
		t.Errorf("want one write per resource (4), got:\n%s", strings.Join(lines, "\n"))
	}
}

func TestOrderReplacePIPForcesSecondLBWrite(t *testing.T) {
	observed := observe(world(svcA, svcB))
	zonal := svcA
	zonal.zones = []string{"1", "2", "3"}
	p := mustDiff(t, world(zonal, svcB), observed, scopeOf(false, svcA, svcB))
	lines := stepLines(p)
	pip := "pip/kubernetes-" + svcA.prefix()
	drop := stepIndex(t, lines, "put lb/kubernetes ", "delete+create:lb/kubernetes/frontend/"+svcA.prefix())
	del := stepIndex(t, lines, "delete "+pip)
	create := stepIndex(t, lines, "put "+pip)
	if !(drop < del && del < create) {
		t.Fatalf("want LB drops the frontend < PIP delete < PIP create, got:\n%s", strings.Join(lines, "\n"))
	}
	readd := -1
	for i := create + 1; i < len(lines); i++ {
		if strings.HasPrefix(lines[i], "put lb/kubernetes ") {
			readd = i
		}
	}
	if readd < 0 {
		t.Fatalf("frontend never re-added after the new PIP:\n%s", strings.Join(lines, "\n"))
	}
	for _, k := range p.Steps[drop].Children {
		if k.Name() == svcA.prefix() || strings.HasPrefix(k.Name(), svcA.prefix()+"-TCP") && k.Kind() == plan.KindRule {
			t.Errorf("first LB write still carries %s", k.ID.Address())
		}
	}
	var pipChange *plan.Change
	for _, c := range p.Changes {
		if c.ID().Address() == pip {
			pipChange = c
		}
	}
	if pipChange == nil || !pipChange.IsReplace() || !pipChange.Attributes[0].ForcesReplacement {
		t.Fatalf("PIP change = %+v", pipChange)
	}
	if !pipChange.Disruptive {
		t.Errorf("PIP replace not disruptive")
	}
	nsg := stepIndex(t, lines, "put nsg/aks-agentpool-nsg")
	if nsg < create {
		t.Errorf("NSG update ran before the new PIP exists:\n%s", strings.Join(lines, "\n"))
	}
}

// TestOrderReplacePIPOfServiceAloneOnLB: when the replaced PIP's frontend
// is the LB's only one, the intermediate LB write has no frontend, and ARM
// refuses probes and rules there (arm-rules §2.2,
// LoadBalancerWithoutFrontendIPCantHaveChildResources): that write drops
// them, keeps the backend pool, and the final LB write carries them again.
func TestOrderReplacePIPOfServiceAloneOnLB(t *testing.T) {
	observed := observe(world(svcA))
	zonal := svcA
	zonal.zones = []string{"1", "2", "3"}
	want := world(zonal)
	p := mustDiff(t, want, observed, scopeOf(false, svcA))
	lines := stepLines(p)
	drop := stepIndex(t, lines, "put lb/kubernetes ", "delete+create:lb/kubernetes/frontend/"+svcA.prefix())
	create := stepIndex(t, lines, "put pip/kubernetes-"+svcA.prefix())
	last := -1
	for i, st := range p.Steps {
		if st.Op == plan.OpPut && st.Target.Kind == plan.KindLoadBalancer {
			last = i
		}
	}
	if !(drop < create && create < last) {
		t.Fatalf("want frontendless LB write < PIP create < final LB write, got:\n%s", strings.Join(lines, "\n"))
	}
	kinds := func(st *plan.Step) map[plan.Kind]int {
		n := map[plan.Kind]int{}
		for _, k := range st.Children {
			n[k.Kind()]++
		}
		return n
	}
	if got := kinds(p.Steps[drop]); got[plan.KindFrontend]+got[plan.KindProbe]+got[plan.KindRule] != 0 || got[plan.KindBackendPool] == 0 {
		t.Errorf("frontendless LB write carries %v, want only backend pools", got)
	}
	wantKids := map[plan.Kind]int{}
	for _, r := range want.Resources() {
		if pid, ok := r.ID.ParentID(); ok && pid.Key() == lbID(false).Key() {
			wantKids[r.Kind()]++
		}
	}
	if got := kinds(p.Steps[last]); !reflect.DeepEqual(got, wantKids) {
		t.Errorf("final LB write carries %v, want every desired child %v", got, wantKids)
	}
}

func TestOrderNewInternalFrontendThenNSG(t *testing.T) {
	ranged := svcI
	observed := observe(world(svcA))
	desired := world(svcA, ranged)
	// An internal Service with source ranges gets an allow rule whose
	// destination is its frontend's dynamic private IP.
	fe := plan.ChildID(lbID(true), plan.KindFrontend, ranged.prefix())
	rk := plan.ChildID(nsgID(), plan.KindSecurityRule, "k8s-azure-lb_allow_IPv4_ranged")
	desired.Put(&plan.Resource{ID: rk, Services: []string{ranged.name}, Properties: map[string]any{
		"protocol": "Tcp", "access": "Allow", "direction": "Inbound", "sourceAddressPrefix": "10.1.0.0/16",
		"sourcePortRange": "*", "destinationPortRanges": []any{"8080"}, "destinationAddressPrefix": plan.AfterApply(fe.Key(), "privateIPAddress")}})
	p := mustDiff(t, desired, observed, scopeOf(false, svcA, ranged))
	lines := stepLines(p)
	lb := stepIndex(t, lines, "put lb/kubernetes-internal")
	nsg := stepIndex(t, lines, "put nsg/aks-agentpool-nsg")
	if lb > nsg {
		t.Fatalf("NSG write before the frontend that gives its IP:\n%s", strings.Join(lines, "\n"))
	}
	for _, c := range p.Changes {
		if c.Key() == rk.Key() {
			if !reflect.DeepEqual(c.DependsOn, []plan.Key{fe.Key()}) {
				t.Errorf("DependsOn = %v, want the frontend", c.DependsOn)
			}
			if !plan.IsUnknown(c.After.Properties["destinationAddressPrefix"]) {
				t.Errorf("destination should be known after apply, got %v", c.After.Properties["destinationAddressPrefix"])
			}
		}
	}
}

func TestOrderIsDeterministic(t *testing.T) {
	observed := observe(world(svcA, svcB))
	moved := svcA
	moved.internal = true
	first := stepLines(mustDiff(t, world(moved, svcI), observed, scopeOf(false, svcA, svcB, svcI)))
	for i := 0; i < 20; i++ {
		got := stepLines(mustDiff(t, world(moved, svcI), observed, scopeOf(false, svcA, svcB, svcI)))
		if !reflect.DeepEqual(got, first) {
			t.Fatalf("run %d differs:\n%s\nvs\n%s", i, strings.Join(got, "\n"), strings.Join(first, "\n"))
		}
	}
}

func TestOrderUpdateDroppingReferenceBeforeDelete(t *testing.T) {
	desired := world(svcA)
	observed := observe(desired)
	old := &plan.Resource{ID: plan.NewID(tSub, tRG, plan.KindPublicIP, "kubernetes-"+svcA.prefix()+"-old"), Location: "eastus",
		Tags: map[string]string{plan.TagService: svcA.name}, Properties: map[string]any{"ipAddress": "20.9.9.9"}}
	observed.Put(old)
	fe, _ := observed.Get(plan.ChildID(lbID(false), plan.KindFrontend, svcA.prefix()).Key())
	fe.Properties["publicIPAddress"] = plan.Ref(old.ID)
	p := mustDiff(t, desired, observed, scopeOf(false, svcA))
	lines := stepLines(p)
	lb := stepIndex(t, lines, "put lb/kubernetes ", "update:lb/kubernetes/frontend/"+svcA.prefix())
	del := stepIndex(t, lines, "delete pip/kubernetes-"+svcA.prefix()+"-old")
	if lb > del {
		t.Fatalf("old PIP deleted before the frontend let go of it:\n%s", strings.Join(lines, "\n"))
	}
	for _, c := range p.Changes {
		if c.Key() == fe.Key() && (!c.Disruptive || !plan.MovesTraffic(c) || c.Attributes[0].Before != old.ID.String()) {
			t.Errorf("frontend change = %+v, want a disruptive move off %s", c.Attributes, old.ID.Address())
		}
	}
}
