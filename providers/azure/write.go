package azure

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/runtime"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/network/armnetwork/v9"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/privatedns/armprivatedns"

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
	w := &writer{p: p, c: c, op: op, id: step.Target, ifMatch: step.IfMatch}
	switch step.Op {
	case plan.OpPut:
		if step.Body == nil || step.Body.Key() != step.Target.Key() {
			return nil, nil, fmt.Errorf("%s: step body does not match its target", op)
		}
		body, err := ToARM(step.Body, step.Children)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", op, err)
		}
		raw, err := w.put(ctx, body)
		if err != nil {
			return nil, nil, err
		}
		res, children, err := FromARM(raw)
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
	c       *clients
	op      string
	id      plan.ID
	ifMatch string
}

// firstRequest is the context of a write's initial request: no SDK retries,
// and If-Match when the step carries an etag.
func (w *writer) firstRequest(ctx context.Context) context.Context {
	ctx = noRetry(ctx)
	if w.ifMatch != "" {
		ctx = policy.WithHTTPHeader(ctx, http.Header{"If-Match": []string{w.ifMatch}})
	}
	return ctx
}

// put sends body and returns ARM's resulting resource as JSON.
func (w *writer) put(ctx context.Context, body []byte) ([]byte, error) {
	rg, name, net, dns := w.id.ResourceGroup, w.id.Name(), w.c.network, w.c.dns
	switch w.id.Kind {
	case plan.KindLoadBalancer:
		return putLRO(ctx, w, body, net.NewLoadBalancersClient().BeginCreateOrUpdate, rg, name,
			func(r armnetwork.LoadBalancersClientCreateOrUpdateResponse) any { return r.LoadBalancer })
	case plan.KindPublicIP:
		return putLRO(ctx, w, body, net.NewPublicIPAddressesClient().BeginCreateOrUpdate, rg, name,
			func(r armnetwork.PublicIPAddressesClientCreateOrUpdateResponse) any { return r.PublicIPAddress })
	case plan.KindSecurityGroup:
		return putLRO(ctx, w, body, net.NewSecurityGroupsClient().BeginCreateOrUpdate, rg, name,
			func(r armnetwork.SecurityGroupsClientCreateOrUpdateResponse) any { return r.SecurityGroup })
	case plan.KindPrivateLinkService:
		return putLRO(ctx, w, body, net.NewPrivateLinkServicesClient().BeginCreateOrUpdate, rg, name,
			func(r armnetwork.PrivateLinkServicesClientCreateOrUpdateResponse) any { return r.PrivateLinkService })
	case plan.KindSubnet:
		// The body is the subnet as read with one field changed (plan's
		// merge): a subnet PUT replaces every property it omits.
		begin := func(ctx context.Context, rg, subnet string, v armnetwork.Subnet, o *armnetwork.SubnetsClientBeginCreateOrUpdateOptions) (*runtime.Poller[armnetwork.SubnetsClientCreateOrUpdateResponse], error) {
			return net.NewSubnetsClient().BeginCreateOrUpdate(ctx, rg, w.id.Names[0], subnet, v, o)
		}
		return putLRO(ctx, w, body, begin, rg, name,
			func(r armnetwork.SubnetsClientCreateOrUpdateResponse) any { return r.Subnet })
	case plan.KindPrivateEndpoint:
		var pe armnetwork.PrivateEndpoint
		raw, err := putLRO(ctx, w, body, net.NewPrivateEndpointsClient().BeginCreateOrUpdate, rg, name,
			func(r armnetwork.PrivateEndpointsClientCreateOrUpdateResponse) any { pe = r.PrivateEndpoint; return pe })
		if err != nil {
			return nil, err
		}
		return w.expandPrivateEndpoint(ctx, raw, &pe)
	case plan.KindPrivateDNSZone:
		return putLRO(ctx, w, body, dns.NewPrivateZonesClient().BeginCreateOrUpdate, rg, name,
			func(r armprivatedns.PrivateZonesClientCreateOrUpdateResponse) any { return r.PrivateZone })
	case plan.KindVNetLink:
		begin := func(ctx context.Context, rg, link string, v armprivatedns.VirtualNetworkLink, o *armprivatedns.VirtualNetworkLinksClientBeginCreateOrUpdateOptions) (*runtime.Poller[armprivatedns.VirtualNetworkLinksClientCreateOrUpdateResponse], error) {
			return dns.NewVirtualNetworkLinksClient().BeginCreateOrUpdate(ctx, rg, w.id.Names[0], link, v, o)
		}
		return putLRO(ctx, w, body, begin, rg, name,
			func(r armprivatedns.VirtualNetworkLinksClientCreateOrUpdateResponse) any { return r.VirtualNetworkLink })
	case plan.KindARecord:
		var v armprivatedns.RecordSet
		if err := json.Unmarshal(body, &v); err != nil {
			return nil, fmt.Errorf("%s: decode body: %w", w.op, err)
		}
		// Record set PUTs are synchronous (arm-rules §3.1).
		resp, err := dns.NewRecordSetsClient().CreateOrUpdate(w.firstRequest(ctx), rg, w.id.Names[0], armprivatedns.RecordTypeA, name, v, nil)
		if err != nil {
			return nil, wrapError(w.op, err, false)
		}
		return json.Marshal(resp.RecordSet)
	}
	return nil, fmt.Errorf("%s: a %s is written inside its parent, not on its own", w.op, w.id.Kind)
}

// putLRO decodes body into the SDK's type T, begins the PUT and awaits it.
func putLRO[T, O, R any](ctx context.Context, w *writer, body []byte,
	begin func(context.Context, string, string, T, *O) (*runtime.Poller[R], error),
	rg, name string, result func(R) any) ([]byte, error) {
	var v T
	if err := json.Unmarshal(body, &v); err != nil {
		return nil, fmt.Errorf("%s: decode body: %w", w.op, err)
	}
	poller, err := begin(w.firstRequest(ctx), rg, name, v, nil)
	if err != nil {
		return nil, wrapError(w.op, err, false)
	}
	res, err := poller.PollUntilDone(ctx, &runtime.PollUntilDoneOptions{Frequency: w.p.pollFrequency})
	if err != nil {
		return nil, wrapError(w.op, err, true)
	}
	return json.Marshal(result(res))
}

// expandPrivateEndpoint adds the PE's NICs to its body, as
// `$expand=networkInterfaces` would, when customDnsConfigs lacks its IP.
func (w *writer) expandPrivateEndpoint(ctx context.Context, raw []byte, pe *armnetwork.PrivateEndpoint) ([]byte, error) {
	if pe.Properties == nil || hasDNSConfigIP(pe.Properties.CustomDNSConfigs) {
		return raw, nil
	}
	nics := w.c.network.NewInterfacesClient()
	for i, ref := range pe.Properties.NetworkInterfaces {
		if ref == nil || ref.ID == nil {
			continue
		}
		rg, name := groupOf(*ref.ID), (*ref.ID)[strings.LastIndex(*ref.ID, "/")+1:]
		resp, err := nics.Get(ctx, rg, name, nil)
		if err != nil {
			return nil, wrapError(w.op+": read the endpoint's network interface", err, false)
		}
		pe.Properties.NetworkInterfaces[i] = &resp.Interface
	}
	return json.Marshal(pe)
}

// delete removes the target and waits for it to be gone.
func (w *writer) delete(ctx context.Context) error {
	rg, name, net, dns := w.id.ResourceGroup, w.id.Name(), w.c.network, w.c.dns
	switch w.id.Kind {
	case plan.KindLoadBalancer:
		return deleteLRO(ctx, w, net.NewLoadBalancersClient().BeginDelete, rg, name)
	case plan.KindPublicIP:
		return deleteLRO(ctx, w, net.NewPublicIPAddressesClient().BeginDelete, rg, name)
	case plan.KindSecurityGroup:
		return deleteLRO(ctx, w, net.NewSecurityGroupsClient().BeginDelete, rg, name)
	case plan.KindPrivateLinkService:
		return w.deletePrivateLinkService(ctx)
	case plan.KindPrivateEndpoint:
		return deleteLRO(ctx, w, net.NewPrivateEndpointsClient().BeginDelete, rg, name)
	case plan.KindPrivateDNSZone:
		return deleteLRO(ctx, w, dns.NewPrivateZonesClient().BeginDelete, rg, name)
	case plan.KindVNetLink:
		begin := func(ctx context.Context, rg, link string, o *armprivatedns.VirtualNetworkLinksClientBeginDeleteOptions) (*runtime.Poller[armprivatedns.VirtualNetworkLinksClientDeleteResponse], error) {
			return dns.NewVirtualNetworkLinksClient().BeginDelete(ctx, rg, w.id.Names[0], link, o)
		}
		return deleteLRO(ctx, w, begin, rg, name)
	case plan.KindSubnet:
		return fmt.Errorf("%s: azsvc never deletes subnets (ccm-semantics §8 \"Subnet policy\")", w.op)
	case plan.KindARecord:
		_, err := dns.NewRecordSetsClient().Delete(w.firstRequest(ctx), rg, w.id.Names[0], armprivatedns.RecordTypeA, name, nil)
		if err != nil {
			return wrapError(w.op, err, false)
		}
		return nil
	}
	return fmt.Errorf("%s: a %s is deleted by writing its parent without it", w.op, w.id.Kind)
}

func deleteLRO[O, R any](ctx context.Context, w *writer,
	begin func(context.Context, string, string, *O) (*runtime.Poller[R], error), rg, name string) error {
	poller, err := begin(w.firstRequest(ctx), rg, name, nil)
	if err != nil {
		return wrapError(w.op, err, false)
	}
	if _, err := poller.PollUntilDone(ctx, &runtime.PollUntilDoneOptions{Frequency: w.p.pollFrequency}); err != nil {
		return wrapError(w.op, err, true)
	}
	return nil
}

// deletePrivateLinkService deletes every private endpoint connection, then
// the PLS, as CCM's safeDeletePLS does: ARM refuses to delete a PLS that
// still has connections (arm-rules §2.1). The etag is checked against the
// PLS as read here, since deleting connections changes it.
func (w *writer) deletePrivateLinkService(ctx context.Context) error {
	rg, name := w.id.ResourceGroup, w.id.Name()
	client := w.c.network.NewPrivateLinkServicesClient()
	got, err := client.Get(ctx, rg, name, nil)
	if isNotFound(err) {
		return nil
	}
	if err != nil {
		return wrapError(w.op, err, false)
	}
	if w.ifMatch != "" && got.Etag != nil && *got.Etag != w.ifMatch {
		return &Error{Op: w.op, status: http.StatusPreconditionFailed, code: "PreconditionFailed",
			message: fmt.Sprintf("etag %s read at plan time does not match the current etag %s", w.ifMatch, *got.Etag)}
	}
	if got.Properties != nil {
		for _, conn := range got.Properties.PrivateEndpointConnections {
			if conn == nil || conn.Name == nil {
				continue
			}
			begin := func(ctx context.Context, rg, pls string, o *armnetwork.PrivateLinkServicesClientBeginDeletePrivateEndpointConnectionOptions) (*runtime.Poller[armnetwork.PrivateLinkServicesClientDeletePrivateEndpointConnectionResponse], error) {
				return client.BeginDeletePrivateEndpointConnection(ctx, rg, pls, *conn.Name, o)
			}
			cw := *w
			cw.op, cw.ifMatch = w.op+": delete private endpoint connection "+*conn.Name, ""
			if err := deleteLRO(ctx, &cw, begin, rg, name); err != nil {
				return err
			}
		}
	}
	plain := *w
	plain.ifMatch = ""
	return deleteLRO(ctx, &plain, client.BeginDelete, rg, name)
}

func isNotFound(err error) bool {
	var re *azcore.ResponseError
	return errors.As(err, &re) && re.StatusCode == http.StatusNotFound
}
