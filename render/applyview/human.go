// Package applyview renders apply's events: progress lines for people
// (stderr, CI logs) and JSON Lines for machines (ux-anchors §8.2).
package applyview

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/azsvc/azsvc/apply"
	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/quote"
	"github.com/azsvc/azsvc/render/style"
)

// HumanOptions tune the human renderer.
type HumanOptions struct {
	// TTY draws a spinner status line under the progress lines. Set it only
	// when the output is a terminal; the spinner turns once per
	// apply_progress event, so pair it with a short progress interval.
	TTY bool
	// StillEvery is how often a "Still modifying..." line is printed for a
	// long write (default 10s).
	StillEvery time.Duration
}

// Human writes one line as each write starts and ends, a "Still ..." line
// every StillEvery while it runs, a line per retry, and a closing report.
type Human struct {
	w    io.Writer
	opts HumanOptions
	// stills[step] is how many StillEvery periods were already reported.
	stills map[int]time.Duration
	frame  int
	live   bool // a spinner line is on screen
	eta    time.Duration
	err    error
}

// NewHuman returns a renderer writing to w.
func NewHuman(w io.Writer, opts HumanOptions) *Human {
	if opts.StillEvery <= 0 {
		opts.StillEvery = 10 * time.Second
	}
	return &Human{w: w, opts: opts, stills: map[int]time.Duration{}}
}

// Err is the first write error, if any.
func (h *Human) Err() error { return h.err }

// Event renders e; it implements apply.Observer.
func (h *Human) Event(e apply.Event) {
	h.clearSpinner()
	// Addresses carry resource names and failures ARM's messages, which
	// echo names and values: nothing in them may drive the terminal.
	e.Address = quote.Text(e.Address)
	v := verbsOf(e.Action)
	switch e.Type {
	case apply.EventStart:
		h.printf("%s: %s...%s\n", e.Address, v.ing, changeCount(e))
	case apply.EventProgress:
		h.progress(e, v)
	case apply.EventComplete:
		h.printf("%s: %s complete after %s\n", e.Address, v.done, seconds(e.Elapsed))
		h.eta = e.ETA
		h.milestone(e)
	case apply.EventErrored:
		h.line(fmt.Sprintf("%s: %s failed after %s%s: %s", e.Address, v.ing, seconds(e.Elapsed), attempts(e.Attempt), failureText(e.Failure)))
	case apply.EventSummary:
		h.summary(e.Summary)
	}
	if h.opts.TTY && (e.Type == apply.EventStart || e.Type == apply.EventProgress) {
		h.drawSpinner(e, v)
	}
}

func (h *Human) progress(e apply.Event, v verbs) {
	if e.BudgetWait > 0 {
		h.budgetWait(e)
		return
	}
	if e.RetryIn > 0 {
		h.line(fmt.Sprintf("%s: retrying in %s (attempt %d of %d) after %s",
			e.Address, seconds(e.RetryIn), e.Attempt+1, e.MaxAttempts, failureText(e.Failure)))
		return
	}
	if period := e.Elapsed / h.opts.StillEvery; period > h.stills[e.Step] {
		h.stills[e.Step] = period
		h.printf("%s: Still %s... [%s elapsed]\n", e.Address, v.still, seconds(e.Elapsed))
	}
}

// milestoneSteps is the smallest run that gets a progress line every tenth
// of its steps: long applies spend minutes, even hours, under ARM's write
// budget, and a CI log should say how far they got and how long is left.
const milestoneSteps = 100

func (h *Human) milestone(e apply.Event) {
	if e.Steps < milestoneSteps || e.Step%(e.Steps/10) != 0 || e.Step == e.Steps {
		return
	}
	h.printf("Progress: %d of %d writes%s.\n", e.Step, e.Steps, etaText(e.ETA, ", about %s left"))
}

// budgetWait reports a wait for ARM's write budget (apply paces itself so
// as not to run into 429s). Short waits, the steady pace once the budget is
// spent, only show on a terminal's status line.
func (h *Human) budgetWait(e apply.Event) {
	h.eta = e.ETA
	if e.BudgetWait < h.opts.StillEvery {
		return
	}
	left := ""
	if e.BudgetLeft >= 0 {
		left = fmt.Sprintf(": %d %s left in its %s window", e.BudgetLeft, plural(e.BudgetLeft, "write", "writes"), minutes(e.Window))
	}
	h.printf("Waiting %s for ARM's write budget%s%s.\n", seconds(e.BudgetWait), left, etaText(e.ETA, "; about %s left in all"))
}

// etaText formats an ETA worth showing (10s or more), else "".
func etaText(eta time.Duration, format string) string {
	if eta < 10*time.Second {
		return ""
	}
	return fmt.Sprintf(format, roughly(eta))
}

// roughly rounds an estimate to what it can promise: minutes past ten
// minutes, ten seconds past a minute.
func roughly(d time.Duration) string {
	switch {
	case d >= 10*time.Minute:
		return minutes(d.Round(time.Minute))
	case d >= time.Minute:
		s := d.Round(10 * time.Second).String()
		if strings.HasSuffix(s, "m0s") {
			s = strings.TrimSuffix(s, "0s")
		}
		return s
	}
	return seconds(d)
}

// minutes renders whole minutes as 5m or 1h5m.
func minutes(d time.Duration) string {
	s := d.Round(time.Minute).String()
	return strings.TrimSuffix(s, "0s")
}

const spinnerFrames = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"

func (h *Human) drawSpinner(e apply.Event, v verbs) {
	frames := []rune(spinnerFrames)
	what := v.ing + "..."
	if e.BudgetWait > 0 {
		what = "waiting for ARM's write budget..."
	}
	h.printf("%c %s: %s [%s] (%d/%d%s)", frames[h.frame%len(frames)], e.Address, what, seconds(e.Elapsed), e.Step, e.Steps, etaText(h.eta, ", about %s left"))
	h.frame++
	h.live = true
}

// clearSpinner erases the status line before a permanent line is printed.
func (h *Human) clearSpinner() {
	if h.live {
		h.printf("\r\x1b[K")
		h.live = false
	}
}

// failureText is a failure as one escaped line.
func failureText(f *apply.Failure) string {
	if f == nil {
		return "<nil>"
	}
	return quote.Text(f.String())
}

// line prints one line of text, wrapped to style.Width: ARM's messages
// quote whole resource IDs.
func (h *Human) line(text string) {
	for _, l := range style.Wrap(text, style.Width, "    ") {
		h.printf("%s\n", l)
	}
}

func (h *Human) printf(format string, args ...any) {
	if h.err == nil {
		_, h.err = fmt.Fprintf(h.w, format, args...)
	}
}

// verbs are Terraform's progress words (ux-anchors §8.2).
type verbs struct{ ing, still, done string }

func verbsOf(a plan.Action) verbs {
	switch a {
	case plan.ActionCreate:
		return verbs{"Creating", "creating", "Creation"}
	case plan.ActionDelete:
		return verbs{"Destroying", "destroying", "Destruction"}
	case plan.ActionUpdate:
		return verbs{"Modifying", "modifying", "Modifications"}
	}
	return verbs{"Applying", "applying", "Apply"}
}

// changeCount shows how many resource changes a write carries when that is
// not obvious: always for a modification (a parent written for its
// children), and whenever there is more than one.
func changeCount(e apply.Event) string {
	if e.Changes > 1 || e.Action == plan.ActionUpdate && e.Changes == 1 {
		return fmt.Sprintf(" (%d %s)", e.Changes, plural(e.Changes, "change", "changes"))
	}
	return ""
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func attempts(n int) string {
	if n > 1 {
		return fmt.Sprintf(" and %d attempts", n)
	}
	return ""
}

// seconds renders a duration as Terraform does: 2s, 1m10s.
func seconds(d time.Duration) string { return d.Round(time.Second).String() }
