package conditions

import (
	"reflect"
	"testing"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/resolve"
)

func TestReadiness(t *testing.T) {
	for _, tc := range []struct {
		name  string
		items []item
		want  Condition
		ok    bool
	}{
		{name: "nothing to cover", ok: false},
		{name: "all missing", items: []item{{address: "a"}, {address: "b"}}, ok: true,
			want: Condition{Type: LoadBalancerReady, Status: False, Reason: NotCreated, Addresses: []string{"a", "b"}}},
		{name: "some missing", items: []item{{address: "a", exists: true, unset: true, unsetWhy: NoAddress}, {address: "b"}}, ok: true,
			want: Condition{Type: LoadBalancerReady, Status: False, Reason: Missing, Addresses: []string{"b"}}},
		{name: "no address", items: []item{{address: "a", exists: true, unset: true, unsetWhy: NoAddress}, {address: "b", exists: true}}, ok: true,
			want: Condition{Type: LoadBalancerReady, Status: False, Reason: NoAddress, Addresses: []string{"a"}}},
		{name: "ready", items: []item{{address: "a", exists: true}}, ok: true,
			want: Condition{Type: LoadBalancerReady, Status: True, Reason: AsExpected}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := readiness(LoadBalancerReady, tc.items)
			if ok != tc.ok || !reflect.DeepEqual(got, tc.want) {
				t.Errorf("readiness = %+v, %v; want %+v, %v", got, ok, tc.want, tc.ok)
			}
		})
	}
}

func TestApproval(t *testing.T) {
	pe := Resource{Address: "pe/x", Exists: true}
	for _, tc := range []struct {
		state  string
		exists bool
		status Status
		reason Reason
	}{
		{plan.ConnectionApproved, true, True, AsExpected},
		{"approved", true, True, AsExpected}, // ARM's states are case-insensitive
		{plan.ConnectionPending, true, False, ConnectionPending},
		{plan.ConnectionRejected, true, False, ConnectionRejected},
		{plan.ConnectionDisconnected, true, False, ConnectionDisconnected},
		{"", true, Unknown, NoConnectionState},
		{plan.ConnectionApproved, false, False, NotCreated},
	} {
		e := &Endpoint{Endpoint: pe, Connection: tc.state}
		e.Endpoint.Exists = tc.exists
		if c := approval(e); c.Status != tc.status || c.Reason != tc.reason {
			t.Errorf("%q (exists %v): %s %s, want %s %s", tc.state, tc.exists, c.Status, c.Reason, tc.status, tc.reason)
		}
	}
}

func TestPrivateDNS(t *testing.T) {
	zone := func(records ...Record) Zone {
		return Zone{Resource: Resource{Address: "dnszone/z", Exists: true}, Links: []Link{{Resource: Resource{Address: "dnszone/z/link/l", Exists: true}}},
			Records: records}
	}
	rec := func(name string, exists bool, ips ...string) Record {
		return Record{Resource: Resource{Address: "dnszone/z/a/" + name, Exists: exists}, IPAddresses: ips}
	}
	for _, tc := range []struct {
		name   string
		ip     string
		zones  []Zone
		status Status
		reason Reason
		addrs  []string
	}{
		{name: "records hold the address", ip: "10.0.0.4", zones: []Zone{zone(rec("api", true, "10.0.0.4"))}, status: True, reason: AsExpected},
		{name: "a record holds another", ip: "10.0.0.4", zones: []Zone{zone(rec("api", true, "10.0.0.4"), rec("web", true, "10.0.0.9"))},
			status: False, reason: RecordsStale, addrs: []string{"dnszone/z/a/web"}},
		{name: "a record holds two", ip: "10.0.0.4", zones: []Zone{zone(rec("api", true, "10.0.0.4", "10.0.0.9"))},
			status: False, reason: RecordsStale, addrs: []string{"dnszone/z/a/api"}},
		{name: "a record is missing", ip: "10.0.0.4", zones: []Zone{zone(rec("api", false))},
			status: False, reason: Missing, addrs: []string{"dnszone/z/a/api"}},
		{name: "no endpoint address", zones: []Zone{zone(rec("api", true, "10.0.0.4"))}, status: Unknown, reason: EndpointAddressUnknown},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, ok := privateDNS(&Endpoint{IPAddress: tc.ip, Zones: tc.zones})
			if !ok || c.Status != tc.status || c.Reason != tc.reason || !reflect.DeepEqual(c.Addresses, tc.addrs) {
				t.Errorf("privateDNS = %+v, %v; want %s %s %v", c, ok, tc.status, tc.reason, tc.addrs)
			}
		})
	}
	if _, ok := privateDNS(&Endpoint{IPAddress: "10.0.0.4"}); ok {
		t.Error("PrivateDNSReady applies to an endpoint without DNS")
	}
}

// TestCountChanges: a replace counts once; a refusal of a load balancer's
// write counts for the Services of its children's changes; blocked
// entries and values the API server assigns count for their Services.
func TestCountChanges(t *testing.T) {
	lb := plan.NewID("sub", "rg", plan.KindLoadBalancer, "kubernetes")
	fe := plan.ChildID(lb, plan.KindFrontend, "a1")
	rule := plan.ChildID(lb, plan.KindRule, "a1-TCP-80")
	res := func(id plan.ID) *plan.Resource { return &plan.Resource{ID: id} }
	p := &plan.Plan{
		Changes: []*plan.Change{
			{Actions: []plan.Action{plan.ActionDelete, plan.ActionCreate}, Before: res(fe), After: res(fe), Services: []string{"ns/a"}},
			{Actions: []plan.Action{plan.ActionCreate}, After: res(rule), Services: []string{"ns/a", "ns/b"}},
			{Actions: []plan.Action{plan.ActionUpdate}, Before: res(lb), After: res(lb), Services: []string{"ns/b"}},
		},
		Blocked:    []plan.Blocked{{Address: "pip/x", Services: []string{"ns/c"}}},
		Refused:    []plan.Refusal{{Address: lb.Address()}},
		Unresolved: []plan.Unresolved{{ServerValue: plan.ServerValue{Service: "ns/a", Field: plan.FieldUID}}},
	}
	got := countChanges(p)
	want := map[string]Changes{
		"ns/a": {Replace: 1, Create: 1, Refused: 1, Unresolved: 1},
		"ns/b": {Create: 1, Update: 1, Refused: 1},
		"ns/c": {Blocked: 1},
	}
	if len(got) != len(want) {
		t.Fatalf("counted %d owners, want %d: %v", len(got), len(want), got)
	}
	for s, w := range want {
		if got[s] == nil || *got[s] != w {
			t.Errorf("%s: %+v, want %+v", s, got[s], w)
		}
	}
	b := &builder{changes: got}
	for _, tc := range []struct {
		owner  string
		reason Reason
	}{{"ns/a", Refused}, {"ns/c", Blocked}, {"ns/d", AsExpected}} {
		if c := b.inSync(tc.owner); c.Reason != tc.reason {
			t.Errorf("InSync of %s: %s, want %s", tc.owner, c.Reason, tc.reason)
		}
	}
}

// TestPinnedAddressNotFound: a Service that pins an address no public IP
// has (CCM fails it, so the resolved state drops it) is reported from
// what it wants: PublicIPReady False, naming the address.
func TestPinnedAddressNotFound(t *testing.T) {
	lb := plan.NewID("sub", "rg", plan.KindLoadBalancer, "kubernetes")
	fe := &plan.Resource{ID: plan.ChildID(lb, plan.KindFrontend, "a1"), Services: []string{"ns/web"}, Properties: map[string]any{
		"publicIPAddress": map[string]any{"id": plan.PublicIPByAddress(plan.PublicIPCollection("sub", "rg"), "20.1.2.3")},
	}}
	wanted := plan.NewState()
	wanted.Put(fe)
	res := &resolve.Resolved{Desired: plan.NewState(), Wanted: wanted, Observed: plan.NewIndex(plan.NewState()),
		Scope: plan.Scope{Services: []plan.ServiceRef{{Name: "ns/web", Prefix: "a1"}}}}
	r := Of(res, &plan.Plan{})
	if len(r.Services) != 1 {
		t.Fatalf("report %+v", r)
	}
	s := r.Services[0]
	var pip *Condition
	for i := range s.Conditions {
		if s.Conditions[i].Type == PublicIPReady {
			pip = &s.Conditions[i]
		}
	}
	if pip == nil || pip.Status != False || !reflect.DeepEqual(pip.Addresses, []string{"20.1.2.3"}) {
		t.Errorf("PublicIPReady = %+v, want False naming 20.1.2.3", pip)
	}
	if s.InAzure || r.Ready() {
		t.Errorf("in Azure %v, ready %v", s.InAzure, r.Ready())
	}
}

// TestFocus: a focused report holds the focused Services and endpoints
// only; without a focus, every one in scope.
func TestFocus(t *testing.T) {
	scope := plan.Scope{Services: []plan.ServiceRef{{Name: "ns/a", Prefix: "a1"}, {Name: "ns/b", Prefix: "a2"},
		{Name: plan.EndpointOwner("ns/pe")}}}
	res := &resolve.Resolved{Desired: plan.NewState(), Wanted: plan.NewState(), Observed: plan.NewIndex(plan.NewState()), Scope: scope}
	if r := Of(res, &plan.Plan{}); len(r.Services) != 2 || len(r.Endpoints) != 1 || r.Endpoints[0].Name != "ns/pe" {
		t.Errorf("unfocused: %+v", r)
	}
	res.Scope.Focus = []string{"ns/b", plan.EndpointOwner("ns/pe")}
	if r := Of(res, &plan.Plan{}); len(r.Services) != 1 || r.Services[0].Name != "ns/b" || len(r.Endpoints) != 1 {
		t.Errorf("focused: %+v", r)
	}
}
