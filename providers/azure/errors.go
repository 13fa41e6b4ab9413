package azure

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/runtime"
)

// Error is an ARM error response, or a long-running operation that ended
// Failed, in terms apply can classify without importing the SDK: 429 and 5xx
// are transient, 409 AnotherOperationInProgress is retried, 412 means the
// plan is stale (arm-rules §2.3).
type Error struct {
	// Op names what failed, e.g. "put lb/kubernetes".
	Op         string
	status     int
	code       string
	message    string
	retryAfter time.Duration
	failedLRO  bool
	err        error
}

// StatusCode is the HTTP status of the failing response. For a failed
// long-running operation it is the status of the last poll (usually 200).
func (e *Error) StatusCode() int { return e.status }

// ErrorCode is ARM's error code, e.g. PreconditionFailed.
func (e *Error) ErrorCode() string { return e.code }

// Message is ARM's error message, followed by the messages of its details.
func (e *Error) Message() string { return e.message }

// RetryAfter is the delay the response asked for (Retry-After-Ms,
// x-ms-retry-after-ms or Retry-After), zero when it asked for none.
func (e *Error) RetryAfter() time.Duration { return e.retryAfter }

// OperationFailed reports whether the request was accepted and the
// long-running operation then ended Failed or Canceled.
func (e *Error) OperationFailed() bool { return e.failedLRO }

func (e *Error) Error() string {
	what := fmt.Sprintf("HTTP %d", e.status)
	if e.failedLRO {
		what = "operation failed"
	}
	if e.code != "" {
		what += " " + e.code
	}
	if e.message != "" {
		what += ": " + e.message
	}
	return e.Op + ": " + what
}

func (e *Error) Unwrap() error { return e.err }

// wrapError turns an SDK error into an *Error when it carries an ARM
// response, and otherwise just names the operation; nil stays nil.
func wrapError(op string, err error, fromPoller bool) error {
	if err == nil {
		return nil
	}
	var re *azcore.ResponseError
	if !errors.As(err, &re) {
		return fmt.Errorf("%s: %w", op, err)
	}
	e := &Error{Op: op, status: re.StatusCode, code: re.ErrorCode, err: err}
	if resp := re.RawResponse; resp != nil {
		code, msg := decodeErrorBody(resp)
		if e.code == "" {
			e.code = code
		}
		e.message = msg
		e.retryAfter = retryAfter(resp.Header, time.Now())
	}
	e.failedLRO = fromPoller && e.status >= 200 && e.status < 300
	return e
}

// decodeErrorBody reads ARM's envelope {"error":{code,message,details}}, which
// is also the shape of a Failed operation status body (arm-rules §3.2).
func decodeErrorBody(resp *http.Response) (code, message string) {
	raw, err := runtime.Payload(resp)
	if err != nil || len(raw) == 0 {
		return "", ""
	}
	var env struct {
		Error struct {
			Code    string `json:"code"`
			Message string `json:"message"`
			Details []struct {
				Code    string `json:"code"`
				Message string `json:"message"`
			} `json:"details"`
		} `json:"error"`
	}
	if json.Unmarshal(raw, &env) != nil {
		return "", strings.TrimSpace(string(raw))
	}
	parts := []string{env.Error.Message}
	for _, d := range env.Error.Details {
		if d.Message != "" && d.Message != env.Error.Message {
			parts = append(parts, d.Message)
		}
	}
	return env.Error.Code, strings.Join(parts, " ")
}

// retryAfter honours the headers in azcore's order (arm-rules §2.3).
func retryAfter(h http.Header, now time.Time) time.Duration {
	for _, name := range []string{"Retry-After-Ms", "X-Ms-Retry-After-Ms"} {
		if v := h.Get(name); v != "" {
			if ms, err := strconv.Atoi(v); err == nil && ms > 0 {
				return time.Duration(ms) * time.Millisecond
			}
		}
	}
	v := h.Get("Retry-After")
	if v == "" {
		return 0
	}
	if s, err := strconv.Atoi(v); err == nil {
		return max(time.Duration(s)*time.Second, 0)
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0)
	}
	return 0
}
