package diff

import (
	"strings"
	"testing"

	"github.com/azsvc/azsvc/plan"
)

func TestCompareResource(t *testing.T) {
	rule := plan.ChildID(plan.NewID("s", "rg", plan.KindSecurityGroup, "nsg"), plan.KindSecurityRule, "k8s-azure-lb_allow_IPv4_80")
	probe := plan.ChildID(plan.NewID("s", "rg", plan.KindLoadBalancer, "lb"), plan.KindProbe, "p")
	lb := plan.NewID("s", "rg", plan.KindLoadBalancer, "lb")
	pls := plan.NewID("s", "rg", plan.KindPrivateLinkService, "pls")
	res := func(id plan.ID, props map[string]any) *plan.Resource {
		return &plan.Resource{ID: id, Properties: props}
	}
	sku := func(s map[string]any) *plan.Resource { return &plan.Resource{ID: lb, SKU: s} }
	standard := map[string]any{"name": "Standard", "tier": "Regional"}
	subs := func(ss ...any) map[string]any {
		return map[string]any{"visibility": map[string]any{"subscriptions": ss}}
	}
	tests := []struct {
		name      string
		want, got *plan.Resource
		changed   []string // paths
	}{
		{"only fields the desired body sets", res(probe, map[string]any{"port": 80}), res(probe, map[string]any{"port": 80.0, "probeThreshold": 1}), nil},
		{"enums compare case-insensitively", res(probe, map[string]any{"protocol": "Tcp"}), res(probe, map[string]any{"protocol": "TCP"}), nil},
		{"other strings do not", res(probe, map[string]any{"requestPath": "/Healthz"}), res(probe, map[string]any{"requestPath": "/healthz"}), []string{"properties.requestPath"}},
		{"known after apply matches anything", res(probe, map[string]any{"x": plan.Unknown}), res(probe, map[string]any{"x": "10.0.0.4"}), nil},
		{"scalar lists are sets", res(probe, map[string]any{"ports": []any{"80", "443"}}), res(probe, map[string]any{"ports": []any{"443", "80"}}), nil},
		{"NSG destinations are one set across both fields",
			res(rule, map[string]any{"destinationAddressPrefix": "20.0.0.1"}),
			res(rule, map[string]any{"destinationAddressPrefixes": []any{"20.0.0.1"}, "priority": 500}), nil},
		{"a destination change is reported once, under the plural field",
			res(rule, map[string]any{"destinationAddressPrefixes": []any{"20.0.0.1", "20.0.0.2"}}),
			res(rule, map[string]any{"destinationAddressPrefix": "20.0.0.1"}), []string{"properties.destinationAddressPrefixes"}},
		// Issue 21 item 1: CCM creates an LB with sku {name: Standard}.
		{"an observed SKU without a tier has ARM's default", sku(standard), sku(map[string]any{"name": "Standard"}), nil},
		{"another tier is a change", sku(standard), sku(map[string]any{"name": "Standard", "tier": "Global"}), []string{"sku.tier"}},
		// Issue 21 item 2: CCM leaves an empty visibility out of the PLS.
		{"an absent object of empty lists is empty", res(pls, subs()), res(pls, map[string]any{}), nil},
		{"an absent object is not a non-empty one", res(pls, subs("s1")), res(pls, map[string]any{}), []string{"properties.visibility"}},
		{"an emptied list is a change", res(pls, subs()), res(pls, subs("s1")), []string{"properties.visibility.subscriptions"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var paths []string
			for _, a := range compareResource(tt.want, tt.got) {
				paths = append(paths, strings.Join(a.Path, "."))
			}
			if strings.Join(paths, ",") != strings.Join(tt.changed, ",") {
				t.Errorf("changed %v, want %v", paths, tt.changed)
			}
		})
	}
}

func TestUpdateReason(t *testing.T) {
	attr := func(path string, before, after any) plan.AttributeChange {
		return plan.AttributeChange{Path: strings.Split(path, "."), Before: before, After: after}
	}
	tests := []struct {
		kind  plan.Kind
		attrs []plan.AttributeChange
		want  plan.Reason
	}{
		{plan.KindPublicIP, []plan.AttributeChange{attr("tags.k8s-azure-service", "a/x", "a/x,b/y")}, plan.ReasonServiceAdded},
		{plan.KindPublicIP, []plan.AttributeChange{attr("tags.k8s-azure-service", "a/x,b/y", "b/y")}, plan.ReasonServiceRemoved},
		{plan.KindSecurityRule, []plan.AttributeChange{attr("properties.destinationAddressPrefixes", []any{"1", "2"}, []any{"1"})}, plan.ReasonServiceRemoved},
		{plan.KindSecurityRule, []plan.AttributeChange{attr("properties.sourceAddressPrefixes", nil, []any{"1"})}, plan.ReasonSourceRangesChanged},
		{plan.KindRule, []plan.AttributeChange{attr("properties.backendPort", 80, 8080)}, plan.ReasonPortChanged},
		{plan.KindRule, []plan.AttributeChange{attr("properties.idleTimeoutInMinutes", 4, 30)}, plan.ReasonAnnotationChanged},
	}
	for _, tt := range tests {
		if got := updateReason(tt.kind, tt.attrs); got != tt.want {
			t.Errorf("%s %v: %s, want %s", tt.kind, tt.attrs[0].Path, got, tt.want)
		}
	}
}
