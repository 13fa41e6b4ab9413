package plan

import (
	"reflect"
	"testing"
)

// Groups carry their subscription: the same group name in two subscriptions
// is read twice, a group named with and without the target's subscription
// once.
func TestReadScopeSubscriptions(t *testing.T) {
	var rs ReadScope
	rs.Add(KindPrivateEndpoint, "rg")
	rs.AddIn("S1", KindPrivateEndpoint, "RG")
	rs.AddIn("guest", KindPrivateEndpoint, "rg")
	rs.AddID(NewID("guest", "rg", KindARecord, "x")) // a child: its zone's kind
	rs.AddOptional("guest", KindPrivateDNSZone, "other")
	rs.AddID(ID{Subscription: "guest", ResourceGroup: "net", Kind: KindSubnet, Names: []string{"v", "s"}})
	rs.AddVNet(VNetRef{ResourceGroup: "NET", Name: "V", Subscription: "GUEST"})
	want := []Group{{Subscription: "s1", Name: "rg"}, {Subscription: "guest", Name: "rg"}}
	if got := rs.GroupsOf(KindPrivateEndpoint, "s1"); !reflect.DeepEqual(got, want) {
		t.Errorf("endpoint groups %+v, want %+v", got, want)
	}
	zones := rs.GroupsOf(KindPrivateDNSZone, "s1")
	if len(zones) != 2 || zones[0].Optional || !zones[1].Optional {
		t.Errorf("zone groups %+v", zones)
	}
	if !rs.Has(KindPrivateDNSZone, "", "rg", "guest") || rs.Has(KindPrivateDNSZone, "s1", "rg", "guest") {
		t.Error("Has")
	}
	if got := rs.VNetsIn("s1"); len(got) != 1 {
		t.Errorf("vnets %+v, want one", got)
	}
	if got := rs.AllGroups("s1"); len(got) != 3 {
		t.Errorf("all groups %+v, want rg of s1 and guest, other of guest", got)
	}
	c := rs.Clone()
	c.AddIn("x", KindLoadBalancer, "y")
	if len(rs.Groups[KindLoadBalancer]) != 0 {
		t.Error("Clone shares groups")
	}
}

func TestEndpointOwner(t *testing.T) {
	o := EndpointOwner("ns/name")
	if k, ok := EndpointOf(o); !ok || k != "ns/name" {
		t.Errorf("EndpointOf(%q) = %q, %v", o, k, ok)
	}
	for _, s := range []string{"ns/name", "PrivateEndpoint/x", "PrivateEndpoint/a/b/c"} {
		if _, ok := EndpointOf(s); ok {
			t.Errorf("%q taken for an endpoint owner", s)
		}
	}
}
