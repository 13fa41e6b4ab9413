package planview

import (
	"bytes"
	"strings"
	"testing"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/render/style"
)

// hostile holds what a name or value could carry to drive a terminal: an
// OSC title, a screen clear, a C1 CSI, a bare CR that fakes a line, and
// the markdown a code span or table cell would break on.
const hostile = "x\x1b]0;pwned\a\x1b[2J\u009b31m\rFAKE LINE|`y`"

// hostilePlan is a plan whose Service, resource names, attribute values,
// blocked and refused entries and header all carry hostile text.
func hostilePlan() Input {
	svc := "ns/web" + hostile
	pip := plan.NewID(sub, rg, plan.KindPublicIP, "pip"+hostile)
	subnet := plan.ChildID(plan.NewID(sub, rg, plan.KindVirtualNetwork, "vnet"), plan.KindSubnet, "sub"+hostile)
	p := &plan.Plan{
		Changes: []*plan.Change{
			{Actions: []plan.Action{plan.ActionCreate}, Services: []string{svc}, Reason: plan.ReasonServiceAdded,
				After: &plan.Resource{ID: pip, Tags: map[string]string{"team" + hostile: "v" + hostile}}},
			{Actions: []plan.Action{plan.ActionDelete}, Services: []string{svc}, Disruptive: true,
				Before: &plan.Resource{ID: plan.ChildID(lb(), plan.KindFrontend, "fe"+hostile)}},
		},
		Blocked: []plan.Blocked{{Address: subnet.Address(), Services: []string{svc}}},
		Refused: []plan.Refusal{{Address: pip.Address(), Other: subnet.Address()}},
		Limits:  []plan.Limit{{Name: "rules", Scope: "lb/" + hostile, Used: 900, Max: 1000}},
	}
	return Input{Plan: p, Header: Header{Target: "emulator " + hostile, Cluster: "c" + hostile, ResourceGroup: rg, Source: "dir" + hostile},
		Sources: map[string]string{svc: "deploy/" + hostile + ".yaml"}}
}

// TestPlanEscapesTerminalSequences: the plan's text and markdown show
// escape sequences escaped, as validate does (before, names and paths went
// through raw), keep only their own colours, and keep code spans and
// table cells whole in markdown.
func TestPlanEscapesTerminalSequences(t *testing.T) {
	in := hostilePlan()
	for _, colour := range []bool{false, true} {
		var b bytes.Buffer
		if err := Text(&b, in, style.New(colour)); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		if colour {
			// Take away the colours the style itself writes.
			for _, seq := range styleSequences(style.New(true)) {
				out = strings.ReplaceAll(out, seq, "")
			}
		}
		if i := strings.IndexFunc(out, func(r rune) bool { return r == 0x1b || r == 0x9b || r == '\r' || r == '\a' }); i >= 0 {
			t.Errorf("text (colour %v) passes a control character through at %q", colour, out[max(0, i-20):min(len(out), i+20)])
		}
		if !strings.Contains(out, `\x1b]0;pwned\a\x1b[2J\u009b31m\rFAKE LINE`) {
			t.Errorf("text (colour %v) does not show the sequences escaped:\n%s", colour, out)
		}
	}

	var b bytes.Buffer
	if err := Markdown(&b, in, MarkdownOptions{}); err != nil {
		t.Fatal(err)
	}
	md := b.String()
	if i := strings.IndexFunc(md, func(r rune) bool { return r == 0x1b || r == 0x9b || r == '\r' || r == '\a' }); i >= 0 {
		t.Errorf("markdown passes a control character through at %q", md[max(0, i-20):min(len(md), i+20)])
	}
	for _, line := range strings.Split(md, "\n") {
		if strings.HasPrefix(line, "- `") && strings.Contains(line, "`y`") {
			t.Errorf("a code span is broken by the name's backticks: %s", line)
		}
		if strings.HasPrefix(line, "| rules") && strings.Count(strings.ReplaceAll(line, `\|`, ""), "|") != 5 {
			t.Errorf("a table row is broken by a |: %s", line)
		}
	}
}
