package azure_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/providers/azure"
	"github.com/azsvc/azsvc/providers/azure/emulator"
)

// recorder remembers every request the provider sends and the status it
// got back.
type recorder struct {
	rt   http.RoundTripper
	mu   sync.Mutex
	sent []sentRequest
}

type sentRequest struct {
	method, path string // path as sent on the wire (escaped)
	status       int
}

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := r.rt.RoundTrip(req)
	status := 0
	if resp != nil {
		status = resp.StatusCode
	}
	r.mu.Lock()
	r.sent = append(r.sent, sentRequest{req.Method, req.URL.EscapedPath(), status})
	r.mu.Unlock()
	return resp, err
}

func (r *recorder) take() []sentRequest {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := r.sent
	r.sent = nil
	return out
}

// segments decodes an escaped path one segment at a time, as ARM reads it.
func segments(t *testing.T, escaped string) []string {
	t.Helper()
	parts := strings.Split(strings.Trim(escaped, "/"), "/")
	for i, p := range parts {
		seg, err := url.PathUnescape(p)
		if err != nil {
			t.Fatalf("undecodable segment %q in %s", p, escaped)
		}
		parts[i] = seg
	}
	return parts
}

// TestCraftedNamesStayInTheirSegment: a resource group or name holding
// "/", "%2F", "?", "#", ".." or control characters goes to ARM as exactly
// one path segment of the intended URL, or is refused before any request;
// ARM (the emulator) answers 4xx, never 5xx; and the resource such a name
// aims at is untouched.
func TestCraftedNamesStayInTheirSegment(t *testing.T) {
	e := newEnv(t, emulator.Options{InstantOperations: true})
	rec := &recorder{rt: e.emu.Transport()}
	p, err := azure.NewEmulator(azure.EmulatorOptions{
		Subscription: sub, Endpoint: emulator.Endpoint, Transport: rec,
		Description: "recorded", PollFrequency: time.Millisecond, RetryDelay: time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	victim := plan.NewID(sub, rg, plan.KindPublicIP, "victim")
	e.write(t, pipStep(victim))
	before, _ := e.read(t).Get(victim.Key())
	if before == nil {
		t.Fatal("victim not created")
	}

	crafted := []string{
		"x/../victim", "victim/..", "x%2F..%2Fvictim", "victim?api-version=1", "victim#frag",
		"..", ".", "victim\x1b]0;t\x07", "victim\n", "vict\u202eim", strings.Repeat("v", 200), "",
	}
	for _, name := range crafted {
		for _, id := range []plan.ID{
			plan.NewID(sub, rg, plan.KindPublicIP, name),
			plan.NewID(sub, name, plan.KindPublicIP, "victim"),
		} {
			for _, step := range []*plan.Step{pipStep(id), {Op: plan.OpDelete, Target: id}} {
				_, _, err := p.Write(context.Background(), step)
				if err == nil && step.Op == plan.OpPut { // a delete of a missing name succeeds, as in ARM
					t.Errorf("%s %q accepted", step.Op, id.Address())
				}
				for _, r := range rec.take() {
					if r.status >= 500 || r.status == 0 {
						t.Errorf("%s %s: status %d", r.method, r.path, r.status)
					}
					if !strings.Contains(r.path, "/publicIPAddresses/") {
						continue // an operation poll
					}
					got := segments(t, r.path)
					want := segments(t, "/subscriptions/"+sub+"/resourceGroups/x/providers/Microsoft.Network/publicIPAddresses/x")
					if len(got) != len(want) || got[3] != id.ResourceGroup || got[7] != id.Name() {
						t.Errorf("%s %q went to %s (segments %q)", step.Op, id.Address(), r.path, got)
					}
				}
			}
		}
	}
	after, _ := e.read(t).Get(victim.Key())
	if after == nil || after.Etag != before.Etag {
		t.Errorf("the victim public IP changed: %+v", after)
	}

	_, err = p.Read(context.Background(), plan.ReadScope{Groups: map[plan.Kind][]plan.Group{plan.KindPublicIP: {{Name: ".."}}}})
	if err == nil || len(rec.take()) != 0 {
		t.Errorf("a read of group \"..\" was sent (err %v)", err)
	}
}

func pipStep(id plan.ID) *plan.Step {
	return &plan.Step{Op: plan.OpPut, Target: id, Body: &plan.Resource{
		ID: id, Location: location, SKU: map[string]any{"name": "Standard"},
		Properties: map[string]any{"publicIPAllocationMethod": "Static", "publicIPAddressVersion": "IPv4", "ipAddress": plan.Unknown},
	}}
}
