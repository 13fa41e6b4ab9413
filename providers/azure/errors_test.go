package azure

import (
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/runtime"
)

func armResponse(status int, header http.Header, body string) *http.Response {
	if header == nil {
		header = http.Header{}
	}
	req, _ := http.NewRequest(http.MethodPut, "https://emulator.azsvc.local/x", nil)
	return &http.Response{StatusCode: status, Header: header, Body: io.NopCloser(strings.NewReader(body)), Request: req}
}

func TestWrapError(t *testing.T) {
	tests := []struct {
		name       string
		status     int
		header     http.Header
		body       string
		fromPoller bool
		code, msg  string
		retryAfter time.Duration
		failed     bool
	}{
		{
			name:   "412 etag mismatch with details",
			status: 412,
			body:   `{"error":{"code":"PreconditionFailed","message":"Precondition failed.","details":[{"code":"PreconditionFailedEtagMismatch","message":"Etag W/\"a\" does not match W/\"b\"."}]}}`,
			code:   "PreconditionFailed", msg: `Precondition failed. Etag W/"a" does not match W/"b".`,
		},
		{
			name: "429 with Retry-After seconds", status: 429, header: http.Header{"Retry-After": {"7"}},
			body: `{"error":{"code":"RetryableErrorDueToAnotherOperation","message":"busy"}}`,
			code: "RetryableErrorDueToAnotherOperation", msg: "busy", retryAfter: 7 * time.Second,
		},
		{
			name: "Retry-After-Ms wins", status: 503, header: http.Header{"Retry-After": {"7"}, "Retry-After-Ms": {"250"}},
			body: `{"error":{"code":"ServerBusy","message":"later"}}`,
			code: "ServerBusy", msg: "later", retryAfter: 250 * time.Millisecond,
		},
		{
			name: "x-ms-error-code header", status: 409, header: http.Header{"X-Ms-Error-Code": {"AnotherOperationInProgress"}},
			body: `{"error":{"code":"Other","message":"Another operation on this or dependent resource is in progress."}}`,
			code: "AnotherOperationInProgress", msg: "Another operation on this or dependent resource is in progress.",
		},
		{
			name: "failed operation", status: 200, fromPoller: true,
			body: `{"status":"Failed","error":{"code":"InvalidResourceReference","message":"probe p was not found"}}`,
			code: "InvalidResourceReference", msg: "probe p was not found", failed: true,
		},
		{
			name: "body not JSON", status: 502, body: "bad gateway", msg: "bad gateway",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := wrapError("put lb/kubernetes", runtime.NewResponseError(armResponse(tt.status, tt.header, tt.body)), tt.fromPoller)
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("got %T %v, want *Error", err, err)
			}
			if e.StatusCode() != tt.status || e.ErrorCode() != tt.code || e.Message() != tt.msg ||
				e.RetryAfter() != tt.retryAfter || e.OperationFailed() != tt.failed {
				t.Errorf("got status %d code %q message %q retry %v failed %v", e.StatusCode(), e.ErrorCode(), e.Message(), e.RetryAfter(), e.OperationFailed())
			}
			if !strings.HasPrefix(err.Error(), "put lb/kubernetes: ") || strings.Contains(err.Error(), "\n") {
				t.Errorf("message %q: want one line naming the operation", err.Error())
			}
		})
	}
}

func TestWrapErrorWithoutResponse(t *testing.T) {
	cause := errors.New("dial tcp: refused")
	err := wrapError("delete pip/x", cause, false)
	var e *Error
	if errors.As(err, &e) || !errors.Is(err, cause) {
		t.Errorf("got %v: want a plain wrapped error", err)
	}
}

func TestRetryAfterDate(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	h := http.Header{"Retry-After": {now.Add(90 * time.Second).Format(http.TimeFormat)}}
	if got := retryAfter(h, now); got != 90*time.Second {
		t.Errorf("retryAfter(date) = %v, want 90s", got)
	}
	if got := retryAfter(http.Header{"Retry-After": {"soon"}}, now); got != 0 {
		t.Errorf("retryAfter(garbage) = %v, want 0", got)
	}
}
