package engine

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/conditions"
	"github.com/azsvc/azsvc/providers/azure/emulator"
	"github.com/azsvc/azsvc/render/statusview"
)

// TestStatusExamplesGolden is issue 23's status of public-basic and pls:
// before apply nothing is in Azure and every condition is False; once
// applied, every condition is True and the report shows what Azure holds
// (examples/<scenario>/status.golden.*; regenerate with -update).
func TestStatusExamplesGolden(t *testing.T) {
	for _, name := range []string{"public-basic", "pls"} {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join(examples, name)
			in := loadExample(t, dir)
			tg := newExampleTarget(t, in, emulator.Options{InstantOperations: true})
			before := mustStatus(t, in, tg)
			if before.Ready() {
				t.Fatal("status is ready before anything was applied")
			}
			for _, s := range before.Services {
				if s.InAzure {
					t.Errorf("%s is in Azure before apply", s.Name)
				}
				requireCondition(t, before, s.Name, conditions.LoadBalancerReady, conditions.False, conditions.NotCreated)
				requireCondition(t, before, s.Name, conditions.InSync, conditions.False, conditions.ChangesPending)
			}
			if name == "public-basic" {
				statusGolden(t, statusInput(t, in, tg, dir), filepath.Join(dir, "status-empty.golden.txt"), false, "")
			}
			applyPlan(t, in, tg)
			in2 := statusInput(t, in, tg, dir)
			if !in2.Report.Ready() {
				t.Fatalf("status after apply is not ready: %+v", in2.Report)
			}
			statusGolden(t, in2, filepath.Join(dir, "status.golden.txt"), false, filepath.Join(dir, "status.golden.json"))
			statusGolden(t, in2, filepath.Join(dir, "status-wide.golden.txt"), true, "")
		})
	}
}

// TestStatusHyperShiftPending is the HyperShift layout whose private link
// service does not auto-approve the guest subscription: apply leaves the
// connection Pending, which status shows on both sides (the endpoint's
// PrivateEndpointApproved is False, the PLS lists the Pending connection)
// while a plan has nothing to do (InSync True); approved by the PLS owner,
// every condition is True.
func TestStatusHyperShiftPending(t *testing.T) {
	in := withoutAutoApproval(t, loadExample(t, hypershiftDir))
	tg := newExampleTarget(t, in, emulator.Options{InstantOperations: true})
	applyPlan(t, in, tg)
	view := statusInput(t, in, tg, hypershiftDir)
	r := view.Report
	ep := plan.EndpointOwner("clusters-foo/private-router")
	requireCondition(t, r, ep, conditions.PrivateEndpointApproved, conditions.False, conditions.ConnectionPending)
	requireCondition(t, r, ep, conditions.InSync, conditions.True, conditions.AsExpected)
	requireCondition(t, r, ep, conditions.PrivateDNSReady, conditions.True, conditions.AsExpected)
	requireCondition(t, r, "clusters-foo/private-router", conditions.PrivateLinkServiceReady, conditions.True, conditions.AsExpected)
	if c := r.Services[0].PrivateLinkServices[0].Connections; len(c) != 1 || c[0].Status != plan.ConnectionPending {
		t.Errorf("PLS connections %+v, want one Pending", c)
	}
	statusGolden(t, view, filepath.Join(hypershiftDir, "status-pending.golden.txt"), false,
		filepath.Join(hypershiftDir, "status-pending.golden.json"))

	pls := in.Desired.OfKind(plan.KindPrivateLinkService)[0].ID
	setConnection(t, tg.Emulator, pls, endpointKey(t, in, "private-router"), plan.ConnectionApproved)
	if r := mustStatus(t, in, tg); !r.Ready() {
		t.Errorf("approved, status is not ready: %+v", r.Endpoints)
	}
}

// withoutAutoApproval is in rebuilt with no Service auto-approving any
// subscription: connections then wait for the PLS owner.
func withoutAutoApproval(t testing.TB, in *Inputs) *Inputs {
	t.Helper()
	svc := *in.Service
	svc.Services = nil
	for _, s := range in.Service.Services {
		c := *s
		c.Service = s.Service.DeepCopy()
		delete(c.Annotations, "service.beta.kubernetes.io/azure-pls-auto-approval")
		svc.Services = append(svc.Services, &c)
	}
	out := Build(&svc, in.Config, in.Scope.Prune)
	out.SubscriptionKnown = in.SubscriptionKnown
	if out.HasErrors() {
		t.Fatalf("without auto-approval: %+v", out.Diagnostics)
	}
	return out
}

// TestStatusFrontendDeletedOutOfBand: someone deletes a Service's frontend
// and the rule using it in the portal. Status says which are gone
// (LoadBalancerReady False), and InSync False counts exactly the changes
// the plan makes to put them back: status and plan never disagree.
func TestStatusFrontendDeletedOutOfBand(t *testing.T) {
	dir := filepath.Join(examples, "public-basic")
	in := loadExample(t, dir)
	tg := newExampleTarget(t, in, emulator.Options{InstantOperations: true})
	applyPlan(t, in, tg)
	fe := in.Desired.OfKind(plan.KindFrontend)[0].ID
	deleteFrontend(t, tg.Emulator, fe)

	view := statusInput(t, in, tg, dir)
	const svc = "web/storefront"
	lb := requireCondition(t, view.Report, svc, conditions.LoadBalancerReady, conditions.False, conditions.Missing)
	if len(lb.Addresses) != 3 || lb.Addresses[0] != fe.Address() || !strings.Contains(lb.Addresses[2], "/rule/") {
		t.Errorf("missing %v, want the frontend, its probe and its rule", lb.Addresses)
	}
	requireCondition(t, view.Report, svc, conditions.PublicIPReady, conditions.True, conditions.AsExpected)
	sync := requireCondition(t, view.Report, svc, conditions.InSync, conditions.False, conditions.ChangesPending)
	p := mustPlan(t, in, tg)
	if sync.Changes.Total() != len(p.Changes) || sync.Changes.Create != 3 {
		t.Errorf("InSync counts %+v; the plan has %d changes:\n%s", *sync.Changes, len(p.Changes), planLines(p))
	}
	statusGolden(t, view, filepath.Join("testdata", "status-frontend-deleted.golden.txt"), false, "")
}

// deleteFrontend removes the frontend id, and the rules that use it, from
// its load balancer with one PUT, as a user's az network lb commands do;
// and its probes, when no frontend is left: ARM allows no probe then.
func deleteFrontend(t testing.TB, emu *emulator.Emulator, id plan.ID) {
	t.Helper()
	lbID, _ := id.ParentID()
	body, ok := getBody(t, emu, lbID.String())
	if !ok {
		t.Fatalf("%s not found", lbID.Address())
	}
	var lb map[string]any
	if err := json.Unmarshal([]byte(body), &lb); err != nil {
		t.Fatal(err)
	}
	props := lb["properties"].(map[string]any)
	keep := func(field string, drop func(map[string]any) bool) {
		var out []any
		for _, c := range props[field].([]any) {
			if !drop(c.(map[string]any)) {
				out = append(out, c)
			}
		}
		props[field] = out
	}
	keep("frontendIPConfigurations", func(c map[string]any) bool { return strings.EqualFold(c["name"].(string), id.Name()) })
	keep("loadBalancingRules", func(c map[string]any) bool {
		ref := c["properties"].(map[string]any)["frontendIPConfiguration"].(map[string]any)["id"].(string)
		return plan.KeyOf(ref) == id.Key()
	})
	if len(props["frontendIPConfigurations"].([]any)) == 0 {
		props["probes"] = []any{}
	}
	out, err := json.Marshal(lb)
	if err != nil {
		t.Fatal(err)
	}
	putBody(t, emu, lbID.String(), string(out))
}

// TestStatusPoolMembers: over what CCM built for examples/live-cluster
// (nodeIP pools), status counts each IP-based pool's members as Azure
// holds them (examples/live-cluster/status-wide.golden.txt lists them).
func TestStatusPoolMembers(t *testing.T) {
	tg := liveClusterTarget(t)
	in, files := liveClusterInputs(t, liveCluster.services, liveCluster.nodes, liveCluster.slices)
	seedCCMState(t, tg)
	r, p, err := Status(t.Context(), in, tg)
	if err != nil || !r.Ready() {
		t.Fatalf("status over CCM's state: ready %v, %v", r != nil && r.Ready(), err)
	}
	want := map[string]int{"retail/orders-db": 2, "retail/payments": 2, "retail/storefront": 1}
	for _, s := range r.Services {
		pools := s.LoadBalancers[0].Pools
		if len(pools) != 1 || pools[0].Members == nil || *pools[0].Members != want[s.Name] || len(pools[0].MemberAddresses) != want[s.Name] {
			t.Errorf("%s: pools %+v, want one of %d members", s.Name, pools, want[s.Name])
		}
	}
	v := View(p, in, tg, files)
	statusGolden(t, statusview.Input{Report: r, Header: v.Header, Sources: v.Sources}, "examples/live-cluster/status-wide.golden.txt", true, "")
}
