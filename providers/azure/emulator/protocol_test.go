package emulator

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/network/armnetwork/v9"
)

const (
	apiVersion    = "?api-version=2025-05-01"
	rgAPIVersion  = "?api-version=2021-04-01" // Microsoft.Resources
	dnsAPIVersion = "?api-version=2024-06-01" // Private DNS
)

// versionOf is the api-version query of the provider that serves path.
func versionOf(path string) string {
	switch {
	case strings.Contains(strings.ToLower(path), "/privatednszones"):
		return dnsAPIVersion
	case !strings.Contains(path, "/providers/"):
		return rgAPIVersion
	}
	return apiVersion
}

// do sends one raw request to the handler, as curl would.
func do(t *testing.T, e *Emulator, method, path, body string, header ...string) *httptest.ResponseRecorder {
	t.Helper()
	r := httptest.NewRequest(method, Endpoint+path, strings.NewReader(body))
	for i := 0; i+1 < len(header); i += 2 {
		r.Header.Set(header[i], header[i+1])
	}
	w := httptest.NewRecorder()
	e.Handler().ServeHTTP(w, r)
	return w
}

func errorCode(t *testing.T, w *httptest.ResponseRecorder) string {
	t.Helper()
	var env struct {
		Error struct{ Code string } `json:"error"`
	}
	if err := json.Unmarshal(w.Body.Bytes(), &env); err != nil {
		t.Fatalf("error body %q: %v", w.Body.String(), err)
	}
	if w.Header().Get("x-ms-error-code") != env.Error.Code {
		t.Fatalf("x-ms-error-code %q != body code %q", w.Header().Get("x-ms-error-code"), env.Error.Code)
	}
	return env.Error.Code
}

func TestProtocolErrors(t *testing.T) {
	en := newEnv(t, Options{})
	pipPath := strings.TrimPrefix(id("publicIPAddresses", "p"), "")
	tests := []struct {
		name, method, path, body string
		status                   int
		code                     string
	}{
		{"missing api-version", "GET", pipPath, "", 400, "MissingApiVersionParameter"},
		{"missing top-level", "GET", pipPath + apiVersion, "", 404, "ResourceNotFound"},
		{"missing child", "GET", id("networkSecurityGroups", "nsg") + "/securityRules/x" + apiVersion, "", 404, "NotFound"},
		{"missing resource group", "GET", strings.Replace(pipPath, "/rg/", "/nope/", 1) + apiVersion, "", 404, "ResourceGroupNotFound"},
		{"unknown type", "GET", id("applicationGateways", "x") + apiVersion, "", 404, "InvalidResourceType"},
		{"bad JSON", "PUT", pipPath + apiVersion, "{", 400, "InvalidRequestContent"},
		{"bad name", "PUT", id("publicIPAddresses", "-bad") + apiVersion, `{"location":"eastus"}`, 400, "InvalidResourceName"},
		{"no location", "PUT", pipPath + apiVersion, `{}`, 400, "LocationRequired"},
		{"read-only child", "PUT", id("networkSecurityGroups", "nsg") + "/defaultSecurityRules/x" + apiVersion, `{}`, 405, "MethodNotAllowed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := do(t, en.e, tt.method, tt.path, tt.body)
			if w.Code != tt.status || errorCode(t, w) != tt.code {
				t.Fatalf("got %d %s, want %d %s", w.Code, w.Body.String(), tt.status, tt.code)
			}
		})
	}
}

func TestLongRunningOperationProtocol(t *testing.T) {
	en := newEnv(t, Options{InProgressPolls: 1})
	en.e.Counters().Reset()
	path := id("publicIPAddresses", "p") + apiVersion
	w := do(t, en.e, "PUT", path, `{"location":"eastus","sku":{"name":"Standard"}}`)
	async := w.Header().Get("Azure-AsyncOperation")
	if w.Code != http.StatusCreated || !strings.HasPrefix(async, Endpoint+"/subscriptions/"+testSub+"/providers/Microsoft.Network/locations/eastus/operations/") {
		t.Fatalf("create: %d %q", w.Code, async)
	}
	if !strings.Contains(w.Body.String(), `"provisioningState":"Updating"`) {
		t.Fatalf("create headers %v body %s", w.Header(), w.Body.String())
	}
	// The resource is locked until its operation ends (arm-rules §7.6).
	if w := do(t, en.e, "PUT", path, `{"location":"eastus"}`); w.Code != http.StatusConflict || errorCode(t, w) != "AnotherOperationInProgress" {
		t.Fatalf("write during operation: %d %s", w.Code, w.Body.String())
	}
	pollPath := strings.TrimPrefix(async, Endpoint)
	for _, want := range []string{"InProgress", "Succeeded"} {
		w := do(t, en.e, "GET", pollPath, "")
		if !strings.Contains(w.Body.String(), `"status":"`+want+`"`) {
			t.Fatalf("poll: %s, want %s", w.Body.String(), want)
		}
		if inProgress := want == "InProgress"; inProgress != (w.Header().Get("Retry-After-Ms") != "") {
			t.Fatalf("%s poll with Retry-After-Ms %q", want, w.Header().Get("Retry-After-Ms"))
		}
	}
	if en.e.Counters().Polls() != 2 || en.e.Counters().Count(MethodPut, "Microsoft.Network/publicIPAddresses") != 2 {
		t.Fatalf("counters:\n%s", en.e.Counters())
	}
	w = do(t, en.e, "PUT", path, `{"location":"eastus"}`)
	if w.Code != http.StatusOK {
		t.Fatalf("update: %d %s", w.Code, w.Body.String())
	}
	do(t, en.e, "GET", strings.TrimPrefix(w.Header().Get("Azure-AsyncOperation"), Endpoint), "")
	do(t, en.e, "GET", strings.TrimPrefix(w.Header().Get("Azure-AsyncOperation"), Endpoint), "")

	w = do(t, en.e, "DELETE", path, "")
	loc := strings.TrimPrefix(w.Header().Get("Location"), Endpoint)
	if w.Code != http.StatusAccepted || !strings.Contains(loc, "/operationResults/") || w.Header().Get("Azure-AsyncOperation") == "" {
		t.Fatalf("delete: %d %v", w.Code, w.Header())
	}
	if w := do(t, en.e, "GET", loc, ""); w.Code != http.StatusAccepted {
		t.Fatalf("operation result while running: %d", w.Code)
	}
	if w := do(t, en.e, "GET", loc, ""); w.Code != http.StatusNoContent {
		t.Fatalf("operation result when done: %d", w.Code)
	}
	if w := do(t, en.e, "DELETE", path, ""); w.Code != http.StatusNoContent {
		t.Fatalf("delete of a missing resource: %d", w.Code)
	}
}

func TestIfMatchThroughSDK(t *testing.T) {
	en := newEnv(t, Options{})
	en.putPIP("pip1")
	lb, err := en.putLB("lb", basicLB("lb"))
	if err != nil {
		t.Fatal(err)
	}
	stale := *lb.Etag
	if _, err := en.putLB("lb", lb); err != nil {
		t.Fatal(err)
	}
	// armnetwork has no IfMatch option; CCM sets the header with a policy (arm-rules §2.3).
	ctx := policy.WithHTTPHeader(en.ctx, http.Header{"If-Match": []string{stale}})
	_, err = en.net.NewLoadBalancersClient().BeginCreateOrUpdate(ctx, testRG, "lb", lb, nil)
	wantCode(t, err, "PreconditionFailed", http.StatusPreconditionFailed)
	if !strings.Contains(err.Error(), "PreconditionFailedEtagMismatch") {
		t.Fatalf("412 without the etag-mismatch detail: %v", err)
	}
	cur := en.getLB("lb")
	ctx = policy.WithHTTPHeader(en.ctx, http.Header{"If-Match": []string{*cur.Etag}})
	p, err := en.net.NewLoadBalancersClient().BeginCreateOrUpdate(ctx, testRG, "lb", cur, nil)
	if err == nil {
		_, err = p.PollUntilDone(en.ctx, en.poll)
	}
	if err != nil {
		t.Fatalf("matching If-Match: %v", err)
	}
	// The same for a child PUT: a security rule.
	rules := en.net.NewSecurityRulesClient()
	ctx = policy.WithHTTPHeader(en.ctx, http.Header{"If-Match": []string{`W/"stale"`}})
	_, err = rules.BeginCreateOrUpdate(ctx, testRG, "nsg", "r", armnetwork.SecurityRule{Properties: secRule("r", 200, armnetwork.SecurityRuleDirectionInbound).Properties}, nil)
	wantCode(t, err, "PreconditionFailed", http.StatusPreconditionFailed)
}
