package azure

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/arm"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/runtime"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/streaming"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/providers/azure/internal/armjson"
)

// azsvc speaks ARM through the SDK's pipeline (authentication, retries,
// logging, RP registration) and its long-running operation poller, but
// sends and receives ARM's JSON as bytes: a response is decoded once,
// straight into plan state (convert.go), instead of into the SDK's structs,
// re-encoded and decoded again (issue 15). The api-versions are the ones
// the pinned SDK modules use.
const (
	networkAPIVersion    = "2025-05-01" // armnetwork v9
	privateDNSAPIVersion = "2024-06-01" // armprivatedns v1.3
)

// apiVersion returns the api-version of a resource kind's endpoint.
func apiVersion(k plan.Kind) string {
	switch k {
	case plan.KindPrivateDNSZone, plan.KindVNetLink, plan.KindARecord:
		return privateDNSAPIVersion
	}
	return networkAPIVersion
}

// armClient sends requests for one subscription.
type armClient struct {
	pl       runtime.Pipeline
	endpoint string
	sub      string
}

func newARMClient(sub string, cred *arm.Client) *armClient {
	return &armClient{pl: cred.Pipeline(), endpoint: strings.TrimSuffix(cred.Endpoint(), "/"), sub: sub}
}

// groupPath is the Microsoft.Network path of a resource group, with rest
// appended segment by segment, each escaped.
func (c *armClient) groupPath(rg string, rest ...string) string {
	p := "/subscriptions/" + url.PathEscape(c.sub) + "/resourceGroups/" + url.PathEscape(rg) + "/providers/Microsoft.Network"
	for _, s := range rest {
		p += "/" + url.PathEscape(s)
	}
	return p
}

// resourcePath is the escaped path of id.
func resourcePath(id plan.ID) string { return escapePath(id.String()) }

// escapePath escapes each segment of an ARM ID for a URL path.
func escapePath(id string) string {
	parts := strings.Split(id, "/")
	for i, p := range parts {
		parts[i] = url.PathEscape(p)
	}
	return strings.Join(parts, "/")
}

func (c *armClient) url(path, version string) string {
	return c.endpoint + path + "?api-version=" + version
}

// do sends one request and checks its status; any other status becomes
// an *azcore.ResponseError, as the SDK's clients return.
func (c *armClient) do(ctx context.Context, method, rawURL string, body []byte, ok ...int) (*http.Response, error) {
	req, err := runtime.NewRequest(ctx, method, rawURL)
	if err != nil {
		return nil, err
	}
	req.Raw().Header["Accept"] = []string{"application/json"}
	if body != nil {
		if err := req.SetBody(streaming.NopCloser(bytes.NewReader(body)), "application/json"); err != nil {
			return nil, err
		}
	}
	resp, err := c.pl.Do(req)
	if err != nil {
		return nil, err
	}
	if !runtime.HasStatusCode(resp, ok...) {
		return nil, runtime.NewResponseError(resp)
	}
	return resp, nil
}

// get returns the body of one resource.
func (c *armClient) get(ctx context.Context, path, version string) ([]byte, error) {
	resp, err := c.do(ctx, http.MethodGet, c.url(path, version), nil, http.StatusOK)
	if err != nil {
		return nil, err
	}
	return runtime.Payload(resp)
}

// list walks a collection page by page, handing each item to add as the
// page is decoded (armjson.Page): pages are never held all at once.
func (c *armClient) list(ctx context.Context, path, version string, add func(map[string]any) error) error {
	next := c.url(path, version)
	for next != "" {
		resp, err := c.do(ctx, http.MethodGet, next, nil, http.StatusOK)
		if err != nil {
			return err
		}
		page, err := runtime.Payload(resp)
		if err != nil {
			return err
		}
		if next, err = armjson.Page(page, add); err != nil {
			return fmt.Errorf("list page: %w", err)
		}
	}
	return nil
}

// rawBody receives a long-running operation's final body as it came.
type rawBody []byte

func (b *rawBody) UnmarshalJSON(data []byte) error {
	*b = append((*b)[:0], data...)
	return nil
}

// lro is how a write completes (arm-rules §3.1).
type lro struct {
	ok         []int                 // statuses the initial response may have
	finalState runtime.FinalStateVia // as the SDK passes it for this operation
}

var (
	networkPut    = lro{ok: []int{http.StatusOK, http.StatusCreated}, finalState: runtime.FinalStateViaAzureAsyncOp}
	networkDelete = lro{ok: []int{http.StatusOK, http.StatusAccepted, http.StatusNoContent}, finalState: runtime.FinalStateViaLocation}
	dnsPut        = lro{ok: []int{http.StatusOK, http.StatusCreated, http.StatusAccepted}}
	dnsDelete     = lro{ok: []int{http.StatusOK, http.StatusAccepted, http.StatusNoContent}}
)

// await follows a write's long-running operation and returns the resource
// ARM holds at the end (nil after a DELETE). When the initial response of a
// PUT already is the final state (200 or 201 with provisioningState
// Succeeded, as NRP often answers an update and the emulator any write),
// that body is the result: the SDK's poller would call such an operation
// done and only GET the same resource again (arm-rules §3.2). Otherwise the
// SDK's poller takes over, unchanged: it follows Azure-AsyncOperation,
// Location or the body as ARM says, waits Retry-After between polls (else
// frequency), and makes the final GET a PUT needs.
func (c *armClient) await(ctx context.Context, op string, resp *http.Response, how lro, frequency time.Duration) (map[string]any, error) {
	initial, err := runtime.Payload(resp)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	if resp.Request.Method == http.MethodPut && (resp.StatusCode == http.StatusOK || resp.StatusCode == http.StatusCreated) && len(initial) > 0 {
		m, err := decodeObject(initial)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", op, err)
		}
		if strings.EqualFold(str(obj(m["properties"])["provisioningState"]), "Succeeded") {
			return m, nil
		}
	}
	poller, err := runtime.NewPoller(resp, c.pl, &runtime.NewPollerOptions[rawBody]{FinalStateVia: how.finalState})
	if err != nil {
		return nil, wrapError(op, err, false)
	}
	out, err := poller.PollUntilDone(ctx, &runtime.PollUntilDoneOptions{Frequency: frequency})
	if err != nil {
		return nil, wrapError(op, err, true)
	}
	if len(out) == 0 {
		return nil, nil
	}
	m, err := decodeObject(out)
	if err != nil {
		return nil, fmt.Errorf("%s: result: %w", op, err)
	}
	return m, nil
}

// decodeObject decodes one ARM body for plan state (numbers as ints where
// integral, armjson.DecodeInts).
func decodeObject(body []byte) (map[string]any, error) {
	v, err := armjson.DecodeInts(body)
	if err != nil {
		return nil, fmt.Errorf("decode ARM body: %w", err)
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("decode ARM body: want a JSON object, got %T", v)
	}
	return m, nil
}

// withHeaders adds request headers through the pipeline's header policy.
func withHeaders(ctx context.Context, h http.Header) context.Context {
	return policy.WithHTTPHeader(ctx, h)
}
