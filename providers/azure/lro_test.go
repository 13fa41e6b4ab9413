package azure_test

import (
	"context"
	"testing"
	"time"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/providers/azure"
	"github.com/azsvc/azsvc/providers/azure/emulator"
)

// Requests per write (issue 15): a PUT whose response already holds the
// final state is one request; otherwise the SDK's protocol runs in full
// (PUT 201 + Azure-AsyncOperation in Updating, status polls until
// Succeeded, the final GET), and the result is the final resource either way.
func TestRequestsPerWrite(t *testing.T) {
	tests := []struct {
		name        string
		opts        emulator.Options
		put, delete int
	}{
		{"final state in the PUT response", emulator.Options{InstantOperations: true}, 1, 2},
		{"operation in progress", emulator.Options{InProgressPolls: 1}, 4, 3},
		{"three in-progress polls", emulator.Options{InProgressPolls: 3}, 6, 5},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, tc.opts)
			c := e.emu.Counters()
			c.Reset()
			res, _, err := e.p.Write(context.Background(), services("kubernetes", "nsg", 0, 1)[0])
			if err != nil {
				t.Fatal(err)
			}
			if n := c.Total(); n != tc.put {
				t.Errorf("PUT of a public IP took %d requests, want %d:\n%s", n, tc.put, c)
			}
			if res.Properties["ipAddress"] == nil || res.Etag == "" {
				t.Errorf("result is not the final resource: etag %q, %v", res.Etag, res.Properties)
			}
			c.Reset()
			e.write(t, &plan.Step{Op: plan.OpDelete, Target: res.ID})
			if n := c.Total(); n != tc.delete {
				t.Errorf("DELETE took %d requests, want %d:\n%s", n, tc.delete, c)
			}
		})
	}
}

// Polls wait what the operation's Retry-After asks, not the poll frequency.
func TestPollsHonourRetryAfter(t *testing.T) {
	emu, err := emulator.Open(emulator.Options{InProgressPolls: 2, RetryAfter: 30 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer emu.Close()
	if err := emu.EnsureBaseline(sub, rg, location, "", "", nil, ""); err != nil {
		t.Fatal(err)
	}
	p, err := azure.NewEmulator(azure.EmulatorOptions{Subscription: sub, Endpoint: emulator.Endpoint,
		Transport: emu.Transport(), PollFrequency: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if _, _, err := p.Write(context.Background(), services("kubernetes", "nsg", 0, 1)[0]); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d < 60*time.Millisecond || d > 3*time.Second {
		t.Errorf("a write with two 30ms in-progress polls took %s", d)
	}
}
