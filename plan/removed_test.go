package plan

import (
	"reflect"
	"testing"
)

// A Service removed under --prune is named by what names it: the service
// tag of its public IP, the owner tag of its private link service, a saved
// plan or base input; a bare prefix only when nothing does (issue 22 item
// 3: it was "resource names starting a1042de5…" whatever the tags said).
func TestRemovedServices(t *testing.T) {
	const (
		tagged = "a1042de5000000000000000000000001"
		owned  = "a1042de5000000000000000000000002"
		saved  = "a1042de5000000000000000000000003"
		bare   = "a1042de5000000000000000000000004"
		shared = "a1042de5000000000000000000000005"
	)
	lb := NewID("sub", "rg", KindLoadBalancer, "kubernetes")
	del := func(id ID) *Change { return &Change{Actions: []Action{ActionDelete}, Before: &Resource{ID: id}} }
	var changes []*Change
	for _, p := range []string{tagged, owned, saved, bare, shared} {
		changes = append(changes, del(ChildID(lb, KindRule, p+"-TCP-80")), del(ChildID(lb, KindFrontend, p)))
	}
	// A delete some Service of the input still owns names nothing.
	changes = append(changes, &Change{Actions: []Action{ActionDelete}, Services: []string{"web/in"},
		Before: &Resource{ID: ChildID(lb, KindRule, "a2000000000000000000000000000000-TCP-80")}})
	evidence := []*Resource{
		{ID: NewID("sub", "rg", KindPublicIP, "kubernetes-"+tagged), Tags: map[string]string{TagService: "shop/old"}},
		{ID: NewID("sub", "rg", KindPublicIP, "kubernetes-"+shared), Tags: map[string]string{TagService: "shop/a,shop/b"}},
		{ID: NewID("sub", "rg", KindPrivateLinkService, "pls-x"), Tags: map[string]string{TagOwnerService: "edge/router"},
			Properties: map[string]any{"loadBalancerFrontendIpConfigurations": []any{Ref(ChildID(lb, KindFrontend, owned))}}},
	}
	got := RemovedServices(changes, evidence)
	got = NameRemoved(got, KnownNames{By: NamedBySavedPlan, Names: map[string]string{saved: "shop/saved", tagged: "shop/wrong"}})
	want := []RemovedService{
		{Prefix: tagged, Service: "shop/old", NamedBy: NamedByServiceTag, Evidence: "pip/kubernetes-" + tagged},
		{Prefix: owned, Service: "edge/router", NamedBy: NamedByOwnerTag, Evidence: "pls/pls-x"},
		{Prefix: saved, Service: "shop/saved", NamedBy: NamedBySavedPlan},
		{Prefix: bare},
		{Prefix: shared},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
}
