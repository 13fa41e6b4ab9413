package engine

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/azsvc/azsvc/apply"
	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/service"
	"github.com/azsvc/azsvc/providers/azure"
	"github.com/azsvc/azsvc/providers/azure/emulator"
)

var hostileCases = flag.Int("hostile.cases", 400, "TestHostileAnnotationValues: random values to try")

// TestHostileAnnotationValues is issue 11's property: a random value
// (unicode, control characters, path fragments, huge strings) in any
// annotation that becomes an Azure name, URL segment, DNS label or tag
// either fails validation with a coded error, or is planned and applied
// against the emulator as valid ARM names. Never a 5xx, never a request
// for a URL other than the ones the plan names and the groups it reads.
func TestHostileAnnotationValues(t *testing.T) {
	cfgPath, err := filepath.Abs(filepath.Join(examples, "azure.json"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(11, 11))
	var refused, applied int
	for i := range *hostileCases {
		key, value := hostileAnnotation(rng)
		what := fmt.Sprintf("case %d: %s = %.200q", i, key, value)
		file := filepath.Join(dir, strconv.Itoa(i)+".yaml")
		if err := os.WriteFile(file, hostileManifest(key, value), 0o644); err != nil {
			t.Fatal(err)
		}
		in, err := LoadInputs(Settings{Files: []string{file}, AzureConfig: cfgPath, ClusterName: exampleCluster})
		if err != nil {
			t.Fatalf("%s: load: %v", what, err)
		}
		if in.HasErrors() {
			for _, d := range in.Diagnostics {
				if d.Severity == service.SeverityError && !strings.HasPrefix(d.Code, "AZSVC") {
					t.Fatalf("%s: an error without a code: %+v", what, d)
				}
			}
			refused++
			continue
		}
		applyHostile(t, in, what)
		applied++
	}
	t.Logf("%d values refused by validate, %d planned and applied", refused, applied)
	if refused == 0 || applied == 0 {
		t.Errorf("the generator is lopsided: %d refused, %d applied", refused, applied)
	}
}

// hostileKeys are the annotations whose values reach ARM as names, path
// segments, labels, tags or references, with the context each needs to be
// read at all.
var hostileKeys = []struct {
	key     string
	context map[string]string
}{
	{service.AnnPIPName, nil},
	{service.AnnLoadBalancerResourceGroup, nil},
	{service.AnnDNSLabelName, nil},
	{service.AnnPIPTags, nil},
	{service.AnnPIPPrefixID, nil},
	{service.AnnAllowedServiceTags, nil},
	{service.AnnProbeRequestPath, map[string]string{service.AnnProbeProtocol: "Http"}},
	{service.AnnInternalSubnet, map[string]string{service.AnnInternal: "true"}},
	{service.AnnPLSName, map[string]string{service.AnnInternal: "true", service.AnnPLSCreate: "true", service.AnnPLSIPConfigurationSubnet: "pls-subnet"}},
	{service.AnnPLSResourceGroup, map[string]string{service.AnnInternal: "true", service.AnnPLSCreate: "true", service.AnnPLSIPConfigurationSubnet: "pls-subnet"}},
	{service.AnnPLSIPConfigurationSubnet, map[string]string{service.AnnInternal: "true", service.AnnPLSCreate: "true"}},
	{service.AnnPLSFQDNs, map[string]string{service.AnnInternal: "true", service.AnnPLSCreate: "true", service.AnnPLSIPConfigurationSubnet: "pls-subnet"}},
}

func hostileAnnotation(rng *rand.Rand) (string, string) {
	k := hostileKeys[rng.IntN(len(hostileKeys))]
	return k.key, hostileValue(rng)
}

// hostileValue joins one to four fragments: plain name parts (so that some
// values are valid), path pieces, escapes, controls, unicode, whitespace,
// and now and then a huge run.
func hostileValue(rng *rand.Rand) string {
	fragments := []func() string{
		func() string {
			return []string{"web", "shop-42", "rg-prod", "a", "pip_v4.1", "ilb-subnet"}[rng.IntN(6)]
		},
		func() string {
			return []string{"web", "shop-42", "rg-prod", "a", "pip_v4.1", "ilb-subnet"}[rng.IntN(6)]
		},
		func() string {
			return []string{"../", "..", "/", "%2F", "%2f", "?", "#", "%", "\\", "/../../x", "?api-version=1", "&", "=", ","}[rng.IntN(14)]
		},
		func() string {
			return []string{"\x00", "\x07", "\x1b]0;pwned\x07", "\x1b[2J", "\n", "\r", "\t", "\x7f", "\u0085", "\u009b31m"}[rng.IntN(10)]
		},
		func() string {
			return []string{"é", "ü", "名前", "\u202e", "\u200b", "🙂", "\ufeff", "İ"}[rng.IntN(8)]
		},
		func() string { return []string{" ", "  ", "-", ".", "_", "()", "A", "Z"}[rng.IntN(8)] },
		func() string {
			return strings.Repeat([]string{"a", "-", "é"}[rng.IntN(3)], []int{63, 64, 80, 81, 90, 91, 256, 513, 300 << 10}[rng.IntN(9)])
		},
	}
	var b strings.Builder
	for range 1 + rng.IntN(4) {
		b.WriteString(fragments[rng.IntN(len(fragments))]())
	}
	return b.String()
}

// hostileManifest is one Service carrying the value. Values are written as
// YAML double-quoted scalars with Go's ASCII escapes, which YAML reads back
// as the same characters.
func hostileManifest(key, value string) []byte {
	var b strings.Builder
	b.WriteString("apiVersion: v1\nkind: Service\nmetadata:\n  name: hostile\n  namespace: prop\n  uid: 0b6e3d9a-4c7f-4e28-a1d5-8f2c6b9e0a99\n  annotations:\n")
	fmt.Fprintf(&b, "    %s: %s\n", key, strconv.QuoteToASCII(value))
	for _, k := range hostileKeys {
		if k.key == key {
			for ck, cv := range k.context {
				if ck != key {
					fmt.Fprintf(&b, "    %s: %q\n", ck, cv)
				}
			}
		}
	}
	b.WriteString("spec:\n  type: LoadBalancer\n  ports:\n  - {name: http, protocol: TCP, port: 80, nodePort: 30080}\n")
	return []byte(b.String())
}

// applyHostile plans and applies in against a fresh emulator, recording
// every request, and checks the property on them.
func applyHostile(t *testing.T, in *Inputs, what string) {
	t.Helper()
	emu, err := emulator.Open(emulator.Options{InstantOperations: true})
	if err != nil {
		t.Fatal(err)
	}
	defer emu.Close()
	if err := emu.Seed([]byte(hostileVNet(in))); err != nil {
		t.Fatalf("%s: seed: %v", what, err)
	}
	tg, err := EmulatorTarget(emu, in, "hostile")
	if err != nil {
		t.Fatalf("%s: target: %v", what, err)
	}
	rec := &requestLog{rt: emu.Transport()}
	p, err := azure.NewEmulator(azure.EmulatorOptions{Subscription: in.Config.SubscriptionForIDs(), Endpoint: emulator.Endpoint, Transport: rec, Description: "hostile"})
	if err != nil {
		t.Fatal(err)
	}
	tg.Provider = p
	pl, _, err := Plan(context.Background(), in, tg)
	if err != nil {
		t.Fatalf("%s: plan: %v", what, err)
	}
	_, applyErr := apply.Run(context.Background(), pl, tg.Provider, apply.Options{})
	intended := map[string]bool{}
	for _, st := range pl.Steps {
		intended[strings.ToLower(st.Target.String())] = true
	}
	groups := map[string]bool{}
	for _, g := range tg.Read.AllGroups(in.Config.SubscriptionForIDs()) {
		groups[strings.ToLower(g.Name)] = true
	}
	groups[strings.ToLower(in.Config.VnetRG())] = true
	for _, r := range rec.requests() {
		if r.status >= 500 || r.status == 0 {
			t.Errorf("%s: %s %s answered %d", what, r.method, r.path, r.status)
		}
		if r.code == "InvalidResourceName" || r.code == "InvalidRequestUri" {
			t.Errorf("%s: %s %s: ARM refused a name validate accepted (%s)", what, r.method, r.path, r.code)
		}
		checkRequestPath(t, what, r, intended, groups)
	}
	if applyErr != nil {
		t.Logf("%s: apply stopped (allowed: not a name problem): %v", what, applyErr)
	}
}

// checkRequestPath: every group and name in the request is valid for ARM,
// a write targets a step of the plan, and a read lists a group the plan
// reads.
func checkRequestPath(t *testing.T, what string, r loggedRequest, intended, groups map[string]bool) {
	t.Helper()
	segs := strings.Split(strings.Trim(r.path, "/"), "/")
	for i, s := range segs {
		dec, err := url.PathUnescape(s)
		if err != nil {
			t.Errorf("%s: undecodable %s", what, r.path)
			return
		}
		segs[i] = dec
	}
	if len(segs) < 4 || segs[2] != "resourceGroups" {
		return // an operation status URL
	}
	if p := service.ResourceGroupProblem(segs[3]); p != "" {
		t.Errorf("%s: %s %s: group %s", what, r.method, r.path, p)
	}
	for i := 7; i < len(segs); i += 2 {
		if strings.HasPrefix(segs[i-1], "privateDnsOperation") {
			return
		}
		if p := service.ResourceNameProblem(segs[i]); p != "" {
			t.Errorf("%s: %s %s: name %s", what, r.method, r.path, p)
		}
	}
	id := strings.ToLower("/" + strings.Join(segs, "/"))
	switch {
	case r.method == http.MethodPut || r.method == http.MethodDelete || r.method == http.MethodPatch:
		if !intended[id] && !intendedChild(id, intended) {
			t.Errorf("%s: %s %s is not a target of the plan", what, r.method, r.path)
		}
	case !groups[strings.ToLower(segs[3])] && !intended[id] && !intendedChild(id, intended):
		t.Errorf("%s: %s %s reads a group the plan does not read", what, r.method, r.path)
	}
}

// intendedChild: a write of a child (a PLS connection, a subnet) or a read
// of one under a planned resource.
func intendedChild(id string, intended map[string]bool) bool {
	for t := range intended {
		if strings.HasPrefix(id, t+"/") {
			return true
		}
	}
	return false
}

// hostileVNet is the cluster VNet with a PLS subnet, as an AKS cluster
// that uses Private Link has it.
func hostileVNet(in *Inputs) string {
	cfg := in.Config
	base := plan.NetworkPrefix(cfg.SubscriptionForIDs(), cfg.ResourceGroup)
	return fmt.Sprintf(`{"id": %q, "location": %q, "properties": {"addressSpace": {"addressPrefixes": ["10.224.0.0/12"]},
  "subnets": [{"name": %q, "properties": {"addressPrefix": "10.224.0.0/16"}},
              {"name": "pls-subnet", "properties": {"addressPrefix": "10.225.1.0/24"}}]}}`,
		base+"virtualNetworks/"+cfg.VnetName, cfg.Location, cfg.SubnetName)
}

// requestLog records the requests a provider sends: method, escaped path,
// status and ARM error code.
type requestLog struct {
	rt   http.RoundTripper
	mu   sync.Mutex
	sent []loggedRequest
}

type loggedRequest struct {
	method, path, code string
	status             int
}

func (l *requestLog) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := l.rt.RoundTrip(req)
	r := loggedRequest{method: req.Method, path: req.URL.EscapedPath()}
	if resp != nil {
		r.status, r.code = resp.StatusCode, resp.Header.Get("x-ms-error-code")
	}
	l.mu.Lock()
	l.sent = append(l.sent, r)
	l.mu.Unlock()
	return resp, err
}

func (l *requestLog) requests() []loggedRequest {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]loggedRequest(nil), l.sent...)
}
