package statusview

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/azsvc/azsvc/plan/conditions"
	"github.com/azsvc/azsvc/render/style"
)

// TestEveryConditionWorded: every reason a condition can have, of every
// type, gets a message; a reason added to the core without words fails.
func TestEveryConditionWorded(t *testing.T) {
	for _, typ := range conditions.Types() {
		for _, r := range conditions.Reasons() {
			c := conditions.Condition{Type: typ, Reason: r, Addresses: []string{"lb/x/frontend/y"}, Changes: &conditions.Changes{Update: 1}}
			if message(c, "10.0.0.4") == "" {
				t.Errorf("%s %s has no message", typ, r)
			}
		}
	}
}

func TestChangesMessage(t *testing.T) {
	for _, tc := range []struct {
		reason conditions.Reason
		n      conditions.Changes
		want   string
	}{
		{conditions.ChangesPending, conditions.Changes{Create: 2, Delete: 1}, "a plan has 3 changes (2 to create, 1 to delete)"},
		{conditions.ChangesPending, conditions.Changes{Create: 1, Unresolved: 2},
			"a plan has 1 change (1 to create); apply needs 2 values the API server assigns (azsvc plan says why)"},
		{conditions.Blocked, conditions.Changes{Blocked: 1}, "1 change blocked (azsvc plan says why)"},
		{conditions.Refused, conditions.Changes{Update: 1, Refused: 2}, "a plan has 1 change (1 to update); ARM would refuse 2 writes (azsvc plan says why)"},
	} {
		if got := changesMessage(tc.reason, tc.n); got != tc.want {
			t.Errorf("%s %+v:\n got %q\nwant %q", tc.reason, tc.n, got, tc.want)
		}
	}
}

// hostile is a report whose names and values hold terminal control
// sequences: a title change, a screen clear, a bare carriage return.
func hostile() *conditions.Report {
	bad := "web\x1b]0;pwned\a\x1b[2J\r"
	return &conditions.Report{
		Services: []conditions.Service{{Name: "ns/" + bad, UID: conditions.UIDFromInput, InAzure: true,
			LoadBalancers: []conditions.LoadBalancer{{Resource: conditions.Resource{Address: "lb/" + bad, Exists: true}, Name: bad,
				Frontends: []conditions.Frontend{{Resource: conditions.Resource{Exists: true}, Name: bad, IPAddress: bad}}}},
			Conditions: []conditions.Condition{{Type: conditions.LoadBalancerReady, Status: conditions.False, Reason: conditions.Missing,
				Addresses: []string{"lb/" + bad}}}}},
		Endpoints: []conditions.Endpoint{},
	}
}

func TestTextEscapesControlCharacters(t *testing.T) {
	for _, wide := range []bool{false, true} {
		var b bytes.Buffer
		if err := Text(&b, Input{Report: hostile()}, style.New(false), Options{Wide: wide}); err != nil {
			t.Fatal(err)
		}
		if out := b.String(); strings.ContainsAny(out, "\x1b\a\r") {
			t.Errorf("wide %v: a control character reached the terminal:\n%q", wide, out)
		}
	}
}

// TestTextColour: with colour, a status is coloured by its value and the
// table stays aligned as without.
func TestTextColour(t *testing.T) {
	r := &conditions.Report{Services: []conditions.Service{{Name: "ns/web", InAzure: true, Conditions: []conditions.Condition{
		{Type: conditions.LoadBalancerReady, Status: conditions.True, Reason: conditions.AsExpected},
		{Type: conditions.PrivateDNSReady, Status: conditions.Unknown, Reason: conditions.EndpointAddressUnknown},
		{Type: conditions.InSync, Status: conditions.False, Reason: conditions.ChangesPending, Changes: &conditions.Changes{Create: 1}},
	}}}}
	var plain, coloured bytes.Buffer
	if err := Text(&plain, Input{Report: r}, style.New(false), Options{}); err != nil {
		t.Fatal(err)
	}
	if err := Text(&coloured, Input{Report: r}, style.New(true), Options{}); err != nil {
		t.Fatal(err)
	}
	st := style.New(true)
	for _, want := range []string{st.Green("True   "), st.Yellow("Unknown"), st.Red("False  ")} {
		if !strings.Contains(coloured.String(), want) {
			t.Errorf("coloured text lacks %q:\n%s", want, coloured.String())
		}
	}
	if got := ansi.ReplaceAllString(coloured.String(), ""); got != plain.String() {
		t.Errorf("colour changes the layout:\n%s\nwithout colour:\n%s", got, plain.String())
	}
	if !strings.HasSuffix(plain.String(), "Not ready: ns/web.\n") {
		t.Errorf("summary:\n%s", plain.String())
	}
}

// TestJSONEmptyReport: every array is present, never null, and ready is
// true with nothing to report.
func TestJSONEmptyReport(t *testing.T) {
	var b bytes.Buffer
	if err := JSON(&b, Input{Report: &conditions.Report{}}); err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"services", "private_endpoints", "diagnostics"} {
		if _, ok := doc[k].([]any); !ok {
			t.Errorf("%s = %v, want an array", k, doc[k])
		}
	}
	if doc["ready"] != true || doc["format_version"] != FormatVersion {
		t.Errorf("ready %v, format_version %v", doc["ready"], doc["format_version"])
	}
}
