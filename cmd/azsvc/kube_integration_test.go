package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/netip"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/azsvc/azsvc/providers/azure/emulator"
	"github.com/azsvc/azsvc/providers/kube"
)

// TestKubeCluster runs azsvc against a real kube-apiserver (with etcd) and
// the in-process ARM emulator: cluster reads with the RBAC of
// examples/rbac, the lease CCM takes turns on, status writes, convergence,
// the error messages, and the reads a plan costs at 5,000 Services. It
// needs hack/kube-apiserver/run.sh (see kubeAPIServerEnv); .ci/run runs it.
func TestKubeCluster(t *testing.T) {
	k := loadKubeEnv(t)
	// Every azsvc command below runs as user "azsvc", bound to exactly
	// examples/rbac/clusterrole.yaml: if it lacks a permission, they fail.
	k.applyManifests(t, "../../examples/rbac/clusterrole.yaml")
	k.nodes(t)
	// First: the workflows read every namespace (-A).
	t.Run("the CI apply workflows", k.testApplyWorkflows)
	t.Run("plan and apply from the cluster", k.testPlanApply)
	t.Run("nodes in IP-based pools", k.testNodeIPPools)
	t.Run("a saved plan from the cluster", k.testSavedPlan)
	t.Run("CCM holds the lease", k.testCCMHolds)
	t.Run("two applies at once", k.testTwoApplies)
	t.Run("changed before the lease was taken", k.testChangedBeforeLease)
	t.Run("Ctrl-C releases the lease", k.testCtrlC)
	t.Run("partial failure releases the lease", k.testPartial)
	t.Run("prune over part of the cluster", k.testPrunePartial)
	t.Run("a saved plan with KUBECONFIG only", k.testSavedPlanEnv)
	t.Run("a saved plan whose Service changed", k.testSavedPlanStale)
	t.Run("update-status without the permission", k.testStatusForbidden)
	t.Run("errors", k.testErrors)
	t.Run("reads per plan at 5,000 Services", k.testScale)
}

// args are the flags of a command against namespace ns as user azsvc.
func (k *kubeEnv) args(cmd, ns string, extra ...string) []string {
	args := []string{"--settings", "../../examples/azsvc.yaml", cmd, "--from-cluster", "-n", ns,
		"--kubeconfig", k.kubeconfig, "--context", "azsvc"}
	return append(args, extra...)
}

func newEmulator(t *testing.T, faults ...emulator.Fault) *emulator.Emulator {
	t.Helper()
	emu, err := emulator.Open(emulator.Options{InstantOperations: true, Faults: faults})
	if err != nil {
		t.Fatal(err)
	}
	return emu
}

func slowWrites(d time.Duration) emulator.Fault {
	return emulator.Fault{Kind: emulator.FaultLatency, Method: http.MethodPut, Latency: d}
}

func (k *kubeEnv) testPlanApply(t *testing.T) {
	ns := k.ns("shop")
	k.shopFixtures(t, ns)
	c := newCLI(t)
	c.emulator = newEmulator(t, slowWrites(200*time.Millisecond))
	sum, js := planSummary(t, c, k.args("plan", ns)...)
	if sum["create"].(float64) == 0 || sum["delete"].(float64) != 0 {
		t.Fatalf("first plan summary %v", sum)
	}
	// Names come from the UIDs the API server gave (ccm-semantics §2.1).
	for _, name := range []string{"web", "api"} {
		uid := strings.ReplaceAll(k.serviceUID(t, ns, name), "-", "")
		if !strings.Contains(js, "a"+uid[:31]) {
			t.Errorf("the plan does not name %s/%s after its UID %s", ns, name, uid)
		}
	}
	if strings.Contains(js, `"name": "classy"`) || strings.Contains(js, `"name": "plain"`) {
		t.Errorf("the plan includes a Service CCM does not reconcile")
	}

	holders := k.watchLease(t)
	res := c.run(k.args("apply", ns, "--auto-approve", "--update-status", "-v")...)
	seen := holders()
	if res.code != exitOK {
		t.Fatalf("apply: exit %d\n%s", res.code, res.stderr)
	}
	if !seen[kube.Holder()] {
		t.Errorf("the lease was never held by %s during apply; holders seen: %v", kube.Holder(), seen)
	}
	k.checkReleased(t)
	web, api := k.ingress(t, ns, "web"), k.ingress(t, ns, "api")
	if len(web) != 1 || !netip.MustParseAddr(web[0]).IsGlobalUnicast() || len(api) != 1 ||
		!netip.MustParsePrefix("10.224.0.0/16").Contains(netip.MustParseAddr(api[0])) {
		t.Errorf("status after apply: web %v, api %v (want a public IP and one in the node subnet)", web, api)
	}

	res = c.run(k.args("plan", ns, "--detailed-exitcode")...)
	if res.code != exitOK || !strings.Contains(res.stdout, "No changes.") {
		t.Fatalf("second plan is not empty: exit %d\n%s\n%s", res.code, res.stdout, res.stderr)
	}
	res = c.run(k.args("apply", ns, "--auto-approve", "--update-status")...)
	if res.code != exitOK || strings.Contains(res.stderr, "Updated status") {
		t.Errorf("converged apply: exit %d, status written again:\n%s", res.code, res.stderr)
	}

	// A pull request's manifest replaces the cluster's copy and keeps its
	// UID: a changed annotation is an update, not a new frontend.
	pr := filepath.Join(c.dir, "web.yaml")
	writeFile(t, pr, `apiVersion: v1
kind: Service
metadata:
  name: web
  annotations:
    service.beta.kubernetes.io/azure-dns-label-name: shop-web
spec:
  type: LoadBalancer
  ports:
  - name: web
    port: 80
    targetPort: 8080
`)
	sum, _ = planSummary(t, c, k.args("plan", ns, "-f", pr)...)
	if sum["update"].(float64) == 0 || sum["create"].(float64) != 0 || sum["delete"].(float64) != 0 {
		t.Errorf("plan of a pull request over the cluster: %v, want only updates", sum)
	}
}

// testSavedPlan: a plan made --from-cluster records the cluster's objects,
// so apply FILE makes the same plan again from them, under the lease, and
// writes the status.
func (k *kubeEnv) testSavedPlan(t *testing.T) {
	ns, c, file := k.savedPlan(t, "saved", true)
	k.applySaved(t, c, ns, file, "--kubeconfig", k.kubeconfig, "--context", "azsvc")
	if res := c.run(k.args("plan", ns, "--detailed-exitcode")...); res.code != exitOK {
		t.Errorf("plan after the saved plan: exit %d\n%s", res.code, res.stdout)
	}
}

// watchLease polls the lease until the returned function is called, and
// returns the holders it saw.
func (k *kubeEnv) watchLease(t *testing.T) func() map[string]bool {
	stop, done := make(chan struct{}), make(chan map[string]bool)
	go func() {
		seen := map[string]bool{}
		for {
			select {
			case <-stop:
				done <- seen
				return
			case <-time.After(20 * time.Millisecond):
			}
			if l, ok := k.lease(t); ok {
				seen[l.holder()] = true
			}
		}
	}()
	return func() map[string]bool { close(stop); return <-done }
}

// waitHeld waits until azsvc holds the lease.
func (k *kubeEnv) waitHeld(t *testing.T) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if l, ok := k.lease(t); ok && l.holder() == kube.Holder() {
			return
		}
	}
	t.Fatal("azsvc never took the lease")
}

func (k *kubeEnv) checkReleased(t *testing.T) {
	t.Helper()
	l, ok := k.lease(t)
	if !ok || l.holder() != "" || l.Metadata.Annotations["aks-managed-resource-locker-previous-holder"] != kube.Holder() {
		t.Errorf("lease after apply: exists %v, holder %q, annotations %v; want released by %s", ok, l.holder(), l.Metadata.Annotations, kube.Holder())
	}
}

// setLease makes holder the lease's holder, renewed at renewed.
func (k *kubeEnv) setLease(t *testing.T, holder string, renewed time.Time) {
	t.Helper()
	var l map[string]any
	k.must(t, http.MethodGet, leasePath, nil, &l)
	spec := l["spec"].(map[string]any)
	spec["holderIdentity"] = holder
	spec["renewTime"] = renewed.UTC().Format("2006-01-02T15:04:05.000000Z")
	spec["leaseDurationSeconds"] = 900
	k.must(t, http.MethodPut, leasePath, l, nil)
}

func (k *kubeEnv) testCCMHolds(t *testing.T) {
	ns := k.ns("ccm")
	k.shopFixtures(t, ns)
	c := newCLI(t)
	c.emulator = newEmulator(t)
	k.setLease(t, "cloud-controller-manager", time.Now())
	res := c.run(k.args("apply", ns, "--auto-approve")...)
	if res.code != exitRuntime || !strings.Contains(res.stderr, `held by "cloud-controller-manager"`) {
		t.Fatalf("apply while CCM holds the lease: exit %d\n%s", res.code, res.stderr)
	}
	if n := c.emulator.Counters().Writes(""); n != 0 {
		t.Errorf("a refused apply wrote %d times", n)
	}
	if l, _ := k.lease(t); l.holder() != "cloud-controller-manager" {
		t.Errorf("a refused apply changed the lease: holder %q", l.holder())
	}
	// --no-lock applies anyway and leaves the lease alone.
	other := k.ns("nolock")
	k.shopFixtures(t, other)
	if res = c.run(k.args("apply", other, "--auto-approve", "--no-lock")...); res.code != exitOK || c.emulator.Counters().Writes("") == 0 {
		t.Fatalf("apply --no-lock while CCM holds the lease: exit %d\n%s", res.code, res.stderr)
	}
	if n := strings.Count(res.stderr, `warning: --no-lock: the lease kube-system/aks-managed-resource-locker is held by "cloud-controller-manager" until `); n != 1 {
		t.Errorf("apply --no-lock while CCM holds the lease: %d warnings naming the holder, want 1:\n%s", n, res.stderr)
	}
	if l, _ := k.lease(t); l.holder() != "cloud-controller-manager" {
		t.Errorf("apply --no-lock changed the lease: holder %q", l.holder())
	}
	// An expired lease is taken over, as CCM does.
	k.setLease(t, "cloud-controller-manager", time.Now().Add(-16*time.Minute))
	if res = c.run(k.args("apply", ns, "--auto-approve")...); res.code != exitOK {
		t.Fatalf("apply over an expired lease: exit %d\n%s", res.code, res.stderr)
	}
	k.checkReleased(t)
}

// liveRun is an azsvc run in a goroutine whose stderr can be read while it
// runs.
type liveRun struct {
	stdout, stderr syncBuffer
	code           chan int
}

func startAzsvc(ctx context.Context, c *cli, stdin io.Reader, tty bool, args ...string) *liveRun {
	r := &liveRun{code: make(chan int, 1)}
	a := &app{
		io:       &IOStreams{In: stdin, Out: &r.stdout, ErrOut: &r.stderr, InTTY: tty, ErrTTY: tty},
		build:    buildInfo{Version: "v0.0.0-test"},
		dir:      c.dir,
		emulator: c.emulator,
	}
	go func() { r.code <- run(ctx, a, args) }()
	return r
}

func (k *kubeEnv) testTwoApplies(t *testing.T) {
	ns := k.ns("race")
	k.shopFixtures(t, ns)
	c := newCLI(t)
	c.emulator = newEmulator(t, slowWrites(2*time.Second))
	first := startAzsvc(context.Background(), c, nil, false, k.args("apply", ns, "--auto-approve", "-o", "json")...)
	k.waitHeld(t)
	second := c.run(k.args("apply", ns, "--auto-approve")...)
	if second.code != exitRuntime || !strings.Contains(second.stderr, `is held by "`+kube.Holder()+`"`) ||
		!strings.Contains(second.stderr, "another azsvc apply is running") {
		t.Errorf("second apply: exit %d, want 1 naming the holder:\n%s", second.code, second.stderr)
	}
	if code := <-first.code; code != exitOK {
		t.Fatalf("first apply: exit %d\n%s", code, first.stderr.String())
	}
	applied := summaryApplied(t, first.stdout.String())
	if writes := c.emulator.Counters().Writes(""); writes != applied || applied == 0 {
		t.Errorf("%d writes for %d applied steps: something was written twice", writes, applied)
	}
	k.checkReleased(t)
	res := c.run(k.args("apply", ns, "--auto-approve")...)
	if res.code != exitOK || !strings.Contains(res.stdout, "No changes.") || c.emulator.Counters().Writes("") != applied {
		t.Errorf("apply after both: exit %d, %d writes\n%s", res.code, c.emulator.Counters().Writes(""), res.stdout)
	}
}

// summaryApplied is the applied-step count of apply -o json's summary.
func summaryApplied(t *testing.T, out string) int {
	t.Helper()
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var ev struct {
			Type    string
			Summary *struct{ Applied int }
		}
		if json.Unmarshal([]byte(line), &ev) == nil && ev.Summary != nil {
			return ev.Summary.Applied
		}
	}
	t.Fatalf("no summary event in:\n%s", out)
	return 0
}

// testChangedBeforeLease: an apply that planned, then waited at the prompt
// while another apply made the same changes, takes the free lease, finds
// its plan stale and writes nothing (exit 5).
func (k *kubeEnv) testChangedBeforeLease(t *testing.T) {
	ns := k.ns("stale")
	k.shopFixtures(t, ns)
	c := newCLI(t)
	c.emulator = newEmulator(t)
	stdin, answer := io.Pipe()
	waiting := startAzsvc(context.Background(), c, stdin, true, k.args("apply", ns)...)
	for deadline := time.Now().Add(30 * time.Second); !strings.Contains(waiting.stderr.String(), "Enter a value:"); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no prompt:\n%s", waiting.stderr.String())
		}
	}
	if res := c.run(k.args("apply", ns, "--auto-approve")...); res.code != exitOK {
		t.Fatalf("the other apply: exit %d\n%s", res.code, res.stderr)
	}
	writes := c.emulator.Counters().Writes("")
	if _, err := answer.Write([]byte("yes\n")); err != nil {
		t.Fatal(err)
	}
	if code := <-waiting.code; code != exitStale || !strings.Contains(waiting.stderr.String(), "since the plan was made") {
		t.Errorf("apply of a plan made stale before the lease: exit %d\n%s", code, waiting.stderr.String())
	}
	if n := c.emulator.Counters().Writes(""); n != writes {
		t.Errorf("the stale apply wrote %d times", n-writes)
	}
	k.checkReleased(t)
}

func (k *kubeEnv) testCtrlC(t *testing.T) {
	ns := k.ns("intr")
	k.shopFixtures(t, ns)
	c := newCLI(t)
	c.emulator = newEmulator(t, slowWrites(time.Second))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r := startAzsvc(ctx, c, nil, false, k.args("apply", ns, "--auto-approve")...)
	k.waitHeld(t)
	cancel()
	if code := <-r.code; code != exitInterrupted {
		t.Errorf("interrupted apply: exit %d\n%s", code, r.stderr.String())
	}
	k.checkReleased(t)
}

func (k *kubeEnv) testPartial(t *testing.T) {
	ns := k.ns("part")
	k.shopFixtures(t, ns)
	c := newCLI(t)
	c.emulator = newEmulator(t, emulator.Fault{Kind: emulator.FaultFailOperation, Method: http.MethodPut, Nth: 2})
	res := c.run(k.args("apply", ns, "--auto-approve", "--update-status")...)
	if res.code != exitPartial {
		t.Errorf("apply with a failed operation: exit %d\n%s", res.code, res.stderr)
	}
	k.checkReleased(t)
	if ips := k.ingress(t, ns, "web"); len(ips) != 0 {
		t.Errorf("status written after a partial apply: %v", ips)
	}
}

func (k *kubeEnv) testErrors(t *testing.T) {
	// "narrow" may list Services and Nodes, not EndpointSlices.
	k.createAll(t, 2, func(i int) string {
		return "/apis/rbac.authorization.k8s.io/v1/" + []string{"clusterroles", "clusterrolebindings"}[i]
	}, func(i int) any {
		if i == 0 {
			return map[string]any{"metadata": map[string]any{"name": "azsvc-narrow"},
				"rules": []any{map[string]any{"apiGroups": []string{""}, "resources": []string{"services", "nodes"}, "verbs": []string{"list"}}}}
		}
		return map[string]any{"metadata": map[string]any{"name": "azsvc-narrow"},
			"roleRef":  map[string]any{"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": "azsvc-narrow"},
			"subjects": []any{map[string]any{"apiGroup": "rbac.authorization.k8s.io", "kind": "User", "name": "narrow"}}}
	})
	ca := filepath.Join(k.dir, "certs", "apiserver.crt")
	shop := k.ns("shop")
	k.waitAllowed(t, "narrow", "list", "services", shop)
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"missing RBAC", []string{"--kubeconfig", k.kubeconfig, "--context", "narrow"},
			`RBAC: not allowed to list endpointslices (API group "discovery.k8s.io") in namespace "` + shop + `"`},
		{"expired credentials", []string{"--kubeconfig", writeKubeconfig(t, k.server, ca, "expired-token")},
			"rejected the credentials (missing, invalid or expired)"},
		{"unreachable", []string{"--kubeconfig", writeKubeconfig(t, "https://127.0.0.1:1", ca, "t")},
			"cannot reach the Kubernetes API server"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newCLI(t)
			c.emulator = newEmulator(t)
			args := append([]string{"--settings", "../../examples/azsvc.yaml", "plan", "--from-cluster", "-n", shop}, tt.args...)
			res := c.run(args...)
			if res.code != exitRuntime || !strings.Contains(res.stderr, tt.want) {
				t.Errorf("exit %d, want 1 with %q:\n%s", res.code, tt.want, res.stderr)
			}
		})
	}
}

// waitAllowed waits until the API server's authorizer lets user verb
// resource in ns: RBAC objects just created take effect only once its
// informers have seen them, and a test run at once read "clusterrole not
// found".
func (k *kubeEnv) waitAllowed(t *testing.T, user, verb, resource, ns string) {
	t.Helper()
	review := map[string]any{"apiVersion": "authorization.k8s.io/v1", "kind": "SubjectAccessReview",
		"spec": map[string]any{"user": user, "resourceAttributes": map[string]any{"verb": verb, "resource": resource, "namespace": ns}}}
	deadline := time.Now().Add(30 * time.Second)
	for {
		var out struct {
			Status struct {
				Allowed bool `json:"allowed"`
			} `json:"status"`
		}
		k.must(t, http.MethodPost, "/apis/authorization.k8s.io/v1/subjectaccessreviews", review, &out)
		if out.Status.Allowed {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s still may not %s %s in %s after 30s", user, verb, resource, ns)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// applySaved applies the saved plan file with --update-status and extra
// flags, and checks that it held the lease while writing, released it,
// and wrote web's status.
func (k *kubeEnv) applySaved(t *testing.T, c *cli, ns, file string, extra ...string) {
	t.Helper()
	holders := k.watchLease(t)
	args := append([]string{"--settings", "../../examples/azsvc.yaml", "apply", file}, extra...)
	res := c.run(append(args, "--auto-approve", "--update-status")...)
	seen := holders()
	if res.code != exitOK {
		t.Fatalf("apply %s %v: exit %d\n%s", file, extra, res.code, res.stderr)
	}
	if !seen[kube.Holder()] {
		t.Errorf("the lease was never held during apply of the saved plan %v; holders seen: %v", extra, seen)
	}
	k.checkReleased(t)
	if web := k.ingress(t, ns, "web"); len(web) != 1 {
		t.Errorf("status of web after applying the saved plan: %v", web)
	}
}

// savedPlan plans the shop fixtures of a fresh namespace named after name
// --from-cluster and saves the plan; slow writes keep a later apply's lease
// held long enough for watchLease to see it.
func (k *kubeEnv) savedPlan(t *testing.T, name string, slow bool) (ns string, c *cli, file string) {
	t.Helper()
	ns = k.ns(name)
	k.shopFixtures(t, ns)
	c = newCLI(t)
	if slow {
		c.emulator = newEmulator(t, slowWrites(100*time.Millisecond))
	} else {
		c.emulator = newEmulator(t)
	}
	file = filepath.Join(c.dir, "plan.json")
	if res := c.run(k.args("plan", ns, "--out", file)...); res.code != exitOK {
		t.Fatalf("plan --out: exit %d\n%s", res.code, res.stderr)
	}
	return ns, c, file
}
