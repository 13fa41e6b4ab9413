package planfile

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// The compatibility rule: every file of the reader's major version is read,
// fields a reader does not know are ignored, another major version is
// refused.
func TestFormatCompatibility(t *testing.T) {
	const v30 = `{"format_version": "3.0", "future_field": 1, "target": "local emulator", "inputs": {},
	  "changes": [{"address": "pip/kubernetes-a1", "actions": ["delete"], "action_reason": "service_removed",
	    "disruptive": true, "impact": ["public IP 20.0.0.3 will be released"], "services": ["web/a"],
	    "before": {"id": "/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/publicIPAddresses/kubernetes-a1", "zones": null}}],
	  "steps": [{"op": "delete", "target": "/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/publicIPAddresses/kubernetes-a1", "changes": [0]}],
	  "blocked": [{"address": "pip/x", "reason": "already exists", "services": null}], "preconditions": [], "no_op": 2}`
	var saved Plan
	if err := json.Unmarshal([]byte(v30), &saved); err != nil {
		t.Fatal(err)
	}
	p, err := saved.Restore()
	if err != nil {
		t.Fatalf("3.0 file refused: %v", err)
	}
	if len(p.Steps) != 1 || p.Changes[0].Reason.String() != "service_removed" || !p.Changes[0].IsDelete() || p.NoOp != 2 {
		t.Errorf("restored %+v", p)
	}
	for _, old := range []string{"1.1", "2.1"} {
		saved.FormatVersion = old
		if _, err := saved.Restore(); err == nil || !strings.Contains(err.Error(), "not supported") {
			t.Errorf("%s file: %v, want refused", old, err)
		}
	}
}

// A saved plan round-trips through Marshal and Unmarshal; any edit of the
// file, even inside a resource body, is refused as modified.
func TestChecksum(t *testing.T) {
	s := &Plan{FormatVersion: FormatVersion, Target: "t", Changes: []Change{{Address: "pip/a",
		After: &Resource{ID: "/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/publicIPAddresses/a",
			Properties: map[string]any{"idleTimeoutInMinutes": 4}}}}}
	data, err := Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	back, err := Unmarshal(data)
	if err != nil {
		t.Fatalf("unchanged file refused: %v", err)
	}
	if SameChanges(s, back) != "" {
		t.Errorf("round trip changed the plan")
	}
	for _, edit := range []struct{ from, to string }{
		{`"idleTimeoutInMinutes": 4`, `"idleTimeoutInMinutes": 5`},
		{`"target": "t"`, `"target": "u"`},
		{`"checksum": "sha256:`, `"checksum": "sha256:0`},
	} {
		tampered := strings.Replace(string(data), edit.from, edit.to, 1)
		if _, err := Unmarshal([]byte(tampered)); !errors.Is(err, ErrModified) && !strings.Contains(fmt.Sprint(err), "checksum") {
			t.Errorf("edit %q -> %q: err = %v, want ErrModified", edit.from, edit.to, err)
		}
	}
}

// A checksum-shaped value inside the plan, such as a public IP tag from
// azure-pip-tags: "checksum=sha256:<64 hex>", is content like any other:
// only the file's own checksum member is blanked to check it.
func TestChecksumOfHostileContent(t *testing.T) {
	hostile := "sha256:" + strings.Repeat("0123456789abcdef", 4)
	s := &Plan{FormatVersion: FormatVersion, Target: "t", Changes: []Change{{Address: "pip/a",
		After: &Resource{ID: "/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/publicIPAddresses/a",
			Tags: map[string]string{"checksum": hostile}}}}}
	data, err := Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"checksum": "`+hostile+`"`) {
		t.Fatalf("the tag is not written as a checksum-shaped member:\n%s", data)
	}
	back, err := Unmarshal(data)
	if err != nil {
		t.Fatalf("unchanged file refused: %v", err)
	}
	if back.Changes[0].After.Tags["checksum"] != hostile {
		t.Errorf("tag = %q after the round trip", back.Changes[0].After.Tags["checksum"])
	}
	other := "sha256:" + strings.Repeat("fedcba9876543210", 4)
	tampered := strings.Replace(string(data), hostile, other, 1)
	if _, err := Unmarshal([]byte(tampered)); !errors.Is(err, ErrModified) {
		t.Errorf("edited tag: err = %v, want ErrModified", err)
	}
	compact, err := json.Marshal(json.RawMessage(data))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Unmarshal(compact); !errors.Is(err, ErrModified) {
		t.Errorf("reformatted file: err = %v, want ErrModified", err)
	}
}

// A file that is JSON but no plan is refused in the file's terms: which
// member has the wrong type, never encoding/json's Go struct names.
func TestUnmarshalNotAPlan(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"format_version": 3}`, `not a plan file azsvc wrote: "format_version" is a JSON number where a saved plan has a string`},
		{`{"format_version": "3.0", "steps": {}}`, `not a plan file azsvc wrote: "steps" is a JSON object where a saved plan has a list`},
		{`[1, 2]`, `not a plan file azsvc wrote: the file is a JSON array where a saved plan has an object`},
		{`# a comment`, `not a plan file azsvc wrote: invalid character '#'`},
		{`{"name": "x"}`, `not a plan file azsvc wrote: it has no format_version`},
		{`{"format_version": "3.1", "tar`, `not a plan file azsvc wrote: it ends early`},
		{"\ufeff{\"format_version\": \"3.1\"}", `not a plan file azsvc wrote: it starts with a byte order mark`},
	}
	for _, tt := range tests {
		_, err := Unmarshal([]byte(tt.in))
		if err == nil || !strings.HasPrefix(err.Error(), tt.want) || !errors.Is(err, ErrNotPlanFile) {
			t.Errorf("Unmarshal(%s) = %v, want %q", tt.in, err, tt.want)
		}
		if err != nil && (strings.Contains(err.Error(), "Go struct") || strings.Contains(err.Error(), "json:")) {
			t.Errorf("Unmarshal(%s) = %v: encoding/json's wording leaks", tt.in, err)
		}
	}
}
