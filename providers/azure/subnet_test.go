package azure_test

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/plantest"
	"github.com/azsvc/azsvc/providers/azure"
	"github.com/azsvc/azsvc/providers/azure/emulator"
)

// TestSubnetPolicyRoundTrip reads the cluster VNet's subnets, plans the PLS
// subnet policy write (ccm-semantics §8 "Subnet policy"), writes it and reads
// again: only privateLinkServiceNetworkPolicies changes, the NSG association
// and prefix stay, a second plan is empty, and a stale etag is refused.
func TestSubnetPolicyRoundTrip(t *testing.T) {
	e := newEnv(t, emulator.Options{InstantOperations: true})
	scope := plan.ReadScope{VirtualNetworks: []plan.VNetRef{{ResourceGroup: rg, Name: "aks-vnet"}, {ResourceGroup: rg, Name: "AKS-VNET"}}}
	e.emu.Counters().Reset()
	before := readScope(t, e, scope)
	if got := e.emu.Counters().Reads(""); got != 1 {
		t.Errorf("%d reads, want one subnet list for the (repeated) VNet", got)
	}
	id, err := plan.ParseID(subnetID("aks-vnet", "aks-subnet"))
	if err != nil {
		t.Fatal(err)
	}
	got, ok := before.Get(id.Key())
	if !ok {
		t.Fatalf("subnet not read; state has %d resources", before.Len())
	}
	if got.Etag == "" || got.Properties["privateLinkServiceNetworkPolicies"] != "Enabled" ||
		got.Properties["addressPrefix"] != "10.224.0.0/16" || got.Properties["networkSecurityGroup"] == nil {
		t.Fatalf("read subnet = %+v (etag %q)", got.Properties, got.Etag)
	}
	if _, ok := got.Properties["provisioningState"]; ok {
		t.Error("read subnet keeps provisioningState")
	}

	desired := plan.NewState()
	desired.Put(&plan.Resource{ID: id, Properties: map[string]any{"privateLinkServiceNetworkPolicies": "Disabled"},
		Services: []string{"ns/svc"}, Owned: true})
	p, _, err := plantest.Plan(desired, before, plan.Scope{Cluster: "kubernetes"})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Steps) != 1 || p.Steps[0].Target.Kind != plan.KindSubnet || p.Steps[0].IfMatch != got.Etag {
		t.Fatalf("plan: %d steps %+v, want one subnet write with If-Match %q", len(p.Steps), p.Steps, got.Etag)
	}
	res, kids, err := e.p.Write(context.Background(), p.Steps[0])
	if err != nil {
		t.Fatalf("write: %v", err)
	}
	if len(kids) != 0 || res.Properties["privateLinkServiceNetworkPolicies"] != "Disabled" {
		t.Errorf("write result = %+v, %d children", res.Properties, len(kids))
	}

	after := readScope(t, e, scope)
	reread, _ := after.Get(id.Key())
	want := cloneProps(got.Properties)
	want["privateLinkServiceNetworkPolicies"] = "Disabled"
	if d := cmp.Diff(want, reread.Properties); d != "" {
		t.Errorf("subnet after write (-want +got):\n%s", d)
	}
	if d := cmp.Diff(res, reread); d != "" {
		t.Errorf("write result differs from read (-write +read):\n%s", d)
	}
	if p2, _, err := plantest.Plan(desired, after, plan.Scope{Cluster: "kubernetes"}); err != nil || len(p2.Steps) != 0 {
		t.Errorf("second plan: %v, %d steps, want none", err, len(p2.Steps))
	}

	_, _, err = e.p.Write(context.Background(), p.Steps[0])
	var ae *azure.Error
	if !errors.As(err, &ae) || ae.StatusCode() != 412 {
		t.Errorf("rewrite with the stale etag: %v, want 412 PreconditionFailed", err)
	}
}

func TestReadMissingVNetHasNoSubnets(t *testing.T) {
	e := newEnv(t, emulator.Options{})
	st := readScope(t, e, plan.ReadScope{VirtualNetworks: []plan.VNetRef{
		{ResourceGroup: rg, Name: "no-such-vnet"}, {ResourceGroup: "no-such-group", Name: "aks-vnet"}}})
	if st.Len() != 0 {
		t.Errorf("read %d resources, want none", st.Len())
	}
}

func readScope(tb testing.TB, e *env, scope plan.ReadScope) *plan.State {
	tb.Helper()
	st, err := e.p.Read(context.Background(), scope)
	if err != nil {
		tb.Fatal(err)
	}
	return st
}

func cloneProps(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}
