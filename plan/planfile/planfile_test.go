package planfile

import (
	"encoding/json"
	"strings"
	"testing"
)

// The compatibility rule: every file of major version 1 is read, fields a
// reader does not know are ignored, another major version is refused.
func TestFormatCompatibility(t *testing.T) {
	const v10 = `{"format_version": "1.0", "target": "local emulator", "inputs": {},
	  "changes": [{"address": "pip/kubernetes-a1", "actions": ["delete"], "action_reason": "service_removed",
	    "disruptive": true, "impact": ["public IP 20.0.0.3 will be released"], "services": ["web/a"],
	    "before": {"id": "/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/publicIPAddresses/kubernetes-a1", "zones": null}}],
	  "steps": [{"op": "delete", "target": "/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/publicIPAddresses/kubernetes-a1", "changes": [0]}],
	  "blocked": [{"address": "pip/x", "reason": "already exists", "services": null}], "preconditions": [], "no_op": 2}`
	var saved Plan
	if err := json.Unmarshal([]byte(v10), &saved); err != nil {
		t.Fatal(err)
	}
	p, err := saved.Restore()
	if err != nil {
		t.Fatalf("1.0 file refused: %v", err)
	}
	if len(p.Steps) != 1 || p.Changes[0].Reason.String() != "service_removed" || !p.Changes[0].IsDelete() || p.NoOp != 2 {
		t.Errorf("restored %+v", p)
	}
	saved.FormatVersion = "2.0"
	if _, err := saved.Restore(); err == nil || !strings.Contains(err.Error(), "not supported") {
		t.Errorf("2.0 file: %v, want refused", err)
	}
}
