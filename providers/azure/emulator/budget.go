package emulator

import (
	"fmt"
	"net/http"
	"strconv"
	"time"
)

// writeBudget counts write requests in a sliding window, as ARM counts a
// subscription's Microsoft.Network writes (1,000 per 5 minutes, arm-rules
// §2.3). Options.WriteBudget turns it on; without it the emulator sends no
// x-ms-ratelimit-remaining-subscription-writes header.
type writeBudget struct {
	limit  int
	window time.Duration
	sent   []time.Time // writes within the window, oldest first
}

func newWriteBudget(limit int, window time.Duration) *writeBudget {
	if limit <= 0 {
		return nil
	}
	if window <= 0 {
		window = 5 * time.Minute
	}
	return &writeBudget{limit: limit, window: window}
}

// take spends one write at now. It returns the writes left after it; when
// none was left, ok is false and retryAfter is when the oldest write leaves
// the window.
func (b *writeBudget) take(now time.Time) (left int, retryAfter time.Duration, ok bool) {
	cut := 0
	for cut < len(b.sent) && !b.sent[cut].Add(b.window).After(now) {
		cut++
	}
	b.sent = b.sent[cut:]
	if len(b.sent) >= b.limit {
		return 0, b.sent[0].Add(b.window).Sub(now), false
	}
	b.sent = append(b.sent, now)
	return b.limit - len(b.sent), 0, true
}

func isWrite(method string) bool {
	switch method {
	case MethodPut, MethodPatch, MethodDelete, MethodPost:
		return true
	}
	return false
}

// spendWrite charges a write request to the budget, setting the header
// ARM sends; an *armError when the budget is spent (429 with Retry-After).
func (e *Emulator) spendWrite(w http.ResponseWriter, method string) *armError {
	if e.budget == nil || !isWrite(method) {
		return nil
	}
	left, retry, ok := e.budget.take(time.Now())
	w.Header().Set("x-ms-ratelimit-remaining-subscription-writes", strconv.Itoa(left))
	if ok {
		return nil
	}
	setRetryAfter(w.Header(), retry)
	return newErr(http.StatusTooManyRequests, "TooManyRequests",
		"The request is being throttled as the limit has been reached for operation type - Write_ObservationWindow_%s.", observationWindow(e.budget.window))
}

// observationWindow formats a window as ARM names it, e.g. 00:05:00.
func observationWindow(d time.Duration) string {
	s := int(d.Round(time.Second).Seconds())
	return fmt.Sprintf("%02d:%02d:%02d", s/3600, s/60%60, s%60)
}
