package planview

import (
	"testing"

	"github.com/azsvc/azsvc/plan"
)

// TestReasonTextForDeletes: a delete says who no longer asks for the
// resource: a Service for the load balancer side, a PrivateEndpoint object
// for the endpoint and its DNS.
func TestReasonTextForDeletes(t *testing.T) {
	const sub, rg = "00000000-0000-0000-0000-000000000000", "rg"
	zone := plan.NewID(sub, rg, plan.KindPrivateDNSZone, "foo.hypershift.local")
	tests := []struct {
		id   plan.ID
		want string
	}{
		{plan.NewID(sub, rg, plan.KindPublicIP, "kubernetes-a1"), "no Service in the input needs it any more"},
		{plan.NewID(sub, rg, plan.KindPrivateLinkService, "pls-a1"), "no Service in the input needs it any more"},
		{plan.NewID(sub, rg, plan.KindPrivateEndpoint, "private-router"), "no PrivateEndpoint in the input declares it any more"},
		{zone, "no PrivateEndpoint in the input declares it any more"},
		{plan.ChildID(zone, plan.KindARecord, "api"), "no PrivateEndpoint in the input declares it any more"},
		{plan.ChildID(zone, plan.KindVNetLink, "guest"), "no PrivateEndpoint in the input declares it any more"},
	}
	for _, tt := range tests {
		c := &plan.Change{Actions: []plan.Action{plan.ActionDelete}, Before: &plan.Resource{ID: tt.id}, Reason: plan.ReasonServiceRemoved}
		if got := ReasonText(c); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.id.Address(), got, tt.want)
		}
	}
}
