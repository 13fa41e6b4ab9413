package emulator

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
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
	endpoint string
	cert     *x509.Certificate
	stop     func() error
	out      *syncBuffer
}

func startServe(t *testing.T, opts ServeOptions) served {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan served, 1)
	opts.Ready = func(endpoint string, cert *x509.Certificate) { ready <- served{endpoint: endpoint, cert: cert} }
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
	if !strings.HasPrefix(s.endpoint, "http://127.0.0.1:") || !strings.Contains(s.out.String(), s.endpoint) {
		t.Fatalf("endpoint %q, output %q", s.endpoint, s.out.String())
	}
	// What `curl $endpoint/subscriptions/…/virtualNetworks/vnet?api-version=…` does.
	resp, err := http.Get(s.endpoint + id("virtualNetworks", "vnet") + apiVersion)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), `"name":"vnet"`) {
		t.Fatalf("GET: %d %s", resp.StatusCode, body)
	}
	if err := s.stop(); err != nil {
		t.Fatal(err)
	}
}

func TestServeTLSWithSDK(t *testing.T) {
	path := seedState(t)
	certFile := filepath.Join(t.TempDir(), "cert.pem")
	s := startServe(t, ServeOptions{Options: Options{StatePath: path}, TLS: true, CertFile: certFile})
	pool := x509.NewCertPool()
	pool.AddCert(s.cert)
	rt := &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}}
	en := newEnvFor(t, nil, rt, s.endpoint)
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

// emulator serve --write-budget 1/1m --operation-polls 1 --stats: the
// served emulator throttles the second write, keeps its operations in
// progress for one poll, and prints what it served on shutdown.
func TestServeBudgetPollsAndStats(t *testing.T) {
	path := seedState(t)
	s := startServe(t, ServeOptions{Options: Options{StatePath: path, InProgressPolls: 1, WriteBudget: 1, WriteWindow: time.Minute}, Stats: true})
	put := func(name string) *http.Response {
		req, _ := http.NewRequest(http.MethodPut, s.endpoint+id("publicIPAddresses", name)+apiVersion, strings.NewReader(`{"location":"eastus"}`))
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
