package planview

import (
	"bufio"
	"fmt"
	"strings"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/render/style"
)

// Where each change lands (issue 22 item 2): the header lists every
// subscription the plan writes to (plan.WriteScopes), the cluster's
// marked, and the changes of each group are listed under the resource
// group and subscription they land in.

// WritesLines word the plan's write scopes, one subscription a line:
// "00000000-… (the cluster's): mc_aks (7 changes), rg-pl (1 change)".
func WritesLines(ws []plan.WriteScope) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		groups := make([]string, len(w.ResourceGroups))
		for j, g := range w.ResourceGroups {
			groups[j] = fmt.Sprintf("%s (%s)", g.Name, count(g.Changes, "change", "changes"))
		}
		mark := ""
		if w.Cluster {
			mark = " (the cluster's)"
		}
		out[i] = w.Subscription + mark + ": " + strings.Join(groups, ", ")
	}
	return out
}

func writeWrites(w *bufio.Writer, in Input) {
	for i, l := range WritesLines(plan.WriteScopes(in.Plan, in.Header.Subscription)) {
		label := ""
		if i == 0 {
			label = "Writes to:"
		}
		for _, l := range style.Wrap(fmt.Sprintf("%-15s %s", label, l), style.Width, strings.Repeat(" ", 16)) {
			fmt.Fprintln(w, l)
		}
	}
}

// scopeText says where a change lands: "in resource group mc_aks of the
// cluster's subscription", or of a subscription named in full.
func scopeText(id plan.ID, clusterSub string) string {
	if strings.EqualFold(id.Subscription, clusterSub) {
		return "in resource group " + id.ResourceGroup + " of the cluster's subscription"
	}
	return "in resource group " + id.ResourceGroup + " of subscription " + id.Subscription
}

// scopeRuns calls each with every change of changes and, before the first
// change and every change landing elsewhere than the one before it, the
// scope it lands in ("" otherwise).
func scopeRuns(changes []*plan.Change, clusterSub string, each func(scope string, c *plan.Change)) {
	var last *plan.ID
	for _, c := range changes {
		id := c.ID()
		scope := ""
		if last == nil || !plan.SameScope(*last, id) {
			scope = scopeText(id, clusterSub)
		}
		last = &id
		each(scope, c)
	}
}

// writesSentence is the markdown headline's list of where the plan
// writes, when it writes anywhere.
func writesSentence(ws []plan.WriteScope) string {
	if len(ws) == 0 {
		return ""
	}
	parts := make([]string, len(ws))
	for i, l := range WritesLines(ws) {
		parts[i] = escapeText(l)
	}
	return fmt.Sprintf(" Writes to %s: %s.", count(len(ws), "subscription", "subscriptions"), strings.Join(parts, "; "))
}

// ApplyQuestion is apply's confirmation prompt, naming every subscription
// and resource group the plan writes to: "Do you want to perform these
// actions in subscription S (the cluster's; resource group mc_aks)?".
func ApplyQuestion(ws []plan.WriteScope) string {
	parts := make([]string, len(ws))
	for i, w := range ws {
		groups := make([]string, len(w.ResourceGroups))
		for j, g := range w.ResourceGroups {
			groups[j] = g.Name
		}
		what := plural(len(groups), "resource group", "resource groups") + " " + strings.Join(groups, ", ")
		if w.Cluster {
			what = "the cluster's; " + what
		}
		parts[i] = "subscription " + w.Subscription + " (" + what + ")"
	}
	if len(parts) == 0 {
		return "Do you want to perform these actions?"
	}
	return "Do you want to perform these actions in " + joinAnd(parts) + "?"
}
