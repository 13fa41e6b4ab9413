package applyview

import (
	"fmt"

	"github.com/azsvc/azsvc/apply"
	"github.com/azsvc/azsvc/plan/quote"
)

// summary prints the closing report: counts, the values Azure assigned, and
// when the run stopped early what was applied, what failed and what was not
// attempted, with what to do next (ux-anchors §8.6).
func (h *Human) summary(s *apply.Summary) {
	if s == nil {
		return
	}
	applied := len(s.Applied)
	h.printf("\n")
	switch s.Outcome {
	case apply.OutcomeComplete:
		h.printf("Apply complete! Resources: %d created, %d updated, %d replaced, %d deleted (%d %s in %s).\n",
			s.Created, s.Updated, s.Replaced, s.Deleted, applied, plural(applied, "write", "writes"), seconds(s.Elapsed))
	case apply.OutcomeStale:
		what := "a resource"
		if s.Failed != nil {
			what = s.Failed.Address
		}
		h.printf("Apply stopped: %s changed since it was planned. %d of %d %s applied.\n", what, applied, s.Steps, plural(s.Steps, "write", "writes"))
	case apply.OutcomeInterrupted:
		h.printf("Apply interrupted. %d of %d %s applied.\n", applied, s.Steps, plural(s.Steps, "write", "writes"))
	case apply.OutcomeFailed:
		h.printf("Apply failed. Nothing was applied.\n")
	default:
		h.printf("Apply stopped at the first failure. %d of %d %s applied.\n", applied, s.Steps, plural(s.Steps, "write", "writes"))
	}
	h.outputs(s.Outputs)
	h.awaiting(s.Awaiting)
	if s.Outcome == apply.OutcomeComplete {
		return
	}
	h.list("Applied", s.Applied)
	if s.Failed != nil {
		h.printf("\nFailed:\n")
		h.line(fmt.Sprintf("  %s: %s", s.Failed.Address, quote.Text(s.Failed.String())))
	}
	h.list("Not attempted", s.NotAttempted)
	h.printf("\n%s\n", nextStep(s.Outcome))
}

func (h *Human) outputs(outs []apply.Output) {
	if len(outs) == 0 {
		return
	}
	h.printf("\nAssigned by Azure:\n")
	for _, o := range outs {
		h.line(fmt.Sprintf("  %s %s = %v", o.Address, o.Field, o.Value))
	}
}

// awaiting names the private endpoints whose connection stays Pending: not
// a failure, but nothing reaches them until the PLS owner approves.
func (h *Human) awaiting(addrs []string) {
	if len(addrs) == 0 {
		return
	}
	h.printf("\nAwaiting approval by the PLS owner (the connection is Pending; traffic flows once it is approved):\n")
	for _, a := range addrs {
		h.printf("  %s\n", a)
	}
}

// maxListed bounds the addresses a list of the summary shows: a run that
// stops early on a large plan (a lease lost, Ctrl-C) would otherwise print
// hundreds of lines. The JSON summary keeps them all.
const maxListed = 20

func (h *Human) list(title string, addrs []string) {
	if len(addrs) == 0 {
		return
	}
	h.printf("\n%s:\n", title)
	shown := addrs[:min(len(addrs), maxListed)]
	for _, a := range shown {
		h.printf("  %s\n", a)
	}
	if n := len(addrs) - len(shown); n > 0 {
		h.printf("  … and %d more (-o json lists them all)\n", n)
	}
}

func nextStep(o apply.Outcome) string {
	switch o {
	case apply.OutcomeStale:
		return "Run azsvc plan again: the new plan starts from what Azure holds now."
	case apply.OutcomeInterrupted:
		return "Run azsvc apply again to finish: it plans from what Azure holds now, so it picks up where this run was interrupted."
	}
	return "Run azsvc apply again to finish: it plans from what Azure holds now, so it picks up where this run stopped."
}
