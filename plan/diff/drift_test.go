package diff

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/azsvc/azsvc/plan"
)

func TestDrift(t *testing.T) {
	lb := plan.NewID("s", "rg", plan.KindLoadBalancer, "lb")
	fe := plan.ChildID(lb, plan.KindFrontend, "a1")
	rule := plan.ChildID(lb, plan.KindRule, "a1-TCP-80")
	nsgRule := plan.ChildID(plan.NewID("s", "rg", plan.KindSecurityGroup, "nsg"), plan.KindSecurityRule, "k8s-azure-lb_allow_IPv4_80")
	res := func(id plan.ID, props map[string]any) *plan.Resource {
		return &plan.Resource{ID: id, Properties: props, Services: []string{"web/a"}}
	}
	recordedRule := res(rule, map[string]any{"idleTimeoutInMinutes": 4, "protocol": "Tcp"})
	recordedFE := res(fe, map[string]any{"privateIPAddress": plan.Unknown, "privateIPAllocationMethod": "Dynamic"})
	recordedNSG := res(nsgRule, map[string]any{"sourceAddressPrefix": "Internet", "destinationAddressPrefix": plan.AfterApply(fe.Key(), "privateIPAddress")})
	tests := []struct {
		name     string
		record   []*plan.Resource
		planned  map[plan.Key]*plan.Change
		observed []*plan.Resource
		want     []string // "action address path:before->after"
	}{
		{name: "nothing changed; Azure's own fields and assigned values are not drift",
			record: []*plan.Resource{recordedRule, recordedFE, recordedNSG},
			observed: []*plan.Resource{
				res(rule, map[string]any{"idleTimeoutInMinutes": 4.0, "protocol": "Tcp", "provisioningState": "Succeeded"}),
				res(fe, map[string]any{"privateIPAddress": "10.0.0.5", "privateIPAllocationMethod": "Dynamic"}),
				res(nsgRule, map[string]any{"sourceAddressPrefix": "Internet", "destinationAddressPrefix": "10.0.0.5", "priority": 500})}},
		{name: "an edit in Azure is drift, from the record to what Azure holds",
			record:   []*plan.Resource{recordedRule},
			observed: []*plan.Resource{res(rule, map[string]any{"idleTimeoutInMinutes": 30, "protocol": "Tcp"})},
			want:     []string{"update lb/lb/rule/a1-TCP-80 properties.idleTimeoutInMinutes:4->30"}},
		{name: "a copied value is compared with its source as it is now",
			record: []*plan.Resource{recordedFE, recordedNSG},
			observed: []*plan.Resource{
				res(fe, map[string]any{"privateIPAddress": "10.0.0.5", "privateIPAllocationMethod": "Dynamic"}),
				res(nsgRule, map[string]any{"sourceAddressPrefix": "Internet", "destinationAddressPrefix": "10.9.9.9"})},
			want: []string{"update nsg/nsg/rule/k8s-azure-lb_allow_IPv4_80 properties.destinationAddressPrefixes:[10.0.0.5]->[10.9.9.9]"}},
		{name: "a copied value whose source is gone matches anything",
			record:   []*plan.Resource{recordedNSG},
			observed: []*plan.Resource{res(nsgRule, map[string]any{"sourceAddressPrefix": "Internet", "destinationAddressPrefix": "10.9.9.9"})}},
		{name: "a recorded resource deleted in Azure",
			record: []*plan.Resource{recordedRule},
			want:   []string{"delete lb/lb/rule/a1-TCP-80"}},
		{name: "a create the earlier plan did not apply is pending, not drift",
			record:  []*plan.Resource{recordedRule},
			planned: map[plan.Key]*plan.Change{rule.Key(): {Actions: []plan.Action{plan.ActionCreate}, After: recordedRule}}},
		{name: "an update the earlier plan did not apply is pending, not drift",
			record: []*plan.Resource{recordedRule},
			planned: map[plan.Key]*plan.Change{rule.Key(): {Actions: []plan.Action{plan.ActionUpdate},
				Before: res(rule, map[string]any{"idleTimeoutInMinutes": 10, "protocol": "Tcp"}), After: recordedRule}},
			observed: []*plan.Resource{res(rule, map[string]any{"idleTimeoutInMinutes": 10, "protocol": "Tcp"})}},
		{name: "an unapplied update edited again in Azure is drift",
			record: []*plan.Resource{recordedRule},
			planned: map[plan.Key]*plan.Change{rule.Key(): {Actions: []plan.Action{plan.ActionUpdate},
				Before: res(rule, map[string]any{"idleTimeoutInMinutes": 10, "protocol": "Tcp"}), After: recordedRule}},
			observed: []*plan.Resource{res(rule, map[string]any{"idleTimeoutInMinutes": 20, "protocol": "Tcp"})},
			want:     []string{"update lb/lb/rule/a1-TCP-80 properties.idleTimeoutInMinutes:4->20"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := plan.NewState()
			for _, r := range tt.observed {
				st.Put(r)
			}
			var got []string
			for _, c := range Drift(tt.record, tt.planned, plan.NewIndex(st)) {
				if !reflect.DeepEqual(c.Services, []string{"web/a"}) {
					t.Errorf("%s serves %q, want the recorded Services", c.ID().Address(), c.Services)
				}
				line := string(c.Actions[0]) + " " + c.ID().Address()
				for _, a := range c.Attributes {
					line += " " + strings.Join(a.Path, ".") + ":" + text(a.Before) + "->" + text(a.After)
				}
				got = append(got, line)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("drift %q\nwant  %q", got, tt.want)
			}
		})
	}
}

func text(v any) string {
	if l, ok := v.([]any); ok {
		parts := make([]string, len(l))
		for i, x := range l {
			parts[i] = text(x)
		}
		return "[" + strings.Join(parts, ",") + "]"
	}
	if n, ok := plan.Number(v); ok {
		return strconv.FormatFloat(n, 'f', -1, 64)
	}
	return fmt.Sprint(v)
}
