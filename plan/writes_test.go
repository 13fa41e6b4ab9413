package plan

import (
	"reflect"
	"testing"
)

// The subscriptions and resource groups a plan writes to, the cluster's
// first: 9 of the HyperShift example's 18 changes land in the guest's.
func TestWriteScopes(t *testing.T) {
	const cluster, guest = "00000000-0000-0000-0000-000000000000", "5c7d9e1f-2a3b-4c5d-8e9f-0a1b2c3d4e5f"
	create := func(sub, rg string, kind Kind, name string) *Change {
		return &Change{Actions: []Action{ActionCreate}, After: &Resource{ID: NewID(sub, rg, kind, name)}}
	}
	p := &Plan{Changes: []*Change{
		create(guest, "rg-guest-foo", KindPrivateEndpoint, "pe"),
		create(cluster, "MC_aks", KindLoadBalancer, "lb"),
		create(cluster, "rg-privatelink", KindPrivateLinkService, "pls"),
		create("00000000-0000-0000-0000-000000000000", "mc_AKS", KindPublicIP, "pip"),
		create(guest, "rg-guest-foo", KindPrivateDNSZone, "zone"),
	}}
	want := []WriteScope{
		{Subscription: cluster, Cluster: true, Changes: 3, ResourceGroups: []GroupWrites{{Name: "MC_aks", Changes: 2}, {Name: "rg-privatelink", Changes: 1}}},
		{Subscription: guest, Changes: 2, ResourceGroups: []GroupWrites{{Name: "rg-guest-foo", Changes: 2}}},
	}
	if got := WriteScopes(p, "00000000-0000-0000-0000-000000000000"); !reflect.DeepEqual(got, want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
	if got := WriteScopes(&Plan{}, cluster); got != nil {
		t.Errorf("no changes: %+v", got)
	}
}
