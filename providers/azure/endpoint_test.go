package azure_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/providers/azure/emulator"
)

const guest = "00000000-0000-0000-0000-0000000000bb"

// seedGuest adds a guest VNet in a second subscription.
func seedGuest(t *testing.T, e *env) plan.ID {
	t.Helper()
	vnet := fmt.Sprintf("/subscriptions/%s/resourceGroups/guest-rg/providers/Microsoft.Network/virtualNetworks/guest", guest)
	body := fmt.Sprintf(`{"id": %q, "location": %q, "properties": {"addressSpace": {"addressPrefixes": ["10.50.0.0/16"]},
		"subnets": [{"name": "pe", "properties": {"addressPrefix": "10.50.1.0/24"}}]}}`, vnet, location)
	if err := e.emu.Seed([]byte(body)); err != nil {
		t.Fatal(err)
	}
	id, err := plan.ParseID(vnet + "/subnets/pe")
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// A private endpoint in another subscription is written and read with that
// subscription's clients; a manual connection is Pending until one PUT of
// the connection on the PLS (found by its endpoint) approves it.
func TestEndpointInAnotherSubscriptionApproved(t *testing.T) {
	e := newEnv(t, emulator.Options{})
	fe, _ := writeInternalLB(t, e)
	pls, _ := writePLS(t, e, fe)
	subnet := seedGuest(t, e)
	pe := plan.NewID(guest, "guest-rg", plan.KindPrivateEndpoint, "pe-guest")
	res, _, err := e.p.Write(context.Background(), &plan.Step{Op: plan.OpPut, Target: pe, Body: &plan.Resource{ID: pe, Location: location, Properties: map[string]any{
		"subnet": map[string]any{"id": subnet.String()},
		plan.ManualConnections: []any{map[string]any{"name": "pe-guest", "properties": map[string]any{
			"privateLinkServiceId": pls.String(), "requestMessage": "please"}}},
	}}})
	if err != nil {
		t.Fatal(err)
	}
	if s := plan.AsPrivateEndpoint(res).Status(); s != plan.ConnectionPending {
		t.Fatalf("manual connection is %q, want Pending", s)
	}
	if ip := plan.AsPrivateEndpoint(res).PrivateIP(); !strings.HasPrefix(ip, "10.50.1.") {
		t.Errorf("endpoint IP %q, want one of the guest subnet", ip)
	}

	var rs plan.ReadScope
	rs.Add(plan.KindPrivateLinkService, rg)
	rs.AddIn(guest, plan.KindPrivateEndpoint, "guest-rg")
	e.emu.Counters().Reset()
	st, err := e.p.Read(context.Background(), rs)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := st.Get(pe.Key()); !ok {
		t.Fatal("the guest endpoint was not read from its subscription")
	}
	if got := e.emu.Counters().Count(emulator.MethodGet, ""); got != 0 {
		t.Errorf("read made %d GETs, want lists only", got)
	}

	conn := plan.ChildID(pls, plan.KindPLSConnection, "pe-guest") // ARM's name is pe-guest.<guid>
	e.emu.Counters().Reset()
	got, _, err := e.p.Write(context.Background(), &plan.Step{Op: plan.OpPut, Target: conn, Body: &plan.Resource{ID: conn, Properties: map[string]any{
		"privateEndpoint":                   plan.Ref(pe),
		"privateLinkServiceConnectionState": map[string]any{"status": "Approved", "description": "Approved by azsvc"},
	}}})
	if err != nil {
		t.Fatal(err)
	}
	if c := e.emu.Counters(); c.Writes("") != 1 || c.Polls() != 0 {
		t.Errorf("approval: %d writes, %d polls; want one synchronous PUT", c.Writes(""), c.Polls())
	}
	if !strings.HasPrefix(got.Name(), "pe-guest.") {
		t.Errorf("approved connection %s, want ARM's name", got.ID.Address())
	}
	st, err = e.p.Read(context.Background(), rs)
	if err != nil {
		t.Fatal(err)
	}
	if r, _ := st.Get(pe.Key()); plan.AsPrivateEndpoint(r).Status() != plan.ConnectionApproved {
		t.Errorf("after approval the endpoint's connection is %q", plan.AsPrivateEndpoint(r).Status())
	}
	gotPLS, ok := st.Get(pls.Key())
	if !ok {
		t.Fatal("PLS not read")
	}
	if _, status, ok := plan.AsPrivateLinkService(gotPLS).ConnectionOf(pe.Key()); !ok || status != plan.ConnectionApproved {
		t.Errorf("the PLS shows the connection %q (%v)", status, ok)
	}
}

// Approving a connection the PLS does not have fails naming the endpoint.
func TestApproveWithoutConnection(t *testing.T) {
	e := newEnv(t, emulator.Options{})
	fe, _ := writeInternalLB(t, e)
	pls, _ := writePLS(t, e, fe)
	pe := plan.NewID(sub, rg, plan.KindPrivateEndpoint, "nowhere")
	conn := plan.ChildID(pls, plan.KindPLSConnection, "nowhere")
	_, _, err := e.p.Write(context.Background(), &plan.Step{Op: plan.OpPut, Target: conn, Body: &plan.Resource{ID: conn, Properties: map[string]any{
		"privateEndpoint": plan.Ref(pe), "privateLinkServiceConnectionState": map[string]any{"status": "Approved"}}}})
	if err == nil || !strings.Contains(err.Error(), "no connection from private endpoint") {
		t.Errorf("err = %v", err)
	}
}
