package applyview

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/azsvc/azsvc/apply"
	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/golden"
)

// script builds an event sequence the way apply emits it, on a fake clock.
type script struct {
	t0     time.Time
	now    time.Duration
	events []apply.Event
}

func newScript() *script { return &script{t0: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)} }

func (s *script) add(e apply.Event, at time.Duration) *script {
	s.now = at
	e.Time = s.t0.Add(at)
	s.events = append(s.events, e)
	return s
}

const steps = 3

func step(n int, addr string, action plan.Action, changes int) apply.Event {
	return apply.Event{Step: n, Steps: steps, Address: addr, Action: action, Changes: changes}
}

func with(e apply.Event, t apply.EventType, elapsed time.Duration) apply.Event {
	e.Type, e.Elapsed = t, elapsed
	return e
}

var (
	pip = step(1, "pip/kubernetes-a1", plan.ActionCreate, 1)
	lb  = step(2, "lb/kubernetes", plan.ActionUpdate, 3)
	nsg = step(3, "nsg/aks-agentpool-nsg", plan.ActionUpdate, 2)
	old = step(3, "pip/kubernetes-old", plan.ActionDelete, 1)
)

func retry(e apply.Event, elapsed time.Duration) apply.Event {
	e = with(e, apply.EventProgress, elapsed)
	e.Attempt, e.MaxAttempts, e.RetryIn = 1, 5, 7*time.Second
	e.Failure = &apply.Failure{Address: e.Address, Status: 429, Code: "TooManyRequests", Message: "The request is being throttled."}
	return e
}

func errored(e apply.Event, elapsed time.Duration, status int, code, msg string) apply.Event {
	e = with(e, apply.EventErrored, elapsed)
	e.Attempt = 1
	e.Failure = &apply.Failure{Address: e.Address, Status: status, Code: code, Message: msg}
	return e
}

func operationFailed(e apply.Event) apply.Event {
	e.Failure.OperationFailed = true
	return e
}

func gaveUp(e apply.Event, attempts int) apply.Event {
	e.Attempt = attempts
	return e
}

func summary(s apply.Summary) apply.Event {
	s.Steps = steps
	return apply.Event{Type: apply.EventSummary, Steps: steps, Elapsed: s.Elapsed, Summary: &s}
}

func eta(e apply.Event, d time.Duration) apply.Event {
	e.ETA = d
	return e
}

// budgetWait is apply's wait for ARM's write budget before step e.
func budgetWait(e apply.Event, wait time.Duration, left int, etaAfter time.Duration) apply.Event {
	e = with(e, apply.EventProgress, 0)
	e.BudgetWait, e.BudgetLeft, e.Window, e.ETA = wait, left, 5*time.Minute, wait+etaAfter
	return e
}

// Runs of 100 steps or more get a progress line every tenth of the way.
func TestHumanMilestones(t *testing.T) {
	tests := []struct {
		steps, step int
		eta         time.Duration
		want        string
	}{
		{99, 90, time.Minute, ""},
		{2541, 254, 31 * time.Minute, "Progress: 254 of 2541 writes, about 31m left.\n"},
		{2541, 255, 31 * time.Minute, ""},
		{200, 40, 5 * time.Second, "Progress: 40 of 200 writes.\n"},
		{200, 60, 90 * time.Second, "Progress: 60 of 200 writes, about 1m30s left.\n"},
		{200, 200, 0, ""},
	}
	for _, tc := range tests {
		var buf bytes.Buffer
		h := NewHuman(&buf, HumanOptions{})
		e := step(tc.step, "pip/x", plan.ActionCreate, 1)
		e.Steps = tc.steps
		h.Event(eta(with(e, apply.EventComplete, time.Second), tc.eta))
		if got := strings.TrimPrefix(buf.String(), "pip/x: Creation complete after 1s\n"); got != tc.want {
			t.Errorf("step %d of %d, ETA %s: %q, want %q", tc.step, tc.steps, tc.eta, got, tc.want)
		}
	}
}

func scripts() map[string][]apply.Event {
	badRef := "Resource /subscriptions/sub/resourceGroups/rg/providers/Microsoft.Network/loadBalancers/kubernetes/probes/a1-TCP-80 referenced by resource rule a1-TCP-80 was not found."
	return map[string][]apply.Event{
		"complete": newScript().
			add(with(pip, apply.EventStart, 0), 0).add(with(pip, apply.EventComplete, 2*time.Second), 2*time.Second).
			add(with(lb, apply.EventStart, 0), 2*time.Second).
			add(with(lb, apply.EventProgress, 10*time.Second), 12*time.Second).
			add(retry(lb, 11*time.Second), 13*time.Second).
			add(with(lb, apply.EventProgress, 20*time.Second), 22*time.Second).
			add(with(lb, apply.EventProgress, 25*time.Second), 27*time.Second).
			add(with(lb, apply.EventProgress, 70*time.Second), 72*time.Second).
			add(with(lb, apply.EventComplete, 74*time.Second), 76*time.Second).
			add(with(nsg, apply.EventStart, 0), 76*time.Second).
			add(with(nsg, apply.EventComplete, 1400*time.Millisecond), 77*time.Second).
			add(summary(apply.Summary{Outcome: apply.OutcomeComplete, Created: 5, Elapsed: 77 * time.Second,
				Applied: []string{"pip/kubernetes-a1", "lb/kubernetes", "nsg/aks-agentpool-nsg"},
				Outputs: []apply.Output{{Address: "pip/kubernetes-a1", Field: "ipAddress", Value: "20.1.2.3"},
					{Address: "lb/kubernetes/frontend/a1-snet", Field: "privateIPAddress", Value: "10.0.0.7"}}}), 77*time.Second).events,
		"paced": newScript().
			add(with(pip, apply.EventStart, 0), 0).add(eta(with(pip, apply.EventComplete, 2*time.Second), 5*time.Minute), 2*time.Second).
			add(budgetWait(lb, 4*time.Minute+50*time.Second, 0, 5*time.Second), 2*time.Second).
			add(with(lb, apply.EventStart, 0), 292*time.Second).
			add(eta(with(lb, apply.EventComplete, 3*time.Second), 3*time.Second), 295*time.Second).
			add(budgetWait(nsg, 300*time.Millisecond, 0, 4*time.Second), 295*time.Second).
			add(with(nsg, apply.EventStart, 0), 296*time.Second).
			add(with(nsg, apply.EventComplete, time.Second), 297*time.Second).
			add(summary(apply.Summary{Outcome: apply.OutcomeComplete, Created: 1, Updated: 2, Elapsed: 297 * time.Second,
				Applied: []string{"pip/kubernetes-a1", "lb/kubernetes", "nsg/aks-agentpool-nsg"}}), 297*time.Second).events,
		"partial": newScript().
			add(with(pip, apply.EventStart, 0), 0).add(with(pip, apply.EventComplete, 2*time.Second), 2*time.Second).
			add(with(lb, apply.EventStart, 0), 2*time.Second).
			add(errored(lb, time.Second, 400, "InvalidResourceReference", badRef), 3*time.Second).
			add(summary(apply.Summary{Outcome: apply.OutcomePartial, Created: 1, Elapsed: 3 * time.Second,
				Applied: []string{"pip/kubernetes-a1"}, NotAttempted: []string{"nsg/aks-agentpool-nsg"},
				Failed:  &apply.Failure{Address: "lb/kubernetes", Status: 400, Code: "InvalidResourceReference", Message: badRef},
				Outputs: []apply.Output{{Address: "pip/kubernetes-a1", Field: "ipAddress", Value: "20.1.2.3"}}}), 3*time.Second).events,
		"stale": newScript().
			add(with(lb, apply.EventStart, 0), 0).
			add(errored(lb, 0, 412, "PreconditionFailed", "Precondition failed."), 0).
			add(summary(apply.Summary{Outcome: apply.OutcomeStale,
				NotAttempted: []string{"nsg/aks-agentpool-nsg", "pip/kubernetes-old"},
				Failed:       &apply.Failure{Address: "lb/kubernetes", Status: 412, Code: "PreconditionFailed", Message: "Precondition failed."}}), 0).events,
		"interrupted": newScript().
			add(with(nsg, apply.EventStart, 0), 0).add(with(nsg, apply.EventComplete, 3*time.Second), 3*time.Second).
			add(summary(apply.Summary{Outcome: apply.OutcomeInterrupted, Updated: 2, Elapsed: 3 * time.Second,
				Applied: []string{"nsg/aks-agentpool-nsg"}, NotAttempted: []string{"pip/kubernetes-old"}}), 3*time.Second).events,
		"operation-failed": newScript().
			add(with(nsg, apply.EventStart, 0), 0).
			add(operationFailed(errored(nsg, 31*time.Second, 0, "InternalServerError", "The operation failed.")), 31*time.Second).
			add(summary(apply.Summary{Outcome: apply.OutcomePartial, Elapsed: 31 * time.Second,
				Failed: &apply.Failure{Address: "nsg/aks-agentpool-nsg", Code: "InternalServerError", Message: "The operation failed.", OperationFailed: true}}), 31*time.Second).events,
		"gave-up": newScript().
			add(with(pip, apply.EventStart, 0), 0).
			add(retry(pip, time.Second), time.Second).
			add(gaveUp(errored(pip, 9*time.Second, 503, "ServiceUnavailable", "The service is temporarily unavailable."), 2), 9*time.Second).
			add(summary(apply.Summary{Outcome: apply.OutcomeFailed, Elapsed: 9 * time.Second,
				NotAttempted: []string{"lb/kubernetes", "nsg/aks-agentpool-nsg"},
				Failed:       &apply.Failure{Address: "pip/kubernetes-a1", Status: 503, Code: "ServiceUnavailable", Message: "The service is temporarily unavailable."}}), 9*time.Second).events,
		"delete-failed": newScript().
			add(with(old, apply.EventStart, 0), 0).
			add(errored(old, 2*time.Second, 400, "PublicIPAddressCannotBeDeleted", "Public IP address kubernetes-old can not be deleted since it is still allocated."), 2*time.Second).
			add(summary(apply.Summary{Outcome: apply.OutcomeFailed, Elapsed: 2 * time.Second,
				Failed: &apply.Failure{Address: "pip/kubernetes-old", Status: 400, Code: "PublicIPAddressCannotBeDeleted",
					Message: "Public IP address kubernetes-old can not be deleted since it is still allocated."}}), 2*time.Second).events,
	}
}

func TestHumanGolden(t *testing.T) {
	for name, events := range scripts() {
		for _, tty := range []bool{false, true} {
			var buf bytes.Buffer
			h := NewHuman(&buf, HumanOptions{TTY: tty})
			for _, e := range events {
				h.Event(e)
			}
			if h.Err() != nil {
				t.Fatal(h.Err())
			}
			file := name + ".txt"
			if tty {
				file = name + ".tty.txt"
			}
			checkGolden(t, file, visible(buf.String()))
		}
	}
}

func TestJSONGolden(t *testing.T) {
	for name, events := range scripts() {
		var buf bytes.Buffer
		j := NewJSON(&buf)
		for _, e := range events {
			j.Event(e)
		}
		if j.Err() != nil {
			t.Fatal(j.Err())
		}
		for i, line := range strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n") {
			var m map[string]any
			if err := json.Unmarshal([]byte(line), &m); err != nil || m["type"] != string(events[i].Type) {
				t.Fatalf("%s line %d is not the event's JSON object: %s (%v)", name, i+1, line, err)
			}
		}
		checkGolden(t, name+".jsonl", buf.String())
	}
}

// visible shows the terminal control sequences a TTY golden holds.
func visible(s string) string {
	return strings.NewReplacer("\r", "<CR>", "\x1b[K", "<EL>").Replace(s)
}

func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	golden.Check(t, path, []byte(got))
}

// TestHumanEscapesFailures: an ARM message echoing a hostile value, or an
// address with one, reaches the log escaped.
func TestHumanEscapesFailures(t *testing.T) {
	var buf bytes.Buffer
	h := NewHuman(&buf, HumanOptions{})
	h.Event(apply.Event{Type: apply.EventErrored, Address: "pip/x\x1b]0;t\x07", Action: plan.ActionCreate,
		Failure: &apply.Failure{Code: "InvalidResourceName", Status: 400, Message: "Resource name x\x1b[2J is invalid."}})
	if out := buf.String(); strings.ContainsAny(out, "\x1b\x07") || !strings.Contains(out, `x\x1b[2J`) {
		t.Errorf("raw control characters: %q", out)
	}
}

// TestSummaryListsCapped: a run stopped early on a large plan lists the
// first maxListed addresses of each list and counts the rest; the JSON
// summary keeps every address.
func TestSummaryListsCapped(t *testing.T) {
	addrs := func(prefix string, n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = fmt.Sprintf("%s/%03d", prefix, i)
		}
		return out
	}
	sum := apply.Summary{Outcome: apply.OutcomeInterrupted, Steps: 425,
		Applied: addrs("pip/applied", 25), NotAttempted: addrs("pip/left", 400)}
	ev := apply.Event{Type: apply.EventSummary, Steps: 425, Summary: &sum}
	var human, js bytes.Buffer
	NewHuman(&human, HumanOptions{}).Event(ev)
	NewJSON(&js).Event(ev)
	out := human.String()
	for _, want := range []string{"pip/applied/019\n", "  … and 5 more (-o json lists them all)\n", "pip/left/019\n", "  … and 380 more (-o json lists them all)\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "pip/left/020") || strings.Contains(out, "pip/applied/020") {
		t.Errorf("summary lists past 20 addresses:\n%s", out)
	}
	if lines := strings.Count(out, "\n"); lines > 60 {
		t.Errorf("summary of an interrupted 425-step run is %d lines", lines)
	}
	if !strings.Contains(js.String(), "pip/left/399") {
		t.Errorf("the JSON summary lost addresses: %s", js.String())
	}
}
