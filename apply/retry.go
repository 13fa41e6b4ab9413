package apply

import (
	"errors"
	"net/http"
	"strings"
	"time"
)

// RetryPolicy bounds the retries of one step. Zero fields take the defaults.
type RetryPolicy struct {
	// MaxAttempts counts every try of a step, the first included (default 5).
	MaxAttempts int
	// MaxElapsed is the time budget of one step, retries included: a retry
	// that would start after it is not made (default 5m).
	MaxElapsed time.Duration
	// BaseDelay is the first wait when the server sends no Retry-After; it
	// doubles on each retry (default 2s).
	BaseDelay time.Duration
	// MaxDelay clamps every wait, Retry-After included (default 60s, azcore's
	// own ceiling, arm-rules §2.3).
	MaxDelay time.Duration
}

func (p RetryPolicy) withDefaults() RetryPolicy {
	if p.MaxAttempts <= 0 {
		p.MaxAttempts = 5
	}
	if p.MaxElapsed <= 0 {
		p.MaxElapsed = 5 * time.Minute
	}
	if p.BaseDelay <= 0 {
		p.BaseDelay = 2 * time.Second
	}
	if p.MaxDelay <= 0 {
		p.MaxDelay = 60 * time.Second
	}
	return p
}

// delay is the wait before attempt+1, after attempt failed with err. It is
// deterministic: Retry-After when the server sent one, else BaseDelay
// doubled per retry, both clamped to MaxDelay.
func (p RetryPolicy) delay(attempt int, err error) time.Duration {
	d := time.Duration(0)
	var ae ARMError
	if errors.As(err, &ae) {
		d = ae.RetryAfter()
	}
	if d <= 0 {
		d = p.BaseDelay
		for i := 1; i < attempt && d < p.MaxDelay; i++ {
			d *= 2
		}
	}
	return min(d, p.MaxDelay)
}

// retryable reports whether err is throttling, a transient server error or a
// lock conflict with another operation on the resource.
func retryable(err error) bool {
	var ae ARMError
	if !errors.As(err, &ae) {
		return false
	}
	switch ae.StatusCode() {
	case http.StatusTooManyRequests, http.StatusRequestTimeout,
		http.StatusInternalServerError, http.StatusBadGateway,
		http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return true
	}
	// NRP's lock conflicts are retryable whatever the status (arm-rules §2.3).
	switch strings.ToLower(ae.ErrorCode()) {
	case "anotheroperationinprogress", "retryableerrorduetoanotheroperation", "retryableerror":
		return true
	}
	return false
}

// preconditionFailed reports a 412: the resource's etag moved since plan.
func preconditionFailed(err error) bool {
	var ae ARMError
	return errors.As(err, &ae) && ae.StatusCode() == http.StatusPreconditionFailed
}
