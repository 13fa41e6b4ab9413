package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// server is `azsvc emulator serve` running in the test.
type server struct {
	endpoint, token string
	stderr          *syncBuffer
	stop            func() int
}

// serve runs `azsvc emulator serve args...` on 127.0.0.1:0 and reads the
// endpoint: and token: lines it prints on stdout.
func serve(t *testing.T, c *cli, args ...string) *server {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	s := &server{stderr: &syncBuffer{}}
	a := &app{io: &IOStreams{In: strings.NewReader(""), Out: pw, ErrOut: s.stderr}, build: buildInfo{Version: "v0.0.0-test"}, dir: c.dir}
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, a, append([]string{"emulator", "serve", "--listen", "127.0.0.1:0"}, args...))
		pw.Close()
	}()
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	for s.endpoint == "" || s.token == "" {
		select {
		case l, ok := <-lines:
			if !ok {
				cancel()
				t.Fatalf("serve exited (code %d) before printing its endpoint and token:\n%s", <-done, s.stderr)
			}
			if v, ok := strings.CutPrefix(l, "endpoint: "); ok {
				s.endpoint = v
			} else if v, ok := strings.CutPrefix(l, "token: "); ok {
				s.token = v
			} else {
				t.Fatalf("unexpected stdout line %q", l)
			}
		case <-time.After(10 * time.Second):
			cancel()
			t.Fatalf("serve printed no endpoint:\n%s", s.stderr)
		}
	}
	// Drain stdout until serve exits, so it never blocks on the pipe.
	go func() {
		for range lines {
		}
	}()
	var once sync.Once
	code := 0
	s.stop = func() int {
		once.Do(func() { cancel(); code = <-done })
		return code
	}
	t.Cleanup(func() { s.stop() })
	return s
}

// get is a curl of one ARM URL with the given headers ("Host" sets the
// Host header).
func get(t *testing.T, url string, header ...string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		if header[i] == "Host" {
			req.Host = header[i+1]
			continue
		}
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// TestServedEmulatorAsTarget: `emulator serve` is an ARM endpoint that
// refuses requests without its token or from a rebinding host, and plan
// and apply with --arm-endpoint and --arm-token converge against it while
// it holds its state file (so they must not open it).
func TestServedEmulatorAsTarget(t *testing.T) {
	c := newCLI(t)
	state := filepath.Join(c.dir, "served.json")
	s := serve(t, c, "--settings", "../../examples/azsvc.yaml", "--state", state, "-f", "../../examples/public-basic",
		"--seed", "../../examples/emulator-seed.json", "--token", "fixed-token")
	if s.token != "fixed-token" || !strings.HasPrefix(s.endpoint, "http://127.0.0.1:") {
		t.Fatalf("endpoint %q, token %q", s.endpoint, s.token)
	}
	lbs := s.endpoint + "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/mc_aks-prod-weu/providers/Microsoft.Network/networkSecurityGroups?api-version=2025-05-01"
	if code, body := get(t, lbs); code != http.StatusUnauthorized || !isARMError(body, "AuthenticationFailed") {
		t.Errorf("no token: %d %s", code, body)
	}
	if code, body := get(t, lbs, "Authorization", "Bearer fixed-token", "Host", "evil.example"); code/100 != 4 || !isARMError(body, "InvalidHostHeader") {
		t.Errorf("Host evil.example: %d %s", code, body)
	}
	if code, body := get(t, lbs, "Authorization", "Bearer fixed-token"); code != http.StatusOK || !strings.Contains(body, "aks-agentpool-nsg") {
		t.Errorf("with the token: %d %s (want the NSG --config seeded)", code, body)
	}
	pip := s.endpoint + "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/mc_aks-prod-weu/providers/Microsoft.Network/publicIPAddresses/shared-ingress-pip?api-version=2025-05-01"
	if code, body := get(t, pip, "Authorization", "Bearer fixed-token"); code != http.StatusOK || !strings.Contains(body, "20.62.10.5") {
		t.Errorf("seeded public IP: %d %s", code, body)
	}

	// The settings choose the emulator and name the very state file serve
	// holds locked: --arm-endpoint wins, and plan and apply must not open
	// that file ("state is in use by another process").
	examples, err := filepath.Abs("../../examples")
	if err != nil {
		t.Fatal(err)
	}
	settings := filepath.Join(c.dir, "azsvc.yaml")
	writeFile(t, settings, "cluster-name: aks-prod-weu\nconfig: "+filepath.Join(examples, "azure.json")+"\ntarget: emulator\nstate: served.json\n")
	args := func(cmd string, extra ...string) []string {
		return append([]string{"--settings", settings, cmd, "-f", "../../examples/public-basic",
			"--arm-endpoint", s.endpoint, "--arm-token", s.token}, extra...)
	}
	saved := filepath.Join(c.dir, "plan.json")
	res := c.run(args("plan", "--out", saved)...)
	if res.code != exitOK || !strings.HasPrefix(res.stdout, "Target:         ARM endpoint "+s.endpoint+"\n") {
		t.Fatalf("plan --out: exit %d\n%s\n%s", res.code, res.stdout, res.stderr)
	}
	if data, err := os.ReadFile(saved); err != nil || strings.Contains(string(data), s.token) {
		t.Fatalf("saved plan holds the token (or cannot be read: %v)", err)
	}
	res = c.run("--settings", settings, "apply", saved, "--arm-endpoint", s.endpoint, "--arm-token", s.token, "--auto-approve")
	if res.code != exitOK || !strings.HasPrefix(res.stdout, "Target:         ARM endpoint "+s.endpoint+"\n") || !strings.Contains(res.stderr, "Apply complete!") {
		t.Fatalf("apply saved plan: exit %d\n%s\n%s", res.code, res.stdout, res.stderr)
	}
	res = c.run(args("apply", "--auto-approve")...)
	if res.code != exitOK || !strings.HasPrefix(res.stdout, "Target:         ARM endpoint "+s.endpoint+"\n") || !strings.Contains(res.stdout, "No changes.") {
		t.Fatalf("apply: exit %d\n%s\n%s", res.code, res.stdout, res.stderr)
	}
	res = c.run(args("plan", "--detailed-exitcode")...)
	if res.code != exitOK || !strings.Contains(res.stdout, "No changes.") {
		t.Fatalf("second plan: exit %d\n%s\n%s", res.code, res.stdout, res.stderr)
	}
	// The token from the environment works too; a wrong one is refused.
	t.Setenv("AZSVC_ARM_TOKEN", "wrong")
	res = c.run("--settings", "../../examples/azsvc.yaml", "plan", "-f", "../../examples/public-basic", "--arm-endpoint", s.endpoint)
	if res.code != exitRuntime || !strings.Contains(res.stderr, "InvalidAuthenticationToken") {
		t.Errorf("wrong token: exit %d\n%s", res.code, res.stderr)
	}
	if code := s.stop(); code != exitOK {
		t.Errorf("serve exited %d on interrupt:\n%s", code, s.stderr)
	}
	// The served state holds what apply made: the embedded emulator on the
	// same file agrees nothing is left to do.
	t.Setenv("AZSVC_ARM_TOKEN", "")
	res = c.run("--settings", "../../examples/azsvc.yaml", "plan", "-f", "../../examples/public-basic", "--state", state, "--detailed-exitcode")
	if res.code != exitOK {
		t.Errorf("plan on the saved state: exit %d\n%s", res.code, res.stdout)
	}
}

func isARMError(body, code string) bool {
	var env struct {
		Error struct{ Code, Message string } `json:"error"`
	}
	return json.Unmarshal([]byte(body), &env) == nil && env.Error.Code == code && env.Error.Message != ""
}

// TestServedEmulatorWithFaults: against throttling, server errors and
// failing operations, apply retries what is transient, stops on what is
// not, and applying again converges.
func TestServedEmulatorWithFaults(t *testing.T) {
	c := newCLI(t)
	s := serve(t, c, "--settings", "../../examples/azsvc.yaml", "--state", filepath.Join(c.dir, "served.json"),
		"-f", "../../examples/pls", "--seed", "../../examples/emulator-seed.json",
		"--faults", "429:0.3,500:0.05,lro-fail:0.15,latency:2ms", "--fault-seed", "3")
	t.Setenv("AZSVC_ARM_TOKEN", s.token)
	args := func(cmd string, extra ...string) []string {
		return append([]string{"--settings", "../../examples/azsvc.yaml", cmd, "-f", "../../examples/pls", "--arm-endpoint", s.endpoint}, extra...)
	}
	var faulted []string
	converged := false
	for attempt := 1; attempt <= 6 && !converged; attempt++ {
		res := c.run(args("apply", "--auto-approve")...)
		t.Logf("apply %d: exit %d, %d retries", attempt, res.code, strings.Count(res.stderr, "retrying in"))
		switch res.code {
		case exitOK:
			converged = true
		case exitPartial, exitRuntime:
		default:
			t.Fatalf("apply %d: exit %d\n%s", attempt, res.code, res.stderr)
		}
		if res.code != exitOK || strings.Contains(res.stderr, "retrying in") {
			faulted = append(faulted, res.stderr)
		}
	}
	if !converged {
		t.Fatalf("apply did not converge in 6 runs:\n%s", strings.Join(faulted, "\n---\n"))
	}
	if len(faulted) == 0 {
		t.Error("no fault fired: the test proves nothing")
	}
	// (The example's one blocked NSG rule is no change.)
	res := c.run(args("plan", "--detailed-exitcode")...)
	if res.code != exitOK || !strings.Contains(res.stdout, "Plan: 0 to create") && !strings.Contains(res.stdout, "No changes") {
		t.Fatalf("plan after convergence: exit %d\n%s\n%s", res.code, res.stdout, res.stderr)
	}
}
