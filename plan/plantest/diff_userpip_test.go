package plantest

import (
	"strings"
	"testing"

	"github.com/azsvc/azsvc/plan"
)

// TestUserPIPDNSLabel: a desired public IP without the k8s-azure-service
// tag is the DNS label of a user-assigned IP (ccm-semantics §6): azsvc
// updates that field of an existing one, never creates a missing one, and
// never deletes one no Service wants.
func TestUserPIPDNSLabel(t *testing.T) {
	id := plan.NewID(tSub, "rg-net", plan.KindPublicIP, "byo")
	user := &plan.Resource{ID: id, Location: "eastus", SKU: map[string]any{"name": "Standard"},
		Properties: map[string]any{"ipAddress": "52.1.1.9", "publicIPAllocationMethod": "Static"}}
	want := &plan.Resource{ID: id, Services: []string{svcA.name}, Owned: true,
		Properties: map[string]any{"dnsSettings": map[string]any{"domainNameLabel": "shop"}}}
	scope := scopeOf(false, svcA)
	scope.Services[0].PIPNames = []string{"byo"}

	t.Run("existing: one field updated", func(t *testing.T) {
		desired, observed := plan.NewState(), plan.NewState()
		desired.Put(want)
		observed.Put(user)
		p := mustDiff(t, desired, observed, scope)
		if len(p.Changes) != 1 || !p.Changes[0].Has(plan.ActionUpdate) || len(p.Changes[0].Actions) != 1 {
			t.Fatalf("want one update, got:\n%s", strings.Join(stepLines(p), "\n"))
		}
		after := p.Changes[0].After
		if after.Location != "eastus" || after.Properties["ipAddress"] != "52.1.1.9" || after.Tags != nil {
			t.Errorf("update body lost or added user fields: %+v", after)
		}
	})
	t.Run("missing: blocked, not created", func(t *testing.T) {
		desired := plan.NewState()
		desired.Put(want)
		p := mustDiff(t, desired, plan.NewState(), scope)
		if len(p.Changes) != 0 || len(p.Blocked) != 1 || p.Blocked[0].Address != id.Address() {
			t.Fatalf("want the missing user PIP blocked, got blocked %+v and:\n%s", p.Blocked, strings.Join(stepLines(p), "\n"))
		}
	})
	t.Run("not desired: kept", func(t *testing.T) {
		observed := plan.NewState()
		observed.Put(user)
		p := mustDiff(t, plan.NewState(), observed, plan.Scope{Cluster: tCluster, Prune: true, Services: scope.Services})
		if len(p.Changes) != 0 {
			t.Fatalf("want the user PIP left alone, got:\n%s", strings.Join(stepLines(p), "\n"))
		}
	})
}
