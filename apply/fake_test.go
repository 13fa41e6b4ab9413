package apply

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"sync"
	"time"

	"github.com/azsvc/azsvc/plan"
)

// armErr is a scripted ARM failure.
type armErr struct {
	status     int
	code, msg  string
	retryAfter time.Duration
	failedOp   bool
}

func (e *armErr) Error() string             { return fmt.Sprintf("%d %s: %s", e.status, e.code, e.msg) }
func (e *armErr) StatusCode() int           { return e.status }
func (e *armErr) ErrorCode() string         { return e.code }
func (e *armErr) Message() string           { return e.msg }
func (e *armErr) RetryAfter() time.Duration { return e.retryAfter }
func (e *armErr) OperationFailed() bool     { return e.failedOp }

// fakeARM is an in-memory provider: a map of resources with etags, If-Match
// checks, server-assigned IPs, and scripted failures per target address.
type fakeARM struct {
	resources map[plan.Key]*plan.Resource
	seq       int
	// writes are the steps as sent, one per Write call.
	writes []*plan.Step
	// faults[address] are returned by the next writes of that target, in
	// order, before it succeeds.
	faults map[string][]error
	// onWrite runs at the start of every Write (n counts from 1).
	onWrite func(n int, step *plan.Step)
}

func newFakeARM(seed ...*plan.Resource) *fakeARM {
	f := &fakeARM{resources: map[plan.Key]*plan.Resource{}, faults: map[string][]error{}}
	for _, r := range seed {
		f.resources[r.Key()] = r
	}
	return f
}

func (f *fakeARM) Write(ctx context.Context, step *plan.Step) (*plan.Resource, []*plan.Resource, error) {
	f.writes = append(f.writes, step)
	if f.onWrite != nil {
		f.onWrite(len(f.writes), step)
	}
	if ctx.Err() != nil {
		return nil, nil, fmt.Errorf("write cut short: %w", ctx.Err())
	}
	addr := step.Target.Address()
	if q := f.faults[addr]; len(q) > 0 {
		f.faults[addr] = q[1:]
		return nil, nil, q[0]
	}
	cur, exists := f.resources[step.Target.Key()]
	if step.IfMatch != "" && (!exists || cur.Etag != step.IfMatch) {
		return nil, nil, &armErr{status: 412, code: "PreconditionFailed", msg: "Precondition failed."}
	}
	f.deleteTree(step.Target)
	if step.Op == plan.OpDelete {
		return nil, nil, nil
	}
	res, err := f.store(step.Body)
	if err != nil {
		return nil, nil, err
	}
	var children []*plan.Resource
	for _, c := range step.Children {
		got, err := f.store(c)
		if err != nil {
			return nil, nil, err
		}
		children = append(children, got)
	}
	return res, children, nil
}

func (f *fakeARM) deleteTree(target plan.ID) {
	delete(f.resources, target.Key())
	if !hasChildKinds(target.Kind) {
		return
	}
	for k, r := range f.resources {
		if pid, ok := r.ID.ParentID(); ok && pid.Key() == target.Key() {
			delete(f.resources, k)
		}
	}
}

// store saves a copy of r with a new etag and the values Azure assigns.
func (f *fakeARM) store(r *plan.Resource) (*plan.Resource, error) {
	for k, v := range r.Properties {
		if containsUnknown(v) {
			return nil, &armErr{status: 400, code: "InvalidRequestFormat", msg: "unknown value sent in " + k}
		}
	}
	f.seq++
	out := *r
	out.Properties = maps.Clone(r.Properties)
	out.Etag = fmt.Sprintf(`W/"%d"`, f.seq)
	switch {
	case r.Kind() == plan.KindPublicIP && out.Properties["ipAddress"] == nil:
		out.Properties["ipAddress"] = fmt.Sprintf("20.0.0.%d", f.seq)
	case out.Properties["privateIPAllocationMethod"] == "Dynamic" && out.Properties["privateIPAddress"] == nil:
		out.Properties["privateIPAddress"] = fmt.Sprintf("10.0.0.%d", f.seq)
	}
	f.resources[out.Key()] = &out
	cp := out
	return &cp, nil
}

func containsUnknown(v any) bool {
	switch t := v.(type) {
	case map[string]any:
		for _, x := range t {
			if containsUnknown(x) {
				return true
			}
		}
	case []any:
		for _, x := range t {
			if containsUnknown(x) {
				return true
			}
		}
	}
	return plan.IsUnknown(v)
}

// fakeClock advances only when apply sleeps or a test ticks it.
type fakeClock struct {
	mu       sync.Mutex
	now      time.Time
	sleeps   []time.Duration
	ticks    chan time.Time
	interval time.Duration
	// onSleep runs before a sleep (e.g. to cancel the run mid-wait).
	onSleep func()
}

func newFakeClock() *fakeClock {
	return &fakeClock{now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Sleep(ctx context.Context, d time.Duration) error {
	if c.onSleep != nil {
		c.onSleep()
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sleeps = append(c.sleeps, d)
	c.now = c.now.Add(d)
	return nil
}

func (c *fakeClock) Ticker(d time.Duration) (<-chan time.Time, func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.interval, c.ticks = d, make(chan time.Time)
	return c.ticks, func() {}
}

// advance moves time on; tick also delivers a tick to the live ticker and
// returns once apply has received it.
func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

func (c *fakeClock) tick() {
	c.mu.Lock()
	c.now = c.now.Add(c.interval)
	now, ticks := c.now, c.ticks
	c.mu.Unlock()
	ticks <- now
}

// recorder collects events.
type recorder struct{ events []Event }

func (r *recorder) Event(e Event) { r.events = append(r.events, e) }

func (r *recorder) types() []string {
	var out []string
	for _, e := range r.events {
		s := string(e.Type)
		if e.Address != "" {
			s += " " + e.Address
		}
		out = append(out, s)
	}
	return out
}

var errTestWrite = errors.New("test write failure")

func hasChildKinds(parent plan.Kind) bool {
	for _, k := range plan.Kinds() {
		if k.Parent() == parent {
			return true
		}
	}
	return false
}
