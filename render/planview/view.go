// Package planview renders a plan for people and programs: text for a
// terminal, JSON for tools, markdown for pull-request comments
// (ux-anchors §8.2-§8.4). Every renderer is a pure function of one Input,
// so the three always agree; none of them decides anything about the plan.
package planview

import (
	"fmt"
	"strings"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/service"
)

// Header says where the plan applies (ux-anchors §8.2 item 1). Empty
// fields are left out.
type Header struct {
	Target        string `json:"target"` // e.g. "Azure" or "local emulator (.azsvc/state.json)"
	Tenant        string `json:"tenant_id,omitempty"`
	Subscription  string `json:"subscription_id,omitempty"`
	ResourceGroup string `json:"resource_group,omitempty"`
	Cluster       string `json:"cluster,omitempty"`
	Location      string `json:"location,omitempty"`
	LBSKU         string `json:"lb_sku,omitempty"`
	Source        string `json:"source,omitempty"` // manifests path or cluster context
	// Focus says what a focused plan is narrowed to, e.g. "2 of 500
	// Services (--service shop/web)".
	Focus string `json:"focus,omitempty"`
	// Base names the base of a base→head plan (plan --base): the plan is
	// against what the base input builds, not against Azure.
	Base string `json:"base,omitempty"`
	// Settings name the settings in effect that the command line does not
	// show, e.g. "--prune from env AZSVC_PRUNE: Services absent from the
	// input are deleted".
	Settings []string `json:"settings,omitempty"`
}

// Input is everything a renderer shows.
type Input struct {
	Plan        *plan.Plan
	Header      Header
	Diagnostics []service.Diagnostic
	// Sources maps a Service (namespace/name) to the file it came from,
	// shown in group headers. When set, a Service missing from it is one
	// outside the input (its resources are pruned).
	Sources map[string]string
	// FileContents holds input files' bytes, so text diagnostics can quote
	// the offending line.
	FileContents map[string][]byte
	// PlanID identifies a saved plan ("sha256:..."); empty when not saved.
	PlanID string
	// Since names the saved plan whose record the drift was found against
	// (plan --since); empty when there was none, and then the plan shows
	// no drift section: nothing else tells azsvc what changed outside it.
	Since string
}

// Summary counts a plan's changes (ux-anchors §8.3 "summary").
type Summary struct {
	Create     int `json:"create"`
	Update     int `json:"update"`
	Replace    int `json:"replace"`
	Delete     int `json:"delete"`
	Adopt      int `json:"adopt"`
	NoOp       int `json:"no_op"`
	Disruptive int `json:"disruptive"`
	// Blocked counts the changes azsvc will not make (plan.Plan.Blocked):
	// ownership conflicts and desired resources that cannot be planned,
	// such as a pinned IP or a PLS subnet that does not exist.
	Blocked int `json:"blocked"`
	// BlockedFailing counts the blocked changes that leave a Service or
	// PrivateEndpoint without what its manifest asks for
	// (plan.BlockCode.Fails): plan and apply exit 4.
	BlockedFailing int `json:"blocked_failing"`
	// Awaiting counts the private endpoint connections left Pending for
	// the PLS owner to approve (plan.Plan.Awaiting): not changes.
	Awaiting int `json:"awaiting_approval"`
	// Unfocused counts the changes a focused plan left out: they serve
	// only Services outside the focus (plan.Plan.Unfocused).
	Unfocused  int  `json:"unfocused,omitempty"`
	HasChanges bool `json:"has_changes"`
	// inputErrors: the input has errors, so Services are missing from the
	// plan and "Azure matches the Services" would not be true.
	inputErrors bool
}

// Summarize counts the changes of p; a replace counts once, as a replace.
func Summarize(p *plan.Plan) Summary {
	s := Summary{NoOp: p.NoOp, Blocked: len(p.Blocked), BlockedFailing: len(plan.FailingBlocks(p.Blocked)), Awaiting: len(p.Awaiting), Unfocused: p.Unfocused}
	for _, c := range p.Changes {
		s.add(c)
	}
	s.HasChanges = len(p.Changes) > 0
	return s
}

func (s *Summary) add(c *plan.Change) {
	switch symbol(c.Actions) {
	case "+":
		s.Create++
	case "~":
		s.Update++
	case "-/+", "+/-":
		s.Replace++
	case "-":
		s.Delete++
	case ">":
		s.Adopt++
	}
	if c.Disruptive {
		s.Disruptive++
	}
}

// Line is the summary sentence of the text plan, which lists blocked
// entries above it.
func (s Summary) Line() string { return s.line("above") }

// line is the summary sentence, e.g. "Plan: 2 to create, 1 to update, 0 to
// replace, 1 to delete." with adopt, disruptive and blocked counts when
// non-zero. where says where the renderer lists the blocked entries: a plan
// with nothing to do but blocked entries must not claim that Azure matches
// the Services.
func (s Summary) line(where string) string {
	awaiting := ""
	if s.Awaiting > 0 {
		awaiting = fmt.Sprintf(" %d awaiting approval by the PLS owner (see %s).", s.Awaiting, where)
	}
	if s.Unfocused > 0 {
		awaiting += fmt.Sprintf(" %s to Services outside the focus not planned.", count(s.Unfocused, "change", "changes"))
	}
	if !s.HasChanges && s.Blocked > 0 {
		return fmt.Sprintf("No changes can be made: %d blocked (see %s).", s.Blocked, where) + s.failing() + awaiting
	}
	if !s.HasChanges && s.Unfocused > 0 {
		return "No changes for the Services in focus." + awaiting
	}
	if !s.HasChanges && s.inputErrors {
		return "No changes for the Services without errors; those with errors are not planned." + awaiting
	}
	if !s.HasChanges {
		return "No changes. Azure networking matches the Services." + awaiting
	}
	line := fmt.Sprintf("Plan: %d to create, %d to update, %d to replace, %d to delete", s.Create, s.Update, s.Replace, s.Delete)
	if s.Adopt > 0 {
		line += fmt.Sprintf(", %d to adopt", s.Adopt)
	}
	line += "."
	if s.Disruptive > 0 {
		line += fmt.Sprintf(" %d disruptive.", s.Disruptive)
	}
	if s.Blocked > 0 {
		line += fmt.Sprintf(" %d blocked (see %s).", s.Blocked, where) + s.failing()
	}
	return line + awaiting
}

// failing says how many blocked changes fail the plan, after the blocked
// count; "" for none.
func (s Summary) failing() string {
	switch {
	case s.BlockedFailing == 0:
		return ""
	case s.BlockedFailing == s.Blocked:
		return " Azure will not match the input."
	}
	return fmt.Sprintf(" %d of them %s Azure short of the input.", s.BlockedFailing, plural(s.BlockedFailing, "leaves", "leave"))
}

// symbol maps actions to the plan symbol (ux-anchors §8.1).
func symbol(actions []plan.Action) string {
	key := make([]string, len(actions))
	for i, a := range actions {
		key[i] = string(a)
	}
	switch strings.Join(key, ",") {
	case "create":
		return "+"
	case "update":
		return "~"
	case "delete,create":
		return "-/+"
	case "create,delete":
		return "+/-"
	case "delete":
		return "-"
	case "adopt":
		return ">"
	case "release":
		return "<"
	}
	return "?"
}

var legendText = map[string]string{
	"+": "create", "~": "update in place", "-/+": "replace (delete, then create)",
	"+/-": "replace (create, then delete)", "-": "delete", ">": "adopt (start managing, tags only)",
	"<": "release (stop managing, keep)", "?": "unknown action",
}

var symbolOrder = []string{"+", "~", "-/+", "+/-", "-", ">", "<", "?"}

// counts renders a group summary like "2 to create, 1 to replace".
func (s Summary) counts() string {
	var parts []string
	for _, p := range []struct {
		n    int
		verb string
	}{{s.Create, "create"}, {s.Update, "update"}, {s.Replace, "replace"}, {s.Delete, "delete"}, {s.Adopt, "adopt"}} {
		if p.n > 0 {
			parts = append(parts, fmt.Sprintf("%d to %s", p.n, p.verb))
		}
	}
	return strings.Join(parts, ", ")
}

func usedSymbols(changes []*plan.Change) []string {
	used := map[string]bool{}
	for _, c := range changes {
		used[symbol(c.Actions)] = true
	}
	var out []string
	for _, s := range symbolOrder {
		if used[s] {
			out = append(out, s)
		}
	}
	return out
}

func hasErrors(diags []service.Diagnostic) bool { return service.HasErrors(diags) }
