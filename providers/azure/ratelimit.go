package azure

import (
	"net/http"
	"strconv"
	"sync"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
)

// The headers in which ARM says how many writes the subscription has left
// (arm-rules §2.3): the classic one, and the global one newer ARM sends.
var remainingWritesHeaders = []string{
	"x-ms-ratelimit-remaining-subscription-writes",
	"x-ms-ratelimit-remaining-subscription-global-writes",
}

// rateLimits keeps what the last response that carried a remaining-writes
// header said; apply paces itself from it (apply.RateLimited).
type rateLimits struct {
	mu     sync.Mutex
	writes int
	known  bool
}

// Do is a per-retry pipeline policy. It reads the answers to writes ARM
// accepted: a 429's "0 left" is ARM's Retry-After's business (apply's
// retries), and the answers to reads and polls say nothing of writes.
func (rl *rateLimits) Do(req *policy.Request) (*http.Response, error) {
	resp, err := req.Next()
	if resp != nil && resp.StatusCode < http.StatusBadRequest && isWriteMethod(req.Raw().Method) {
		rl.observe(resp.Header)
	}
	return resp, err
}

func isWriteMethod(m string) bool {
	return m == http.MethodPut || m == http.MethodPatch || m == http.MethodDelete || m == http.MethodPost
}

func (rl *rateLimits) observe(h http.Header) {
	least, found := 0, false
	for _, name := range remainingWritesHeaders {
		if n, err := strconv.Atoi(h.Get(name)); err == nil && n >= 0 && (!found || n < least) {
			least, found = n, true
		}
	}
	if !found {
		return
	}
	rl.mu.Lock()
	rl.writes, rl.known = least, true
	rl.mu.Unlock()
}

// RemainingWrites is the number of writes ARM last said the subscription
// has left; ok is false until a response said so. It makes the provider
// an apply.RateLimited.
func (p *Provider) RemainingWrites() (n int, ok bool) {
	p.limits.mu.Lock()
	defer p.limits.mu.Unlock()
	return p.limits.writes, p.limits.known
}
