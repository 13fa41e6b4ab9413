package engine

import (
	"context"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/azsvc/azsvc/apply"
	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/providers/azure/emulator"
	"github.com/azsvc/azsvc/render/planview"
)

// Helpers of the private endpoint tests: the HyperShift example, its guest
// subscription, and what ARM holds for an endpoint.

const (
	guestSub   = "5c7d9e1f-2a3b-4c5d-8e9f-0a1b2c3d4e5f" // examples/hypershift-private-link/emulator-seed.json
	guestRG    = "rg-guest-foo"
	guestVNet  = "/subscriptions/" + guestSub + "/resourceGroups/" + guestRG + "/providers/Microsoft.Network/virtualNetworks/guest-vnet"
	guestPESub = guestVNet + "/subnets/guest-pe-subnet"
)

var hypershiftDir = filepath.Join(examples, "hypershift-private-link")

// loadFiles reads example files as LoadInputs does, with --prune as given.
func loadFiles(t testing.TB, prune bool, files ...string) *Inputs {
	t.Helper()
	s := exampleSettings(files...)
	s.Prune = prune
	in, err := LoadInputs(s)
	if err != nil {
		t.Fatal(err)
	}
	if in.HasErrors() {
		t.Fatalf("inputs have errors: %+v", in.Diagnostics)
	}
	return in
}

// applyPlan plans in against tg, applies, and returns the plan and result.
func applyPlan(t testing.TB, in *Inputs, tg *Target) (*plan.Plan, *apply.Result) {
	t.Helper()
	retarget(tg, in)
	p := mustPlan(t, in, tg)
	res, err := apply.Run(context.Background(), p, tg.Provider, apply.Options{})
	if err != nil {
		t.Fatalf("apply: %v\nplan:\n%s", err, planLines(p))
	}
	return p, res
}

// stepList is a plan's writes as "op address", in order.
func stepList(p *plan.Plan) []string {
	out := make([]string, len(p.Steps))
	for i, st := range p.Steps {
		out[i] = string(st.Op) + " " + st.Target.Address()
	}
	return out
}

// observedEndpoint reads the endpoint, and its owner's A records of the
// desired state, back from ARM.
func observedEndpoint(t testing.TB, tg *Target, in *Inputs, pe plan.Key) (*plan.Resource, []*plan.Resource) {
	t.Helper()
	st := mustRead(t, tg)
	got, ok := st.Get(pe)
	if !ok {
		t.Fatalf("private endpoint %s not found", pe.Address())
	}
	owner := got.Tags[plan.TagOwnerService]
	var records []*plan.Resource
	for _, r := range in.Desired.OfKind(plan.KindARecord) {
		if !slices.Contains(r.Services, owner) {
			continue
		}
		rec, ok := st.Get(r.Key())
		if !ok {
			t.Fatalf("record %s not found", r.ID.Address())
		}
		records = append(records, rec)
	}
	return got, records
}

// requireRecordsHold fails unless every record holds exactly the
// endpoint's address.
func requireRecordsHold(t testing.TB, pe *plan.Resource, records []*plan.Resource) string {
	t.Helper()
	ip := plan.AsPrivateEndpoint(pe).PrivateIP()
	if ip == "" {
		t.Fatalf("%s has no private IP", pe.ID.Address())
	}
	if len(records) == 0 {
		t.Fatalf("no records for %s", pe.ID.Address())
	}
	for _, r := range records {
		if got := plan.AsARecord(r).Addresses(); len(got) != 1 || got[0] != ip {
			t.Fatalf("%s holds %v, want the endpoint's %s", r.ID.Address(), got, ip)
		}
	}
	return ip
}

// endpointKey is the key of the Azure private endpoint of a PrivateEndpoint
// object of in.
func endpointKey(t testing.TB, in *Inputs, name string) plan.Key {
	t.Helper()
	for _, ep := range in.Service.Endpoints {
		if ep.Name == name {
			id, _ := ep.ID()
			return id.Key()
		}
	}
	t.Fatalf("no PrivateEndpoint %s in the input", name)
	return ""
}

// setConnection writes a connection state on the PLS side, as the PLS
// owner would in the portal (reject) or by deleting the connection
// (disconnect).
func setConnection(t testing.TB, emu *emulator.Emulator, pls plan.ID, pe plan.Key, status string) {
	t.Helper()
	body, ok := getBody(t, emu, pls.String())
	if !ok {
		t.Fatalf("%s not found", pls.Address())
	}
	i := strings.Index(strings.ToLower(body), strings.ToLower(string(pe)))
	if i < 0 {
		t.Fatalf("%s has no connection from %s: %s", pls.Address(), pe.Address(), body)
	}
	j := strings.LastIndex(body[:i], `"name":"`)
	name := body[j+len(`"name":"`):]
	name = name[:strings.IndexByte(name, '"')]
	conn := pls.String() + "/privateEndpointConnections/" + name
	if status == plan.ConnectionDisconnected {
		if rec := serveARM(emu, http.MethodDelete, conn, ""); rec.Code >= 300 {
			t.Fatalf("DELETE %s: %d %s", conn, rec.Code, rec.Body.String())
		}
		return
	}
	putBody(t, emu, conn, `{"properties": {"privateLinkServiceConnectionState": {"status": "`+status+`", "description": "by the test"}}}`)
}

// withApprove returns in rebuilt with every endpoint's spec.approve set.
func withApprove(in *Inputs, approve bool) *Inputs {
	svc := *in.Service
	svc.Endpoints = nil
	for _, ep := range in.Service.Endpoints {
		c := *ep
		c.Spec.Approve = approve
		svc.Endpoints = append(svc.Endpoints, &c)
	}
	out := Build(&svc, in.Config, in.Scope.Prune)
	out.SubscriptionKnown = in.SubscriptionKnown
	return out
}

// exampleView is View with the sources named from the repository root, as
// the example golden plans name them.
func exampleView(p *plan.Plan, in *Inputs, tg *Target, dir string) planview.Input {
	view := View(p, in, tg, []string{"examples/" + filepath.Base(dir)})
	for k, v := range view.Sources {
		view.Sources[k] = strings.Replace(filepath.ToSlash(v), filepath.ToSlash(examples), "examples", 1)
	}
	return view
}
