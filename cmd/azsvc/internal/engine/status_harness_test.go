package engine

import (
	"bytes"
	"testing"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/conditions"
	"github.com/azsvc/azsvc/render/statusview"
	"github.com/azsvc/azsvc/render/style"
)

// Helpers of the azsvc status tests.

// mustStatus reports on in against tg.
func mustStatus(t testing.TB, in *Inputs, tg *Target) *conditions.Report {
	t.Helper()
	r, _, err := Status(t.Context(), in, tg)
	if err != nil {
		t.Fatalf("status: %v", err)
	}
	return r
}

// statusInput is what azsvc status renders for in, sources named from the
// repository root as the example goldens name them.
func statusInput(t testing.TB, in *Inputs, tg *Target, dir string) statusview.Input {
	t.Helper()
	r, p, err := Status(t.Context(), in, tg)
	if err != nil {
		t.Fatalf("status: %v", err)
	}
	v := exampleView(p, in, tg, dir)
	return statusview.Input{Report: r, Header: v.Header, Sources: v.Sources}
}

// statusGolden renders in as text (and wide text when wide is set) to
// path, and as JSON to jsonPath when given.
func statusGolden(t *testing.T, in statusview.Input, path string, wide bool, jsonPath string) {
	t.Helper()
	renderGolden(t, path, func(w *bytes.Buffer) error {
		return statusview.Text(w, in, style.New(false), statusview.Options{Wide: wide})
	})
	if jsonPath != "" {
		renderGolden(t, jsonPath, func(w *bytes.Buffer) error { return statusview.JSON(w, in) })
	}
}

// condition finds the condition of type typ of the Service or endpoint
// name (namespace/name of a Service, plan.EndpointOwner of a
// PrivateEndpoint) in r; ok is false when it has none.
func condition(r *conditions.Report, name string, typ conditions.Type) (conditions.Condition, bool) {
	var cs []conditions.Condition
	for _, s := range r.Services {
		if s.Name == name {
			cs = s.Conditions
		}
	}
	for _, e := range r.Endpoints {
		if plan.EndpointOwner(e.Name) == name {
			cs = e.Conditions
		}
	}
	for _, c := range cs {
		if c.Type == typ {
			return c, true
		}
	}
	return conditions.Condition{}, false
}

// requireCondition fails unless name's condition typ has status and reason.
func requireCondition(t testing.TB, r *conditions.Report, name string, typ conditions.Type, status conditions.Status, reason conditions.Reason) conditions.Condition {
	t.Helper()
	c, ok := condition(r, name, typ)
	if !ok {
		t.Fatalf("%s has no %s condition", name, typ)
	}
	if c.Status != status || c.Reason != reason {
		t.Fatalf("%s %s = %s %s %v, want %s %s", name, typ, c.Status, c.Reason, c.Addresses, status, reason)
	}
	return c
}
