package apply

import (
	"errors"
	"fmt"
	"testing"
	"time"
)

func TestRetryable(t *testing.T) {
	tests := []struct {
		err  error
		want bool
	}{
		{throttled(0), true},
		{unavailable(), true},
		{&armErr{status: 500, code: "InternalServerError"}, true},
		{&armErr{status: 502}, true},
		{&armErr{status: 504}, true},
		{&armErr{status: 408}, true},
		{lockConflict(), true},
		{&armErr{status: 429, code: "RetryableErrorDueToAnotherOperation"}, true},
		{&armErr{status: 200, code: "AnotherOperationInProgress"}, true}, // a failed LRO's poll result
		{&armErr{status: 409, code: "Conflict"}, false},
		{&armErr{status: 400, code: "InvalidResourceReference"}, false},
		{&armErr{status: 412, code: "PreconditionFailed"}, false},
		{&armErr{status: 404, code: "NotFound"}, false},
		{errors.New("dial tcp: connection refused"), false},
		{fmt.Errorf("wrapped: %w", unavailable()), true},
	}
	for _, tt := range tests {
		if got := retryable(tt.err); got != tt.want {
			t.Errorf("retryable(%v) = %v, want %v", tt.err, got, tt.want)
		}
	}
}

func TestRetryDelay(t *testing.T) {
	p := RetryPolicy{}.withDefaults()
	tests := []struct {
		attempt int
		err     error
		want    time.Duration
	}{
		{1, unavailable(), 2 * time.Second},
		{2, unavailable(), 4 * time.Second},
		{5, unavailable(), 32 * time.Second},
		{6, unavailable(), 60 * time.Second},
		{40, unavailable(), 60 * time.Second},
		{1, throttled(17 * time.Second), 17 * time.Second},
		{3, throttled(17 * time.Second), 17 * time.Second},
		{1, throttled(time.Hour), 60 * time.Second},
	}
	for _, tt := range tests {
		if got := p.delay(tt.attempt, tt.err); got != tt.want {
			t.Errorf("delay(%d, %v) = %s, want %s", tt.attempt, tt.err, got, tt.want)
		}
	}
}
