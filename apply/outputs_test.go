package apply

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/azsvc/azsvc/plan"
)

// TestOutputsReportEveryValueAzureAssigns: the apply summary lists what
// Azure assigned in a write: values the plan left Unknown, a new PLS's
// alias and dynamic NAT IPs; not values the plan set, nor values copied
// from another resource.
func TestOutputsReportEveryValueAzureAssigns(t *testing.T) {
	pls := plan.NewID("s", "rg", plan.KindPrivateLinkService, "pls-a1")
	nat := func(name, method, ip string) any {
		props := map[string]any{"privateIPAllocationMethod": method}
		if ip != "" {
			props["privateIPAddress"] = ip
		}
		return map[string]any{"name": name, "properties": props}
	}
	planned := &plan.Resource{ID: pls, Properties: map[string]any{
		"ipConfigurations": []any{nat("static-0", "Static", "10.0.1.10"), nat("dynamic-0", "Dynamic", "")},
		"fqdns":            []any{"a.example.com"},
		"copied":           plan.AfterApply(plan.KeyOf("/x"), "ipAddress"),
	}}
	got := &plan.Resource{ID: pls, Properties: map[string]any{
		"ipConfigurations": []any{nat("static-0", "Static", "10.0.1.10"), nat("dynamic-0", "Dynamic", "10.0.1.4")},
		"fqdns":            []any{"a.example.com"},
		"alias":            "pls-a1.guid.westeurope.azure.privatelinkservice",
		"copied":           "20.0.0.1",
	}}
	want := []Output{
		{Address: "pls/pls-a1", Field: "alias", Value: "pls-a1.guid.westeurope.azure.privatelinkservice"},
		{Address: "pls/pls-a1", Field: "ipConfigurations[dynamic-0].privateIPAddress", Value: "10.0.1.4"},
	}
	if out := outputs(&plan.Step{Op: plan.OpPut, Target: pls, Body: planned}, got, nil); !cmp.Equal(out, want) {
		t.Errorf("outputs %v\nwant %v", out, want)
	}
	// An update carries the alias ARM already had: nothing new to report.
	planned.Properties["alias"] = "pls-a1.guid.westeurope.azure.privatelinkservice"
	planned.Properties["ipConfigurations"] = got.Properties["ipConfigurations"]
	if out := outputs(&plan.Step{Op: plan.OpPut, Target: pls, Body: planned}, got, nil); len(out) != 0 {
		t.Errorf("an update reports %v", out)
	}
}
