package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Through the CLI: a local emulator with a write budget (as ARM limits a
// subscription) makes apply wait instead of running into 429s; every write
// goes out once, and the waits are JSON events with their ETA.
func TestApplyPacedByEmulatorBudget(t *testing.T) {
	c := newCLI(t)
	res := c.run("bench-fixture", "-n", "60", "--config", "../../examples/azure.json", "--out", c.dir)
	if res.code != exitOK {
		t.Fatalf("bench-fixture: exit %d\n%s", res.code, res.stderr)
	}
	args := []string{"-v", "apply", "-f", filepath.Join(c.dir, "services.yaml"), "--config", filepath.Join(c.dir, "azure.json"),
		"--cluster-name", "aks-prod-weu", "--state", filepath.Join(c.dir, "state.json"), "--auto-approve", "-o", "json",
		"--emulator-write-budget", "12/500ms"}
	res = c.run(args...)
	if res.code != exitOK {
		t.Fatalf("apply: exit %d\n%s", res.code, res.stderr)
	}
	steps, waits := 0, 0
	for _, line := range strings.Split(strings.TrimSpace(res.stdout), "\n") {
		var ev struct {
			Type         string
			BudgetWaitMS int64 `json:"budget_wait_ms"`
			ETAMS        int64 `json:"eta_ms"`
		}
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatalf("not a JSON line: %q", line)
		}
		if ev.Type == "apply_complete" {
			steps++
		}
		if ev.BudgetWaitMS > 0 {
			waits++
			if ev.ETAMS < ev.BudgetWaitMS {
				t.Errorf("a budget wait of %dms with an ETA of %dms", ev.BudgetWaitMS, ev.ETAMS)
			}
		}
	}
	m := regexp.MustCompile(`put=(\d+) patch=(\d+) delete=(\d+)`).FindStringSubmatch(res.stderr)
	if m == nil {
		t.Fatalf("no emulator counts in -v output:\n%s", res.stderr)
	}
	if puts := m[1]; puts != fmt.Sprint(steps) || steps <= 12 {
		t.Errorf("%d steps made %s PUTs: pacing let writes run into 429 (or the plan is too small to test it)", steps, puts)
	}
	if waits == 0 {
		t.Error("apply never waited for the budget")
	}
}

func TestParseWriteBudget(t *testing.T) {
	for in, want := range map[string]string{"": "{0 0s}", "1000/5m": "{1000 5m0s}", "50": "{50 5m0s}", "10/30s": "{10 30s}",
		"0/5m": "error", "x/5m": "error", "10/": "error", "10/-1m": "error", "10/five": "error"} {
		b, err := parseWriteBudget("write-budget", in)
		got := fmt.Sprintf("{%d %s}", b.Writes, b.Window)
		if err != nil {
			got = "error"
		}
		if got != want {
			t.Errorf("parseWriteBudget(%q) = %s, want %s", in, got, want)
		}
	}
}
