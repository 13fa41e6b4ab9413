package emulator

import (
	"crypto/subtle"
	"mime"
	"net"
	"net/http"
	"strings"

	"github.com/azsvc/azsvc/plan/cluster"
)

// Guarded is the handler `azsvc emulator serve` exposes: the emulator
// behind the checks a local ARM endpoint needs, since anything on the
// machine (a browser tab included) can reach loopback.
//
//   - The Host header must name loopback (localhost or a loopback address):
//     a DNS rebinding page reaches 127.0.0.1 under its own host name.
//   - Every request carries "Authorization: Bearer <token>"; ARM answers
//     401 with an error envelope otherwise.
//   - Bodies of PUT, PATCH and POST are declared application/json: a form
//     post from a page cannot pass.
//   - At most maxInFlight requests are in the emulator at once; one more is
//     throttled as ARM throttles, 429 with Retry-After.
func (e *Emulator) Guarded(token string) http.Handler {
	return guard{next: e.Handler(), token: token, slots: make(chan struct{}, maxInFlight)}
}

// maxInFlight bounds the requests the served emulator holds: it serves them
// one at a time, so more waiting would only add latency and memory (each
// holds up to maxRequestBody read). Past it a request gets ARM's answer to
// a client sending too much, 429 with Retry-After, which every ARM SDK
// waits out and retries (arm-rules §2.3), instead of piling up.
const maxInFlight = 8

type guard struct {
	next  http.Handler
	token string
	slots chan struct{}
}

func (g guard) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("x-ms-request-id", newGUID())
	if err := g.check(w, r); err != nil {
		writeError(w, err)
		return
	}
	select {
	case g.slots <- struct{}{}:
		defer func() { <-g.slots }()
	default:
		w.Header().Set("Retry-After", "1")
		writeError(w, newErr(http.StatusTooManyRequests, "TooManyRequests",
			"The emulator is serving %d requests; retry after 1 second.", maxInFlight))
		return
	}
	g.next.ServeHTTP(w, r)
}

func (g guard) check(w http.ResponseWriter, r *http.Request) *armError {
	if !loopbackHost(r.Host) {
		return newErr(http.StatusForbidden, "InvalidHostHeader",
			"The Host header %q does not name this machine; the emulator answers only loopback names (localhost, 127.0.0.1, [::1]).", r.Host)
	}
	scheme, tok, _ := strings.Cut(r.Header.Get("Authorization"), " ")
	switch {
	case r.Header.Get("Authorization") == "":
		w.Header().Set("WWW-Authenticate", `Bearer error="invalid_token", error_description="missing Authorization header"`)
		return newErr(http.StatusUnauthorized, "AuthenticationFailed", "Authentication failed. The 'Authorization' header is missing.")
	case g.token == "" || !strings.EqualFold(scheme, "Bearer") || subtle.ConstantTimeCompare([]byte(strings.TrimSpace(tok)), []byte(g.token)) != 1:
		w.Header().Set("WWW-Authenticate", `Bearer error="invalid_token"`)
		return newErr(http.StatusUnauthorized, "InvalidAuthenticationToken", "The access token is invalid.")
	}
	switch r.Method {
	case http.MethodPut, http.MethodPatch, http.MethodPost:
		ct := r.Header.Get("Content-Type")
		if mt, _, err := mime.ParseMediaType(ct); err != nil || mt != "application/json" {
			return newErr(http.StatusUnsupportedMediaType, "UnsupportedMediaType",
				"The content media type '%s' is not supported. Only 'application/json' is supported.", ct)
		}
	}
	return nil
}

// loopbackHost reports whether a Host header (host, host:port, [v6]:port)
// names this machine.
func loopbackHost(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	return cluster.IsLoopbackHost(host)
}
