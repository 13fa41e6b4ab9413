package emulator

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// countingReader is a body of n bytes of JSON whitespace that counts what
// was read of it, and hides its length (a chunked upload).
type countingReader struct {
	left int
	read atomic.Int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	if c.left == 0 {
		return 0, io.EOF
	}
	n := min(len(p), c.left)
	for i := range p[:n] {
		p[i] = ' '
	}
	c.left -= n
	c.read.Add(int64(n))
	return n, nil
}

// Issue 21 item 11: ARM refuses a body over 4 MB with 413
// RequestContentTooLarge; the emulator refuses it by its Content-Length
// without reading it, or after reading one byte past the limit.
func TestRequestSizeLimit(t *testing.T) {
	en := newEnv(t, Options{})
	url := Endpoint + id("publicIPAddresses", "big") + apiVersion
	padded := func(n int) string { // a valid body of exactly n bytes
		const head, tail = `{"location":"eastus"`, `}`
		return head + strings.Repeat(" ", n-len(head)-len(tail)) + tail
	}
	serve := func(r *http.Request) *httptest.ResponseRecorder {
		w := httptest.NewRecorder()
		en.e.Handler().ServeHTTP(w, r)
		return w
	}
	if w := serve(httptest.NewRequest("PUT", url, strings.NewReader(padded(maxRequestBody)))); w.Code != http.StatusCreated {
		t.Fatalf("a body of exactly 4 MB: %d %s", w.Code, w.Body.String())
	}
	w := serve(httptest.NewRequest("PUT", url, strings.NewReader(padded(maxRequestBody+1))))
	if w.Code != http.StatusRequestEntityTooLarge || errorCode(t, w) != "RequestContentTooLarge" {
		t.Fatalf("a body one byte over: %d %s", w.Code, w.Body.String())
	}

	declared := &countingReader{left: 60 << 20}
	r := httptest.NewRequest("PUT", url, declared)
	r.ContentLength = 60 << 20
	if w := serve(r); w.Code != http.StatusRequestEntityTooLarge || declared.read.Load() != 0 {
		t.Fatalf("a declared 60 MiB body: %d, %d bytes read", w.Code, declared.read.Load())
	}
	chunked := &countingReader{left: 60 << 20}
	r = httptest.NewRequest("PUT", url, chunked)
	r.ContentLength = -1
	if w := serve(r); w.Code != http.StatusRequestEntityTooLarge || chunked.read.Load() > maxRequestBody+64<<10 {
		t.Fatalf("a chunked 60 MiB body: %d, %d bytes read", w.Code, chunked.read.Load())
	}
}

// The served emulator answers six parallel 60 MiB uploads with 413 each,
// having read a small part of them (Expect: 100-continue lets a client
// hold its body until the server asks for it, as curl does).
func TestServedRefusesLargeBodiesEarly(t *testing.T) {
	s := startServe(t, ServeOptions{Options: Options{StatePath: seedState(t)}, Token: "t"})
	defer s.stop()
	client := &http.Client{Transport: &http.Transport{ExpectContinueTimeout: 5 * time.Second}}
	var wg sync.WaitGroup
	bodies := make([]*countingReader, 6)
	codes := make([]int, 6)
	for i := range bodies {
		bodies[i] = &countingReader{left: 60 << 20}
		wg.Add(1)
		go func() {
			defer wg.Done()
			req, _ := http.NewRequest("PUT", s.Endpoint+id("publicIPAddresses", fmt.Sprint("big", i))+apiVersion, bodies[i])
			req.ContentLength = 60 << 20
			req.Header.Set("Authorization", "Bearer t")
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Expect", "100-continue")
			resp, err := client.Do(req)
			if err != nil {
				t.Errorf("upload %d: %v", i, err)
				return
			}
			resp.Body.Close()
			codes[i] = resp.StatusCode
		}()
	}
	wg.Wait()
	for i, b := range bodies {
		if codes[i] != http.StatusRequestEntityTooLarge || b.read.Load() > maxRequestBody {
			t.Errorf("upload %d: status %d, %d bytes sent", i, codes[i], b.read.Load())
		}
	}
}

// ARM's tag limits: 50 tags, names of 512 characters, values of 256, on
// every write that carries tags (resource, resource group, UpdateTags).
func TestTagLimits(t *testing.T) {
	en := newEnv(t, Options{InstantOperations: true})
	tags := func(n, nameLen, valueLen int) string {
		var parts []string
		for i := range n {
			name := fmt.Sprintf("%03d", i) + strings.Repeat("n", nameLen-3)
			parts = append(parts, fmt.Sprintf("%q:%q", name, strings.Repeat("v", valueLen)))
		}
		return "{" + strings.Join(parts, ",") + "}"
	}
	pip := id("publicIPAddresses", "tagged") + apiVersion
	rg := "/subscriptions/" + testSub + "/resourceGroups/tagged" + rgAPIVersion
	tests := []struct {
		name, method, path, body string
		status                   int
		code                     string
	}{
		{"50 tags at the limits", "PUT", pip, `{"location":"eastus","tags":` + tags(50, 512, 256) + `}`, 201, ""},
		{"51 tags", "PUT", pip, `{"location":"eastus","tags":` + tags(51, 5, 5) + `}`, 400, "TooManyTags"},
		{"name of 513", "PUT", pip, `{"location":"eastus","tags":` + tags(1, 513, 5) + `}`, 400, "InvalidTagNameLength"},
		{"value of 300", "PUT", pip, `{"location":"eastus","tags":` + tags(1, 5, 300) + `}`, 400, "InvalidTagValueLength"},
		{"value of 257 in UpdateTags", "PATCH", pip, `{"tags":` + tags(1, 5, 257) + `}`, 400, "InvalidTagValueLength"},
		{"256 characters, not bytes", "PATCH", pip, `{"tags":{"k":"` + strings.Repeat("é", 256) + `"}}`, 200, ""},
		{"resource group, value of 300", "PUT", rg, `{"location":"eastus","tags":` + tags(1, 5, 300) + `}`, 400, "InvalidTagValueLength"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := do(t, en.e, tt.method, tt.path, tt.body)
			if w.Code != tt.status {
				t.Fatalf("status %d, want %d: %.300s", w.Code, tt.status, w.Body.String())
			}
			if tt.code != "" && errorCode(t, w) != tt.code {
				t.Fatalf("code %s, want %s", errorCode(t, w), tt.code)
			}
		})
	}
}

// The served emulator holds at most maxInFlight requests; one more is
// throttled at once with 429 and Retry-After, which ARM clients wait out.
func TestServedBoundsConcurrentRequests(t *testing.T) {
	// Long enough for every request to arrive while the first hold their slots.
	slow := Fault{Kind: FaultLatency, Method: http.MethodGet, Latency: 1500 * time.Millisecond}
	s := startServe(t, ServeOptions{Options: Options{StatePath: seedState(t), Faults: []Fault{slow}}, Token: "t"})
	defer s.stop()
	const n = maxInFlight + 4
	var wg sync.WaitGroup
	var ok, throttled atomic.Int32
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req, _ := http.NewRequest("GET", s.Endpoint+id("virtualNetworks", "vnet")+apiVersion, nil)
			req.Header.Set("Authorization", "Bearer t")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Error(err)
				return
			}
			resp.Body.Close()
			switch {
			case resp.StatusCode == http.StatusOK:
				ok.Add(1)
			case resp.StatusCode == http.StatusTooManyRequests && resp.Header.Get("Retry-After") == "1" &&
				resp.Header.Get("x-ms-error-code") == "TooManyRequests":
				throttled.Add(1)
			default:
				t.Errorf("status %d %v", resp.StatusCode, resp.Header)
			}
		}()
	}
	wg.Wait()
	if ok.Load() > maxInFlight || throttled.Load() == 0 || ok.Load()+throttled.Load() != n {
		t.Fatalf("%d served, %d throttled of %d at once; want at most %d served", ok.Load(), throttled.Load(), n, maxInFlight)
	}
}
