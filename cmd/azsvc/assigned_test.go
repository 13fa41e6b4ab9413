package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestApplySummaryListsWhatAzureAssigned: the PLS alias consumers connect
// with, its NAT IPs and the new addresses are in the apply summary, on the
// terminal and in the JSON summary event.
func TestApplySummaryListsWhatAzureAssigned(t *testing.T) {
	c := newCLI(t)
	seedStateFile(t, filepath.Join(c.dir, "state.json"), "../../examples/emulator-seed.json") // the PLS subnets
	res := c.run(exampleArgs(c, "pls", "apply", "--auto-approve", "-o", "json")...)
	if res.code != exitOK {
		t.Fatalf("apply: exit %d\n%s", res.code, res.stderr)
	}
	lines := strings.Split(strings.TrimSpace(res.stdout), "\n")
	var ev struct {
		Summary struct {
			Outputs []struct{ Address, Field string }
		}
	}
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &ev); err != nil {
		t.Fatal(err)
	}
	fields := map[string]bool{}
	for _, o := range ev.Summary.Outputs {
		fields[strings.SplitN(o.Address, "/", 2)[0]+" "+strings.SplitN(o.Field, "[", 2)[0]] = true
	}
	for _, want := range []string{"pls alias", "pls ipConfigurations", "pip ipAddress", "lb privateIPAddress"} {
		if !fields[want] {
			t.Errorf("summary outputs lack %q: %v", want, ev.Summary.Outputs)
		}
	}
}
