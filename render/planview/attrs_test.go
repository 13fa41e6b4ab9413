package planview

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/render/style"
)

// TestLongListsAsMemberDiffs: a list too long for one line is shown as the
// members it gains and loses and a count of the rest, in text and
// markdown, with no line over the width.
func TestLongListsAsMemberDiffs(t *testing.T) {
	before := make([]any, 0, 481)
	for i := 0; i < 481; i++ {
		before = append(before, fmt.Sprintf("10.0.%d.%d/32", i/250, i%250))
	}
	after := append(append([]any{}, before[1:]...), "10.9.9.9/32")
	rule := plan.ChildID(nsg(), plan.KindSecurityRule, "k8s-azure-lb_allow_IPv4_80")
	c := &plan.Change{Actions: []plan.Action{plan.ActionUpdate}, Services: []string{"web/a", "web/b"},
		Before:     &plan.Resource{ID: rule, Properties: map[string]any{plan.DestinationField: before}},
		After:      &plan.Resource{ID: rule, Properties: map[string]any{plan.DestinationField: after}},
		Attributes: []plan.AttributeChange{{Path: []string{"properties", plan.DestinationField}, Before: before, After: after}}}
	in := Input{Plan: &plan.Plan{Changes: []*plan.Change{c}}}
	var text, md bytes.Buffer
	if err := Text(&text, in, style.New(false)); err != nil {
		t.Fatal(err)
	}
	if err := Markdown(&md, in, MarkdownOptions{}); err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string]string{"text": text.String(), "markdown": md.String()} {
		for _, want := range []string{"destinationAddressPrefixes: 481 -> 481 members:", "+ 10.9.9.9/32", "- 10.0.0.0/32", "… 480 unchanged"} {
			if !strings.Contains(out, want) {
				t.Errorf("%s lacks %q:\n%s", name, want, out)
			}
		}
		for _, l := range strings.Split(out, "\n") {
			if len(l) > style.MaxColumns {
				t.Errorf("%s: line of %d columns", name, len(l))
			}
		}
	}
	if !strings.Contains(md.String(), "\n+         + 10.9.9.9/32\n") || !strings.Contains(md.String(), "\n-         - 10.0.0.0/32\n") {
		t.Errorf("markdown members are not in the diff's columns:\n%s", md.String())
	}
}

func TestListDiffCountsDuplicates(t *testing.T) {
	d := listDiff([]any{"a", "a", "b"}, []any{"a", "c"}, memberTexts)
	if d.unchanged != 1 || strings.Join(d.added, ",") != "c" || strings.Join(d.removed, ",") != "a,b" {
		t.Errorf("listDiff = %+v", d)
	}
	if listDiff("x", []any{"a"}, memberTexts) != nil {
		t.Error("a scalar before is not a list")
	}
}

// TestPoolMembersOnCreate: a new IP-based pool lists its members one a
// line, as address and node, not as JSON.
func TestPoolMembersOnCreate(t *testing.T) {
	pool := plan.ChildID(lb(), plan.KindBackendPool, cluster)
	var list []any
	for i := range 500 {
		list = append(list, map[string]any{"name": fmt.Sprintf("aks-np-%d", i), "properties": map[string]any{"ipAddress": fmt.Sprintf("10.224.%d.%d", i/250, i%250)}})
	}
	c := &plan.Change{Actions: []plan.Action{plan.ActionCreate}, Reason: plan.ReasonServiceAdded,
		After: &plan.Resource{ID: pool, Properties: map[string]any{plan.PoolMembersField: list,
			"virtualNetwork": map[string]any{"id": "/subscriptions/sub/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/v"}}}}
	var text bytes.Buffer
	if err := Text(&text, Input{Plan: &plan.Plan{Changes: []*plan.Change{c}}}, style.New(false)); err != nil {
		t.Fatal(err)
	}
	out := text.String()
	for _, want := range []string{"loadBalancerBackendAddresses = 500 members:\n", "+ 10.224.0.0 (aks-np-0)\n", "+ 10.224.1.249 (aks-np-499)\n",
		"virtualNetwork = vnet/v"} {
		if !strings.Contains(out, want) {
			t.Errorf("text lacks %q:\n%.2000s", want, out)
		}
	}
	if strings.Contains(out, "[0].name") || strings.Contains(out, `"ipAddress"`) {
		t.Errorf("members shown field by field:\n%.2000s", out)
	}
	js := newJSONChange(1, c)
	if len(js.MemberChanges) != 1 || len(js.MemberChanges[0].Added) != 500 || js.MemberChanges[0].Added[499] != (jsonMember{"aks-np-499", "10.224.1.249"}) {
		t.Errorf("JSON member changes %+v", js.MemberChanges)
	}
}

// TestEmptyPoolMembersLine: a member count with no member line under it
// ends without a colon.
func TestEmptyPoolMembersLine(t *testing.T) {
	pool := plan.ChildID(lb(), plan.KindBackendPool, cluster)
	changes := []*plan.Change{
		{Actions: []plan.Action{plan.ActionCreate}, Reason: plan.ReasonServiceAdded,
			After: &plan.Resource{ID: pool, Properties: map[string]any{plan.PoolMembersField: []any{}}}},
	}
	for _, c := range changes {
		var text bytes.Buffer
		if err := Text(&text, Input{Plan: &plan.Plan{Changes: []*plan.Change{c}}}, style.New(false)); err != nil {
			t.Fatal(err)
		}
		if out := text.String(); strings.Contains(out, "0 members:") || !strings.Contains(out, "0 members") {
			t.Errorf("%v:\n%s", c.Actions, out)
		}
	}
}
