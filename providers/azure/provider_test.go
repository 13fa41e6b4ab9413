package azure_test

import (
	"context"
	"errors"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/providers/azure"
	"github.com/azsvc/azsvc/providers/azure/emulator"
)

const (
	typeLB  = "Microsoft.Network/loadBalancers"
	typePIP = "Microsoft.Network/publicIPAddresses"
)

// TestRoundTrip writes a scenario, reads it, writes every resource back as
// read (If-Match with the etag read), and reads again: the second read must
// equal the first except for etags, and each write's result must equal what
// the following read returns.
func TestRoundTrip(t *testing.T) {
	e := newEnv(t, emulator.Options{})
	e.write(t, services("kubernetes", "aks-agentpool-nsg", 0, 3)...)
	first := e.read(t)
	if got := len(first.OfKind(plan.KindFrontend)); got != 3 {
		t.Fatalf("read %d frontends, want 3", got)
	}
	written := map[plan.Key]*plan.Resource{}
	for _, r := range first.Resources() {
		if r.Kind().Parent() != "" {
			continue
		}
		if r.Kind() == plan.KindSecurityGroup && len(first.Children(r.Key())) == 0 {
			continue // the baseline's empty NSG: nothing of ours to write
		}
		res, children, err := e.p.Write(context.Background(), &plan.Step{
			Op: plan.OpPut, Target: r.ID, Body: r, Children: first.Children(r.Key()), IfMatch: r.Etag})
		if err != nil {
			t.Fatalf("write back %s: %v", r.ID.Address(), err)
		}
		for _, x := range append(children, res) {
			written[x.Key()] = x
		}
	}
	second := e.read(t)
	ignoreEtag := cmpopts.IgnoreFields(plan.Resource{}, "Etag")
	if diff := cmp.Diff(first.Resources(), second.Resources(), ignoreEtag); diff != "" {
		t.Errorf("read after write-back (-first +second):\n%s", diff)
	}
	for k, w := range written {
		got, ok := second.Get(k)
		if !ok {
			t.Errorf("%s: written but not read back", k)
			continue
		}
		if diff := cmp.Diff(w, got); diff != "" {
			t.Errorf("%s: write result differs from read (-write +read):\n%s", w.ID.Address(), diff)
		}
	}
}

func TestWriteResolvesAssignedValues(t *testing.T) {
	e := newEnv(t, emulator.Options{})
	steps := services("kubernetes", "aks-agentpool-nsg", 0, 1)
	res, _, err := e.p.Write(context.Background(), steps[0])
	if err != nil {
		t.Fatal(err)
	}
	if ip, _ := res.Properties["ipAddress"].(string); ip == "" {
		t.Errorf("new public IP has no address in the write result: %v", res.Properties)
	}

	fe, children := writeInternalLB(t, e)
	if len(children) != 1 || children[0].Key() != fe.Key() {
		t.Fatalf("children %v, want the frontend", children)
	}
	if ip, _ := children[0].Properties["privateIPAddress"].(string); !strings.HasPrefix(ip, "10.224.") {
		t.Errorf("dynamic frontend got IP %q, want one in aks-subnet", ip)
	}
	pls, res := writePLS(t, e, fe)
	if alias, _ := res.Properties["alias"].(string); !strings.HasPrefix(alias, "pls-a1.") {
		t.Errorf("PLS alias %q, want pls-a1.<guid>.<region>...", alias)
	}
	pe := plan.NewID(sub, rg, plan.KindPrivateEndpoint, "pe-a1")
	res, _, err = e.p.Write(context.Background(), &plan.Step{Op: plan.OpPut, Target: pe, Body: &plan.Resource{
		ID: pe, Location: location, Properties: map[string]any{
			"subnet":           map[string]any{"id": subnetID("aks-vnet", "aks-subnet")},
			"privateIPAddress": plan.Unknown,
			"privateLinkServiceConnections": []any{map[string]any{"name": "pe-a1", "properties": map[string]any{
				"privateLinkServiceId": pls.String()}}},
		}}})
	if err != nil {
		t.Fatal(err)
	}
	if ip, _ := res.Properties["privateIPAddress"].(string); !strings.HasPrefix(ip, "10.224.") {
		t.Errorf("private endpoint got IP %q, want one in aks-subnet", ip)
	}
}

func writeInternalLB(t *testing.T, e *env) (plan.ID, []*plan.Resource) {
	t.Helper()
	ilb := plan.NewID(sub, rg, plan.KindLoadBalancer, "kubernetes-internal")
	fe := plan.ChildID(ilb, plan.KindFrontend, "a1")
	_, children, err := e.p.Write(context.Background(), &plan.Step{Op: plan.OpPut, Target: ilb,
		Body: &plan.Resource{ID: ilb, Location: location, SKU: map[string]any{"name": "Standard"}, Properties: map[string]any{}},
		Children: []*plan.Resource{{ID: fe, Properties: map[string]any{
			"privateIPAllocationMethod": "Dynamic", "privateIPAddress": plan.Unknown,
			"subnet": map[string]any{"id": subnetID("aks-vnet", "aks-subnet")}}}}})
	if err != nil {
		t.Fatal(err)
	}
	return fe, children
}

func writePLS(t *testing.T, e *env, fe plan.ID) (plan.ID, *plan.Resource) {
	t.Helper()
	pls := plan.NewID(sub, rg, plan.KindPrivateLinkService, "pls-a1")
	res, _, err := e.p.Write(context.Background(), &plan.Step{Op: plan.OpPut, Target: pls, Body: &plan.Resource{
		ID: pls, Location: location, Properties: map[string]any{
			"alias":                                plan.Unknown,
			"loadBalancerFrontendIpConfigurations": []any{plan.Ref(fe)},
			"ipConfigurations": []any{map[string]any{"name": "pls-a1-nat", "properties": map[string]any{
				"privateIPAllocationMethod": "Dynamic", "primary": true, "privateIPAddressVersion": "IPv4",
				"subnet": map[string]any{"id": subnetID("pls-vnet", "pls-subnet")}}}},
		}}})
	if err != nil {
		t.Fatal(err)
	}
	return pls, res
}

// A PLS with private endpoint connections is deleted after its connections,
// as CCM does; the read before shows the connections the delete drops.
func TestDeletePrivateLinkServiceWithConnections(t *testing.T) {
	e := newEnv(t, emulator.Options{})
	fe, _ := writeInternalLB(t, e)
	pls, _ := writePLS(t, e, fe)
	pe := plan.NewID(sub, rg, plan.KindPrivateEndpoint, "pe-a1")
	e.write(t, &plan.Step{Op: plan.OpPut, Target: pe, Body: &plan.Resource{ID: pe, Location: location, Properties: map[string]any{
		"subnet": map[string]any{"id": subnetID("aks-vnet", "aks-subnet")},
		"privateLinkServiceConnections": []any{map[string]any{"name": "pe-a1", "properties": map[string]any{
			"privateLinkServiceId": pls.String()}}},
	}}})
	st := e.read(t)
	got, ok := st.Get(pls.Key())
	if !ok {
		t.Fatal("PLS not read")
	}
	conns, _ := got.Properties["privateEndpointConnections"].([]any)
	if len(conns) != 1 || !strings.EqualFold(conns[0].(map[string]any)["privateEndpoint"].(string), pe.String()) {
		t.Errorf("PLS connections %v, want one from %s", conns, pe.Address())
	}
	if r, ok := st.Get(pe.Key()); !ok || r.Properties["privateIPAddress"] == nil {
		t.Errorf("private endpoint read without its IP: %v", r)
	}
	e.write(t, &plan.Step{Op: plan.OpDelete, Target: pls, IfMatch: got.Etag})
	if _, ok := e.read(t).Get(pls.Key()); ok {
		t.Error("PLS still there after delete")
	}
}

func TestStaleEtagIsPreconditionFailed(t *testing.T) {
	e := newEnv(t, emulator.Options{})
	steps := services("kubernetes", "aks-agentpool-nsg", 0, 1)
	e.write(t, steps...)
	lbStep := steps[1]
	lbStep.IfMatch = `W/"00000000-0000-0000-0000-000000000000"`
	_, _, err := e.p.Write(context.Background(), lbStep)
	var ae *azure.Error
	if !errors.As(err, &ae) {
		t.Fatalf("got %v, want *azure.Error", err)
	}
	if ae.StatusCode() != 412 || ae.ErrorCode() != "PreconditionFailed" || ae.OperationFailed() {
		t.Errorf("got %d %s (failed op %v), want 412 PreconditionFailed", ae.StatusCode(), ae.ErrorCode(), ae.OperationFailed())
	}
	if !strings.Contains(err.Error(), "put lb/kubernetes") {
		t.Errorf("error %q does not name the step", err)
	}
}

func TestFailedOperationSurfacesARMError(t *testing.T) {
	e := newEnv(t, emulator.Options{Faults: []emulator.Fault{{Kind: emulator.FaultFailOperation, Method: "PUT", Type: "publicIPAddresses"}}})
	_, _, err := e.p.Write(context.Background(), services("kubernetes", "nsg", 0, 1)[0])
	var ae *azure.Error
	if !errors.As(err, &ae) {
		t.Fatalf("got %v, want *azure.Error", err)
	}
	if !ae.OperationFailed() || ae.ErrorCode() == "" || ae.Message() == "" {
		t.Errorf("got failed=%v code %q message %q, want a failed operation with ARM's code and message", ae.OperationFailed(), ae.ErrorCode(), ae.Message())
	}
}

// Writes go out once (apply owns their retries); reads are retried by the SDK.
func TestRetriesReadsNotWrites(t *testing.T) {
	e := newEnv(t, emulator.Options{Faults: []emulator.Fault{
		{Kind: emulator.FaultThrottle, Method: "PUT", Type: "publicIPAddresses", Nth: 1, RetryAfter: 5 * time.Millisecond},
		{Kind: emulator.FaultUnavailable, Method: "PUT", Type: "publicIPAddresses", Nth: 2},
		{Kind: emulator.FaultConflict, Method: "PUT", Type: "publicIPAddresses", Nth: 3},
		{Kind: emulator.FaultThrottle, Method: "LIST", Type: "loadBalancers", Nth: 1, RetryAfter: time.Millisecond},
	}})
	step := services("kubernetes", "nsg", 0, 1)[0]
	want := []struct {
		status     int
		code       string
		retryAfter time.Duration
	}{
		{429, "TooManyRequests", 5 * time.Millisecond},
		{503, "ServiceUnavailable", 0},
		{409, "AnotherOperationInProgress", 0},
	}
	for i, w := range want {
		_, _, err := e.p.Write(context.Background(), step)
		var ae *azure.Error
		if !errors.As(err, &ae) || ae.StatusCode() != w.status || ae.ErrorCode() != w.code || ae.RetryAfter() != w.retryAfter {
			t.Fatalf("write %d: got %v, want %d %s asking for %v", i+1, err, w.status, w.code, w.retryAfter)
		}
		if n := e.emu.Counters().Writes(typePIP); n != i+1 {
			t.Fatalf("%d PUTs after %d failed writes, want %d (no SDK retry)", n, i+1, i+1)
		}
	}
	e.write(t, step)
	if _, err := e.p.Read(context.Background(), e.scope()); err != nil {
		t.Errorf("read with one throttled list: %v", err)
	}
	if n := e.emu.Counters().Count(emulator.MethodList, typeLB); n != 2 {
		t.Errorf("%d load balancer lists, want 2 (one throttled, one retried by the SDK)", n)
	}
}

func TestReadMissingGroupIsEmpty(t *testing.T) {
	e := newEnv(t, emulator.Options{})
	st, err := e.p.Read(context.Background(), plan.ReadScope{Groups: map[plan.Kind][]plan.Group{plan.KindLoadBalancer: {{Name: "no-such-group"}}, plan.KindPrivateDNSZone: {{Name: "No-Such-Group"}}}})
	if err != nil {
		t.Fatalf("read of a missing group: %v", err)
	}
	if st.Len() != 0 {
		t.Errorf("read of a missing group: %d resources, want none", st.Len())
	}
	// The read remembers the groups it found missing: preflight refuses
	// writes into them (azsvc creates none).
	if !st.GroupMissing(e.p.Subscription(), "NO-SUCH-GROUP") || st.GroupMissing(e.p.Subscription(), "some-other-group") {
		t.Errorf("missing groups recorded wrongly: no-such-group %v, %s (not read) %v", st.GroupMissing(e.p.Subscription(), "no-such-group"),
			"some-other-group", st.GroupMissing(e.p.Subscription(), "some-other-group"))
	}
}

func TestListPaging(t *testing.T) {
	e := newEnv(t, emulator.Options{PageSize: 3})
	e.write(t, services("kubernetes", "aks-agentpool-nsg", 0, 10)...)
	e.emu.Counters().Reset()
	st := e.read(t)
	if got := len(st.OfKind(plan.KindPublicIP)); got != 10 {
		t.Errorf("read %d public IPs, want 10", got)
	}
	if got := e.emu.Counters().Count(emulator.MethodList, typePIP); got != 4 {
		t.Errorf("%d public IP list pages, want 4 (10 items, 3 a page)", got)
	}
}

// TestReadCountIndependentOfServices asserts that Read makes the same calls
// for 10 and for 200 Services, except for one more page of public IPs.
func TestReadCountIndependentOfServices(t *testing.T) {
	reads := map[int]int{}
	for _, n := range []int{10, 200} {
		e := newEnv(t, emulator.Options{PageSize: 100, InstantOperations: true})
		e.write(t, services("kubernetes", "aks-agentpool-nsg", 0, n)...)
		e.emu.Counters().Reset()
		st := e.read(t)
		if got := len(st.OfKind(plan.KindRule)); got != n {
			t.Fatalf("%d Services: read %d rules", n, got)
		}
		reads[n] = e.emu.Counters().Reads("")
		if gets := e.emu.Counters().Count(emulator.MethodGet, ""); gets != 0 {
			t.Errorf("%d Services: %d single-resource GETs, want none", n, gets)
		}
		t.Logf("%d Services: %d reads (%s)", n, reads[n], e.emu.Counters())
	}
	if reads[200] != reads[10]+1 {
		t.Errorf("reads: %d for 10 Services, %d for 200; want one more page (public IPs) only", reads[10], reads[200])
	}
}

func TestDelete(t *testing.T) {
	e := newEnv(t, emulator.Options{})
	steps := services("kubernetes", "aks-agentpool-nsg", 0, 2)
	e.write(t, steps...)
	lb := steps[2].Target
	e.write(t, &plan.Step{Op: plan.OpDelete, Target: lb}, &plan.Step{Op: plan.OpDelete, Target: steps[0].Target})
	st := e.read(t)
	if _, ok := st.Get(lb.Key()); ok {
		t.Errorf("%s still there after delete", lb.Address())
	}
	if got := len(st.OfKind(plan.KindPublicIP)); got != 1 {
		t.Errorf("%d public IPs left, want 1", got)
	}
	// Deleting what is already gone succeeds: a re-run after a crash converges.
	e.write(t, &plan.Step{Op: plan.OpDelete, Target: lb})
}

func TestPrivateDNS(t *testing.T) {
	e := newEnv(t, emulator.Options{})
	zone := plan.NewID(sub, rg, plan.KindPrivateDNSZone, "privatelink.example.com")
	link := plan.ChildID(zone, plan.KindVNetLink, "aks-vnet-link")
	rec := plan.ChildID(zone, plan.KindARecord, "api")
	vnet := vnetID("aks-vnet")
	e.write(t,
		&plan.Step{Op: plan.OpPut, Target: zone, Body: &plan.Resource{ID: zone, Location: "global", Properties: map[string]any{}}},
		&plan.Step{Op: plan.OpPut, Target: link, Body: &plan.Resource{ID: link, Location: "global", Properties: map[string]any{
			"virtualNetwork": map[string]any{"id": vnet}, "registrationEnabled": false}}},
		&plan.Step{Op: plan.OpPut, Target: rec, Body: &plan.Resource{ID: rec, Properties: map[string]any{
			"ttl": 300, "aRecords": []any{map[string]any{"ipv4Address": "10.224.0.9"}}}}},
	)
	st := e.read(t)
	for _, id := range []plan.ID{zone, link, rec} {
		if _, ok := st.Get(id.Key()); !ok {
			t.Errorf("%s not read back", id.Address())
		}
	}
	if r, ok := st.Get(rec.Key()); ok {
		if diff := cmp.Diff(map[string]any{"ttl": 300, "aRecords": []any{map[string]any{"ipv4Address": "10.224.0.9"}}}, r.Properties,
			cmpopts.IgnoreMapEntries(func(k string, _ any) bool { return k == "metadata" })); diff != "" {
			t.Errorf("A record (-want +got):\n%s", diff)
		}
	}
	e.write(t, &plan.Step{Op: plan.OpDelete, Target: rec}, &plan.Step{Op: plan.OpDelete, Target: link}, &plan.Step{Op: plan.OpDelete, Target: zone})
	if n := e.read(t).Len(); n != 1 { // the baseline NSG
		t.Errorf("%d resources left, want only the baseline NSG", n)
	}
}

func TestTarget(t *testing.T) {
	e := newEnv(t, emulator.Options{})
	if got := e.p.Target(); got != "local emulator (in memory)" {
		t.Errorf("Target() = %q", got)
	}
	tcp, err := azure.NewEmulator(azure.EmulatorOptions{Subscription: sub, Endpoint: "http://127.0.0.1:8443"})
	if err != nil || tcp.Target() != "ARM endpoint http://127.0.0.1:8443" {
		t.Errorf("TCP target %q, %v", tcp.Target(), err)
	}
	if _, err := azure.NewEmulator(azure.EmulatorOptions{Subscription: sub, Endpoint: "127.0.0.1:8443"}); err == nil {
		t.Error("an endpoint without a scheme was accepted")
	}
}

// Writes await the operation: with three InProgress answers, the write polls
// until Succeeded and returns the final resource.
func TestLongRunningOperation(t *testing.T) {
	e := newEnv(t, emulator.Options{InProgressPolls: 3})
	e.emu.Counters().Reset()
	res, _, err := e.p.Write(context.Background(), services("kubernetes", "nsg", 0, 1)[0])
	if err != nil {
		t.Fatal(err)
	}
	if n := e.emu.Counters().Polls(); n < 3 {
		t.Errorf("%d polls, want at least 3", n)
	}
	if res.Properties["ipAddress"] == nil {
		t.Errorf("result before the operation finished: %v", res.Properties)
	}
	e.emu.Counters().Reset()
	e.write(t, &plan.Step{Op: plan.OpDelete, Target: res.ID})
	if n := e.emu.Counters().Polls(); n < 3 {
		t.Errorf("delete: %d polls, want at least 3", n)
	}
}

// The TCP variant talks plain http on loopback, as `azsvc emulator serve` does.
func TestOverTCP(t *testing.T) {
	e := newEnv(t, emulator.Options{})
	srv := httptest.NewServer(e.emu.Handler())
	defer srv.Close()
	p, err := azure.NewEmulator(azure.EmulatorOptions{Subscription: sub, Endpoint: srv.URL, PollFrequency: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range services("kubernetes", "aks-agentpool-nsg", 0, 2) {
		if _, _, err := p.Write(context.Background(), s); err != nil {
			t.Fatalf("write %s over TCP: %v", s.Target.Address(), err)
		}
	}
	st, err := p.Read(context.Background(), e.scope())
	if err != nil {
		t.Fatal(err)
	}
	if n := len(st.OfKind(plan.KindRule)); n != 2 {
		t.Errorf("read %d rules over TCP, want 2", n)
	}
}
