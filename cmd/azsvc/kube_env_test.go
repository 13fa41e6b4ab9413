package main

import (
	"bufio"
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"sigs.k8s.io/yaml"
)

// kubeAPIServerEnv names the directory of a running API server started by
// hack/kube-apiserver/run.sh start DIR; .ci/run sets it.
const kubeAPIServerEnv = "AZSVC_KUBE_APISERVER_DIR"

// kubeEnv is a real kube-apiserver for the integration test, reached over
// plain REST with the tokens run.sh wrote: only providers/kube imports
// client-go, and the fixtures are plain JSON anyway.
type kubeEnv struct {
	dir        string
	kubeconfig string
	server     string
	tokens     map[string]string // user -> token
	client     *http.Client
	// run suffixes the test's namespaces, so the test can run again on the
	// same API server.
	run string
}

func loadKubeEnv(t *testing.T) *kubeEnv {
	t.Helper()
	dir := os.Getenv(kubeAPIServerEnv)
	if dir == "" {
		t.Skipf("no API server: run `hack/kube-apiserver/run.sh start DIR` and set %s=DIR (.ci/run does)", kubeAPIServerEnv)
	}
	k := &kubeEnv{dir: dir, kubeconfig: filepath.Join(dir, "kubeconfig"), tokens: map[string]string{},
		run: strconv.FormatInt(time.Now().Unix()%100000, 36)}
	data, err := os.ReadFile(k.kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	var cfg struct {
		Clusters []struct {
			Cluster struct{ Server string } `json:"cluster"`
		} `json:"clusters"`
	}
	if err := yaml.Unmarshal(data, &cfg); err != nil || len(cfg.Clusters) == 0 {
		t.Fatalf("%s: %v", k.kubeconfig, err)
	}
	k.server = cfg.Clusters[0].Cluster.Server
	tokens, err := os.ReadFile(filepath.Join(dir, "tokens.csv"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(tokens)), "\n") {
		f := strings.Split(strings.TrimSpace(line), ",")
		k.tokens[f[1]] = f[0]
	}
	ca, err := os.ReadFile(filepath.Join(dir, "certs", "apiserver.crt"))
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(ca)
	k.client = &http.Client{Timeout: time.Minute, Transport: &http.Transport{
		TLSClientConfig: &tls.Config{RootCAs: pool}, MaxIdleConnsPerHost: 32}}
	return k
}

// do sends one request as the admin user and returns the status and body.
func (k *kubeEnv) do(t testing.TB, method, path string, body any) (int, []byte) {
	t.Helper()
	var r io.Reader
	if body != nil {
		data, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		r = bytes.NewReader(data)
	}
	req, err := http.NewRequest(method, k.server+path, r)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+k.tokens["admin"])
	req.Header.Set("Content-Type", "application/json")
	resp, err := k.client.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, out
}

// must sends a request that has to succeed; into, when set, gets the body.
func (k *kubeEnv) must(t testing.TB, method, path string, body, into any) {
	t.Helper()
	code, out := k.do(t, method, path, body)
	if code/100 != 2 {
		t.Fatalf("%s %s: %d %s", method, path, code, out)
	}
	if into != nil {
		if err := json.Unmarshal(out, into); err != nil {
			t.Fatalf("%s %s: %v", method, path, err)
		}
	}
}

// ns is the namespace name of this run.
func (k *kubeEnv) ns(name string) string { return name + "-" + k.run }

// createAll POSTs every object to path(i) with a few requests in flight;
// an object that exists already is fine (cluster-scoped fixtures).
func (k *kubeEnv) createAll(t testing.TB, n int, path func(i int) string, obj func(i int) any) {
	t.Helper()
	var wg sync.WaitGroup
	errs := make(chan string, n)
	next := make(chan int)
	for range 16 {
		wg.Go(func() {
			for i := range next {
				if code, out := k.do(t, http.MethodPost, path(i), obj(i)); code != http.StatusCreated && code != http.StatusConflict {
					errs <- fmt.Sprintf("POST %s: %d %s", path(i), code, out)
				}
			}
		})
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Fatal(e)
	}
}

// applyManifests creates every document of a YAML file (the RBAC example),
// at the endpoint of its kind.
func (k *kubeEnv) applyManifests(t *testing.T, path string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, doc := range strings.Split(string(data), "\n---\n") {
		var obj map[string]any
		if err := yaml.Unmarshal([]byte(doc), &obj); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		meta, _ := obj["metadata"].(map[string]any)
		ns, _ := meta["namespace"].(string)
		kind, _ := obj["kind"].(string)
		endpoint := "/apis/rbac.authorization.k8s.io/v1/"
		if ns != "" {
			endpoint += "namespaces/" + ns + "/"
		}
		endpoint += strings.ToLower(kind) + "s"
		if code, out := k.do(t, http.MethodPost, endpoint, obj); code != http.StatusCreated && code != http.StatusConflict {
			t.Fatalf("POST %s: %d %s", endpoint, code, out)
		}
	}
}

// listRequests reads the API server's own count of LIST requests per
// resource (apiserver_request_total), so what azsvc costs the server is
// measured there, not by azsvc.
func (k *kubeEnv) listRequests(t testing.TB) map[string]int {
	t.Helper()
	code, out := k.do(t, http.MethodGet, "/metrics", nil)
	if code != http.StatusOK {
		t.Fatalf("GET /metrics: %d", code)
	}
	counts := map[string]int{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, "apiserver_request_total{") || !strings.Contains(line, `verb="LIST"`) {
			continue
		}
		res := label(line, "resource")
		n, err := strconv.ParseFloat(line[strings.LastIndexByte(line, ' ')+1:], 64)
		if err == nil {
			counts[res] += int(n)
		}
	}
	return counts
}

func label(line, name string) string {
	_, rest, ok := strings.Cut(line, name+`="`)
	if !ok {
		return ""
	}
	v, _, _ := strings.Cut(rest, `"`)
	return v
}

// lease is the Lease CCM and azsvc take turns on, as the server has it.
type leaseState struct {
	Metadata struct {
		Annotations map[string]string `json:"annotations"`
	} `json:"metadata"`
	Spec struct {
		HolderIdentity *string `json:"holderIdentity"`
	} `json:"spec"`
}

func (l leaseState) holder() string {
	if l.Spec.HolderIdentity == nil {
		return ""
	}
	return *l.Spec.HolderIdentity
}

const leasePath = "/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/aks-managed-resource-locker"

func (k *kubeEnv) lease(t testing.TB) (leaseState, bool) {
	t.Helper()
	code, out := k.do(t, http.MethodGet, leasePath, nil)
	var l leaseState
	if code == http.StatusNotFound {
		return l, false
	}
	if code != http.StatusOK {
		t.Fatalf("GET lease: %d %s", code, out)
	}
	if err := json.Unmarshal(out, &l); err != nil {
		t.Fatal(err)
	}
	return l, true
}

// syncBuffer is a bytes.Buffer safe to read while a command writes it.
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
