package planview

import (
	"bytes"
	"strings"
	"testing"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/render/style"
)

func TestSymbol(t *testing.T) {
	tests := []struct {
		actions []plan.Action
		want    string
	}{
		{[]plan.Action{plan.ActionCreate}, "+"},
		{[]plan.Action{plan.ActionUpdate}, "~"},
		{[]plan.Action{plan.ActionDelete, plan.ActionCreate}, "-/+"},
		{[]plan.Action{plan.ActionCreate, plan.ActionDelete}, "+/-"},
		{[]plan.Action{plan.ActionDelete}, "-"},
		{[]plan.Action{plan.ActionAdopt}, ">"},
		{[]plan.Action{"teleport"}, "?"},
	}
	for _, tt := range tests {
		if got := symbol(tt.actions); got != tt.want {
			t.Errorf("symbol(%v) = %q, want %q", tt.actions, got, tt.want)
		}
	}
}

func TestSummaryLine(t *testing.T) {
	tests := []struct {
		s    Summary
		want string
	}{
		{Summary{}, "No changes. Azure networking matches the Services."},
		{Summary{HasChanges: true, Create: 2, Update: 1, Replace: 1}, "Plan: 2 to create, 1 to update, 1 to replace, 0 to delete."},
		{Summary{HasChanges: true, Delete: 1, Adopt: 1, Disruptive: 1}, "Plan: 0 to create, 0 to update, 0 to replace, 1 to delete, 1 to adopt. 1 disruptive."},
		{Summary{Blocked: 2, NoOp: 5}, "No changes can be made: 2 blocked (see above)."},
		{Summary{HasChanges: true, Create: 1, Blocked: 1}, "Plan: 1 to create, 0 to update, 0 to replace, 0 to delete. 1 blocked (see above)."},
	}
	for _, tt := range tests {
		if got := tt.s.Line(); got != tt.want {
			t.Errorf("got %q, want %q", got, tt.want)
		}
	}
}

func TestMarkdownFenceSwitchesWhenContentHasBackticks(t *testing.T) {
	id := plan.NewID(sub, rg, plan.KindPrivateLinkService, "pls-x")
	p := &plan.Plan{Changes: []*plan.Change{{Actions: []plan.Action{plan.ActionCreate}, Services: []string{"a/b"},
		After: &plan.Resource{ID: id, Properties: map[string]any{"fqdns": []any{"```evil"}}}}}}
	var b bytes.Buffer
	if err := Markdown(&b, Input{Plan: p}, MarkdownOptions{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "~~~diff\n") || strings.Contains(b.String(), "```diff") {
		t.Errorf("fence not switched:\n%s", b.String())
	}
}

func TestTextShowsUnknownActionsAndKnownAfterApply(t *testing.T) {
	id := plan.NewID(sub, rg, plan.KindPublicIP, "p")
	p := &plan.Plan{Changes: []*plan.Change{
		{Actions: []plan.Action{"teleport"}, Services: []string{"a/b"}, Before: &plan.Resource{ID: id}, After: &plan.Resource{ID: id}},
		{Actions: []plan.Action{plan.ActionCreate}, Services: []string{"a/b"}, After: &plan.Resource{ID: plan.ChildID(lb(), plan.KindFrontend, "f"),
			Properties: map[string]any{"privateIPAddress": plan.Unknown}}},
	}}
	var b bytes.Buffer
	if err := Text(&b, Input{Plan: p}, style.New(false)); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"  ?   pip/p", "?   unknown action", "privateIPAddress = (known after apply)"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, b.String())
		}
	}
}
