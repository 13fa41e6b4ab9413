package apply

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/azsvc/azsvc/plan"
)

func TestErrorMessages(t *testing.T) {
	tests := []struct {
		name  string
		setup func(f *fakeARM, cancel func())
		want  string
	}{
		{"hard failure", func(f *fakeARM, _ func()) {
			f.faults["lb/kubernetes"] = []error{&armErr{status: 400, code: "InvalidResourceReference", msg: "probe not found"}}
		}, "lb/kubernetes: InvalidResourceReference (HTTP 400): probe not found (1 of 3 steps applied)"},
		{"long-running operation failed", func(f *fakeARM, _ func()) {
			f.faults["lb/kubernetes"] = []error{&armErr{status: 200, code: "InternalServerError", msg: "The operation failed.", failedOp: true}}
		}, "lb/kubernetes: InternalServerError (operation failed): The operation failed. (1 of 3 steps applied)"},
		{"retries exhausted", func(f *fakeARM, _ func()) {
			f.faults["pip/kubernetes-a1"] = []error{unavailable(), unavailable(), unavailable(), unavailable(), unavailable()}
		}, "pip/kubernetes-a1: ServiceUnavailable (HTTP 503): try later (gave up after 5 attempts; 0 of 3 steps applied)"},
		{"no ARM response", func(f *fakeARM, _ func()) {
			f.faults["nsg/aks-agentpool-nsg"] = []error{errors.New("dial tcp 127.0.0.1:443: connection refused")}
		}, "nsg/aks-agentpool-nsg: dial tcp 127.0.0.1:443: connection refused (2 of 3 steps applied)"},
		{"interrupted", func(f *fakeARM, cancel func()) {
			f.onWrite = func(int, *plan.Step) { cancel() }
		}, "apply interrupted (1 of 3 steps applied)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			f := fixtureARM()
			tt.setup(f, cancel)
			_, err := Run(ctx, fixturePlan(), f, Options{Clock: newFakeClock(), Retry: RetryPolicy{BaseDelay: time.Millisecond}})
			if err == nil || err.Error() != tt.want {
				t.Errorf("error:\n got %v\nwant %s", err, tt.want)
			}
		})
	}
}
