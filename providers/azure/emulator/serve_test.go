package emulator

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer is an io.Writer safe to read while Serve writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

type served struct {
	Served
	stop func() error
	out  *syncBuffer
}

func startServe(t *testing.T, opts ServeOptions) served {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan served, 1)
	opts.Ready = func(s Served) { ready <- served{Served: s} }
	out := &syncBuffer{}
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, opts, out) }()
	select {
	case s := <-ready:
		s.out = out
		s.stop = func() error { cancel(); return <-done }
		return s
	case err := <-done:
		cancel()
		t.Fatalf("serve: %v", err)
	case <-time.After(5 * time.Second):
		cancel()
		t.Fatal("serve did not start")
	}
	return served{}
}

// seedState writes a state file holding the test baseline.
func seedState(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "state.json")
	e, err := Open(Options{StatePath: path})
	if err != nil {
		t.Fatal(err)
	}
	newEnvFor(t, e, e.Transport(), Endpoint)
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestServePlainHTTP(t *testing.T) {
	path := seedState(t)
	s := startServe(t, ServeOptions{Options: Options{StatePath: path}})
	if !strings.HasPrefix(s.Endpoint, "http://127.0.0.1:") || !strings.Contains(s.out.String(), s.Endpoint) {
		t.Fatalf("endpoint %q, output %q", s.Endpoint, s.out.String())
	}
	if len(s.Token) != 64 || strings.Contains(s.out.String(), s.Token) {
		t.Errorf("token %q: want 32 random bytes in hex, told only to Ready", s.Token)
	}
	// What `curl -H "Authorization: Bearer $token" $endpoint/subscriptions/…/virtualNetworks/vnet?api-version=…` does.
	code, body := call(t, "GET", s.Endpoint+id("virtualNetworks", "vnet")+apiVersion, "", "Authorization", "Bearer "+s.Token)
	if code != http.StatusOK || !strings.Contains(body, `"name":"vnet"`) {
		t.Fatalf("GET: %d %s", code, body)
	}
	if err := s.stop(); err != nil {
		t.Fatal(err)
	}
}

func TestServeTLSWithSDK(t *testing.T) {
	path := seedState(t)
	certFile := filepath.Join(t.TempDir(), "cert.pem")
	// The SDK helpers authenticate as fakeCredential.
	s := startServe(t, ServeOptions{Options: Options{StatePath: path}, TLS: true, CertFile: certFile, Token: "fake-token"})
	pool := x509.NewCertPool()
	pool.AddCert(s.Cert)
	rt := &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}}
	en := newEnvFor(t, nil, rt, s.Endpoint)
	pip := en.putPIP("served")
	if *pip.Properties.IPAddress == "" {
		t.Fatal("no address")
	}
	if err := s.stop(); err != nil {
		t.Fatal(err)
	}
	// The state was saved on shutdown: a new emulator sees the public IP.
	e, err := Open(Options{StatePath: path})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if w := do(t, e, "GET", id("publicIPAddresses", "served")+apiVersion, ""); w.Code != http.StatusOK {
		t.Fatalf("after restart: %d", w.Code)
	}
}

// call sends one request and returns the status and body.
func call(t *testing.T, method, url, body string, header ...string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		if header[i] == "Host" {
			req.Host = header[i+1]
		} else {
			req.Header.Set(header[i], header[i+1])
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(data)
}

// TestServeGuard checks what a served emulator refuses (Guarded): every
// refusal is an ARM error envelope.
func TestServeGuard(t *testing.T) {
	path := seedState(t)
	s := startServe(t, ServeOptions{Options: Options{StatePath: path}, Token: "t0ken"})
	defer func() {
		if err := s.stop(); err != nil {
			t.Error(err)
		}
	}()
	vnet := s.Endpoint + id("virtualNetworks", "vnet") + apiVersion
	pip := s.Endpoint + id("publicIPAddresses", "guarded") + apiVersion
	const pipBody = `{"location":"eastus","sku":{"name":"Standard"},"properties":{"publicIPAllocationMethod":"Static"}}`
	auth := []string{"Authorization", "Bearer t0ken"}
	tests := []struct {
		name, method, url, body string
		header                  []string
		status                  int
		code                    string
	}{
		{"no token", "GET", vnet, "", nil, 401, "AuthenticationFailed"},
		{"wrong token", "GET", vnet, "", []string{"Authorization", "Bearer nope"}, 401, "InvalidAuthenticationToken"},
		{"not bearer", "GET", vnet, "", []string{"Authorization", "Basic t0ken"}, 401, "InvalidAuthenticationToken"},
		{"DNS rebinding host", "GET", vnet, "", append([]string{"Host", "evil.example"}, auth...), 403, "InvalidHostHeader"},
		{"rebinding host with port", "GET", vnet, "", append([]string{"Host", "evil.example:80"}, auth...), 403, "InvalidHostHeader"},
		{"form post body", "PUT", pip, pipBody, append([]string{"Content-Type", "application/x-www-form-urlencoded"}, auth...), 415, "UnsupportedMediaType"},
		{"no content type", "PUT", pip, pipBody, auth, 415, "UnsupportedMediaType"},
		{"JSON type, not JSON", "PUT", pip, "location=eastus", append([]string{"Content-Type", "application/json"}, auth...), 400, "InvalidRequestContent"},
		{"localhost host", "GET", vnet, "", append([]string{"Host", "localhost"}, auth...), 200, ""},
		{"JSON PUT", "PUT", pip, pipBody, append([]string{"Content-Type", "application/json; charset=utf-8"}, auth...), 201, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, body := call(t, tt.method, tt.url, tt.body, tt.header...)
			if code != tt.status {
				t.Fatalf("status %d, want %d: %s", code, tt.status, body)
			}
			if tt.code == "" {
				return
			}
			var env struct {
				Error struct{ Code, Message string } `json:"error"`
			}
			if err := json.Unmarshal([]byte(body), &env); err != nil || env.Error.Code != tt.code || env.Error.Message == "" {
				t.Errorf("body %s: want an ARM error envelope with code %s", body, tt.code)
			}
		})
	}
}

// emulator serve --write-budget 1/1m --operation-polls 1 --stats: the
// served emulator throttles the second write, keeps its operations in
// progress for one poll, and prints what it served on shutdown.
func TestServeBudgetPollsAndStats(t *testing.T) {
	path := seedState(t)
	s := startServe(t, ServeOptions{Options: Options{StatePath: path, InProgressPolls: 1, WriteBudget: 1, WriteWindow: time.Minute}, Stats: true})
	put := func(name string) *http.Response {
		req, _ := http.NewRequest(http.MethodPut, s.Endpoint+id("publicIPAddresses", name)+apiVersion, strings.NewReader(`{"location":"eastus"}`))
		req.Header.Set("Authorization", "Bearer "+s.Token)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	first := put("a")
	if first.StatusCode != http.StatusCreated || first.Header.Get("Azure-AsyncOperation") == "" ||
		first.Header.Get("x-ms-ratelimit-remaining-subscription-writes") != "0" {
		t.Fatalf("first write: %d %v", first.StatusCode, first.Header)
	}
	if second := put("b"); second.StatusCode != http.StatusTooManyRequests || second.Header.Get("Retry-After") == "" {
		t.Fatalf("second write: %d %v", second.StatusCode, second.Header)
	}
	if err := s.stop(); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(s.out.String(), "emulator requests=2 get=0 list=0 put=2") {
		t.Fatalf("no request counts on shutdown:\n%s", s.out.String())
	}
}
