package azure

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/runtime"

	"github.com/azsvc/azsvc/plan"
)

// Write performs one plan step: a PUT of the step's body joined with its
// inline children, or a DELETE. It waits for the long-running operation and,
// for a PUT, returns what ARM holds afterwards, converted as Read converts it,
// so apply can resolve "known after apply" values from it. A DELETE returns
// nil resources.
//
// Only the first request of a write goes out without the SDK's retries:
// apply retries writes itself (arm-rules §2.3). Polls keep them, so a
// throttled poll does not turn an accepted write into a failure.
func (p *Provider) Write(ctx context.Context, step *plan.Step) (*plan.Resource, []*plan.Resource, error) {
	op := fmt.Sprintf("%s %s", step.Op, step.Target.Address())
	c, err := p.clientsFor(step.Target.Subscription)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", op, err)
	}
	if err := checkID(step.Target); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", op, err)
	}
	w := &writer{p: p, c: c.arm, op: op, id: step.Target, ifMatch: step.IfMatch}
	switch step.Op {
	case plan.OpPut:
		if step.Body == nil || step.Body.Key() != step.Target.Key() {
			return nil, nil, fmt.Errorf("%s: step body does not match its target", op)
		}
		body, err := toARM(step.Body, step.Children, p.placeholders)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", op, err)
		}
		m, err := w.put(ctx, body)
		if err != nil {
			return nil, nil, err
		}
		res, children, err := fromMap(m)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: result: %w", op, err)
		}
		return res, children, nil
	case plan.OpDelete:
		return nil, nil, w.delete(ctx)
	default:
		return nil, nil, fmt.Errorf("%s: unknown step operation %q", op, step.Op)
	}
}

type writer struct {
	p       *Provider
	c       *armClient
	op      string
	id      plan.ID
	ifMatch string
}

// firstRequest is the context of a write's initial request: no SDK retries,
// and If-Match when the step carries an etag.
func (w *writer) firstRequest(ctx context.Context) context.Context {
	ctx = noRetry(ctx)
	if w.ifMatch != "" {
		ctx = withHeaders(ctx, http.Header{"If-Match": []string{w.ifMatch}})
	}
	return ctx
}

// put sends body and returns ARM's resulting resource.
func (w *writer) put(ctx context.Context, body []byte) (map[string]any, error) {
	how := networkPut
	switch w.id.Kind {
	case plan.KindLoadBalancer, plan.KindPublicIP, plan.KindSecurityGroup, plan.KindPrivateLinkService, plan.KindPrivateEndpoint:
	case plan.KindSubnet:
		// The body is the subnet as read with one field changed (plan's
		// merge): a subnet PUT replaces every property it omits.
	case plan.KindPrivateDNSZone, plan.KindVNetLink:
		how = dnsPut
	case plan.KindPLSConnection:
		return w.approveConnection(ctx, body)
	case plan.KindARecord:
		// Record set PUTs are synchronous (arm-rules §3.1).
		return w.syncPut(ctx, w.url(), body, http.StatusOK, http.StatusCreated)
	default:
		return nil, fmt.Errorf("%s: a %s is written inside its parent, not on its own", w.op, w.id.Kind)
	}
	resp, err := w.c.do(w.firstRequest(ctx), http.MethodPut, w.url(), body, how.ok...)
	if err != nil {
		return nil, wrapError(w.op, err, false)
	}
	m, err := w.c.await(ctx, w.op, resp, how, w.p.pollFrequency)
	if err != nil {
		return nil, err
	}
	if m == nil {
		return nil, fmt.Errorf("%s: ARM returned no resource", w.op)
	}
	if w.id.Kind == plan.KindPrivateEndpoint {
		return w.expandPrivateEndpoint(ctx, m)
	}
	return m, nil
}

// syncPut sends a PUT ARM answers at once, without a long-running
// operation, and returns the body it answered with.
func (w *writer) syncPut(ctx context.Context, target string, body []byte, ok ...int) (map[string]any, error) {
	resp, err := w.c.do(w.firstRequest(ctx), http.MethodPut, target, body, ok...)
	if err != nil {
		return nil, wrapError(w.op, err, false)
	}
	raw, err := runtime.Payload(resp)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", w.op, err)
	}
	return decodeObject(raw)
}

func (w *writer) url() string { return w.c.url(resourcePath(w.id), apiVersion(w.id.Kind)) }

// expandPrivateEndpoint adds the PE's NICs to its body, as
// `$expand=networkInterfaces` would, when customDnsConfigs lacks its IP.
func (w *writer) expandPrivateEndpoint(ctx context.Context, pe map[string]any) (map[string]any, error) {
	if hasDNSConfigIP(obj(pe["properties"])) {
		return pe, nil
	}
	var err error
	expandNICs(pe, func(id string) map[string]any {
		if err != nil || id == "" {
			return nil
		}
		raw, gerr := w.c.get(ctx, escapePath(id), networkAPIVersion)
		if gerr != nil {
			err = wrapError(w.op+": read the endpoint's network interface", gerr, false)
			return nil
		}
		nic, derr := decodeObject(raw)
		if derr != nil {
			err = fmt.Errorf("%s: network interface: %w", w.op, derr)
		}
		return nic
	})
	return pe, err
}

// delete removes the target and waits for it to be gone.
func (w *writer) delete(ctx context.Context) error {
	how := networkDelete
	switch w.id.Kind {
	case plan.KindLoadBalancer, plan.KindPublicIP, plan.KindSecurityGroup, plan.KindPrivateEndpoint:
	case plan.KindPrivateLinkService:
		return w.deletePrivateLinkService(ctx)
	case plan.KindPrivateDNSZone, plan.KindVNetLink:
		how = dnsDelete
	case plan.KindSubnet:
		return fmt.Errorf("%s: azsvc never deletes subnets (ccm-semantics §8 \"Subnet policy\")", w.op)
	case plan.KindARecord:
		_, err := w.c.do(w.firstRequest(ctx), http.MethodDelete, w.url(), nil, http.StatusOK, http.StatusNoContent)
		return wrapError(w.op, err, false)
	default:
		return fmt.Errorf("%s: a %s is deleted by writing its parent without it", w.op, w.id.Kind)
	}
	return w.deleteURL(ctx, w.url(), how)
}

func (w *writer) deleteURL(ctx context.Context, rawURL string, how lro) error {
	resp, err := w.c.do(w.firstRequest(ctx), http.MethodDelete, rawURL, nil, how.ok...)
	if err != nil {
		return wrapError(w.op, err, false)
	}
	_, err = w.c.await(ctx, w.op, resp, how, w.p.pollFrequency)
	return err
}

// deletePrivateLinkService deletes every private endpoint connection, then
// the PLS, as CCM's safeDeletePLS does: ARM refuses to delete a PLS that
// still has connections (arm-rules §2.1). The etag is checked against the
// PLS as read here, since deleting connections changes it.
func (w *writer) deletePrivateLinkService(ctx context.Context) error {
	raw, err := w.c.get(ctx, resourcePath(w.id), networkAPIVersion)
	if isNotFound(err) {
		return nil
	}
	if err != nil {
		return wrapError(w.op, err, false)
	}
	got, err := decodeObject(raw)
	if err != nil {
		return fmt.Errorf("%s: %w", w.op, err)
	}
	if etag := str(got["etag"]); w.ifMatch != "" && etag != "" && etag != w.ifMatch {
		return &Error{Op: w.op, status: http.StatusPreconditionFailed, code: "PreconditionFailed",
			message: fmt.Sprintf("etag %s read at plan time does not match the current etag %s", w.ifMatch, etag)}
	}
	for _, conn := range list(obj(got["properties"])["privateEndpointConnections"]) {
		name := str(obj(conn)["name"])
		if name == "" {
			continue
		}
		cw := *w
		cw.op, cw.ifMatch = w.op+": delete private endpoint connection "+name, ""
		path := resourcePath(w.id) + "/privateEndpointConnections/" + url.PathEscape(name)
		if err := cw.deleteURL(ctx, w.c.url(path, networkAPIVersion), networkDelete); err != nil {
			return err
		}
	}
	plain := *w
	plain.ifMatch = ""
	return plain.deleteURL(ctx, w.url(), networkDelete)
}

func isNotFound(err error) bool {
	var re *azcore.ResponseError
	return errors.As(err, &re) && re.StatusCode == http.StatusNotFound
}
