package emulator

import (
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"time"
)

// FaultKind is what an injected fault does to a matching request.
type FaultKind int

const (
	FaultThrottle      FaultKind = iota + 1 // 429 TooManyRequests with Retry-After
	FaultInternalError                      // 500 InternalServerError
	FaultUnavailable                        // 503 ServiceUnavailable
	FaultConflict                           // 409 AnotherOperationInProgress (arm-rules §2.3)
	FaultFailOperation                      // the write is accepted, its long-running operation ends Failed
	FaultLatency                            // the request is served after Latency
)

// Fault injects a failure into the requests it matches. Method, Type and Name
// are case-insensitive and empty matches anything; Type is an ARM type
// ("Microsoft.Network/loadBalancers") or its last segment ("loadBalancers").
// Method is an HTTP method, or LIST/POLL as counted by Counters.
//
// With Nth > 0 the fault hits the Nth matching request and the Times-1 after
// it (Times 0 means 1). With Nth == 0 it hits each matching request with
// Probability (0 means always), at most Times times (0 means no limit); the
// draw comes from Options.Seed, so a run is reproducible.
type Fault struct {
	Kind        FaultKind
	Method      string
	Type        string
	Name        string
	Nth         int
	Times       int
	Probability float64
	RetryAfter  time.Duration // for FaultThrottle; 0 means 10ms
	Latency     time.Duration // for FaultLatency
	Code        string        // overrides the error code
}

type faultSet struct {
	mu     sync.Mutex
	rng    *rand.Rand
	faults []Fault
	seen   []int // matching requests per fault
	hits   []int // times each fault fired
}

func newFaultSet(seed int64, faults []Fault) *faultSet {
	return &faultSet{
		rng:    rand.New(rand.NewPCG(uint64(seed), 0x5eed)),
		faults: faults, seen: make([]int, len(faults)), hits: make([]int, len(faults)),
	}
}

func (f Fault) matches(method, armType, name string) bool {
	if f.Method != "" && !strings.EqualFold(f.Method, method) {
		return false
	}
	if f.Type != "" && !strings.EqualFold(f.Type, armType) {
		last := armType[strings.LastIndex(armType, "/")+1:]
		if !strings.EqualFold(f.Type, last) {
			return false
		}
	}
	return f.Name == "" || strings.EqualFold(f.Name, name)
}

// pick returns the faults that fire for this request.
func (s *faultSet) pick(method, armType, name string) []Fault {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Fault
	for i, f := range s.faults {
		if !f.matches(method, armType, name) {
			continue
		}
		s.seen[i]++
		if s.fires(i, f) {
			s.hits[i]++
			out = append(out, f)
		}
	}
	return out
}

func (s *faultSet) fires(i int, f Fault) bool {
	if f.Nth > 0 {
		times := max(f.Times, 1)
		return s.seen[i] >= f.Nth && s.seen[i] < f.Nth+times
	}
	if f.Times > 0 && s.hits[i] >= f.Times {
		return false
	}
	return f.Probability <= 0 || s.rng.Float64() < f.Probability
}

// faultError is the response of a fault that fails the request outright.
func faultError(f Fault, w http.ResponseWriter) *armError {
	code := func(def string) string {
		if f.Code != "" {
			return f.Code
		}
		return def
	}
	switch f.Kind {
	case FaultThrottle:
		d := f.RetryAfter
		if d <= 0 {
			d = 10 * time.Millisecond
		}
		setRetryAfter(w.Header(), d)
		// The budget headers ARM sends with a throttled request (arm-rules §2.3).
		w.Header().Set("x-ms-ratelimit-remaining-subscription-writes", "0")
		w.Header().Set("x-ms-ratelimit-remaining-subscription-reads", "0")
		return newErr(http.StatusTooManyRequests, code("TooManyRequests"),
			"The request is being throttled as the limit has been reached for operation type - Write_ObservationWindow_00:05:00.")
	case FaultInternalError:
		return newErr(http.StatusInternalServerError, code("InternalServerError"), "An error occurred.")
	case FaultUnavailable:
		return newErr(http.StatusServiceUnavailable, code("ServiceUnavailable"), "The service is temporarily unavailable.")
	case FaultConflict:
		return newErr(http.StatusConflict, code("AnotherOperationInProgress"),
			"Another operation on this or dependent resource is in progress.")
	}
	return nil
}
