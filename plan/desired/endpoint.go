package desired

import (
	"crypto/sha256"
	"encoding/hex"
	"sort"
	"strings"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/cluster"
	"github.com/azsvc/azsvc/plan/service"
)

// Endpoints adds the consumer side of Private Link that PrivateEndpoint
// objects declare to a state Build made from the same input: each private
// endpoint with its connection, the private DNS zones it writes in
// (location global), their virtual network links and the A records that
// point at the endpoint's address. Each endpoint's owner name joins the
// scope, as a Service's does.
//
// Values only Azure assigns are markers: the records copy the endpoint's
// private IP (plan.AfterApply(pe, "privateIPAddress")), and a manual
// connection to a PLS of the input names it by its alias
// (plan.AfterApply(pls, "alias")), the form a consumer in another tenant
// can use. An endpoint whose Service has no private link service in state
// (validation, or CCM refusing the Service, says why) is left out, and out
// of the scope: a plan leaves its Azure resources alone.
func Endpoints(state *plan.State, scope *plan.Scope, eps []*service.PrivateEndpoint, cfg *cluster.Config) {
	b := &endpointBuilder{state: state, cfg: cfg, plsOf: plsByService(state)}
	sorted := append([]*service.PrivateEndpoint(nil), eps...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Key() < sorted[j].Key() })
	for _, ep := range sorted {
		if b.add(ep) {
			scope.Services = append(scope.Services, plan.ServiceRef{Name: ep.Owner()})
		}
	}
}

type endpointBuilder struct {
	state *plan.State
	cfg   *cluster.Config
	plsOf map[string]*plan.Resource // by Service namespace/name
}

// plsByService indexes the desired private link services by the Services
// they serve.
func plsByService(state *plan.State) map[string]*plan.Resource {
	out := map[string]*plan.Resource{}
	for _, r := range state.OfKind(plan.KindPrivateLinkService) {
		for _, s := range r.Services {
			if _, taken := out[s]; !taken {
				out[s] = r
			}
		}
	}
	return out
}

// add places one endpoint; false when it cannot be planned.
func (b *endpointBuilder) add(ep *service.PrivateEndpoint) bool {
	id, ok := ep.ID()
	if !ok {
		return false
	}
	target, plsID, ok := b.target(ep)
	if !ok {
		return false
	}
	owner := ep.Owner()
	pe := b.endpoint(ep, id, target)
	b.state.Put(pe)
	if ep.Spec.Approve && plsID != nil {
		b.state.Put(approval(*plsID, pe))
	}
	for _, d := range ep.Spec.DNS {
		b.zone(ep, id, d, pe.Key(), owner)
	}
	return true
}

// target is the connection's privateLinkServiceId: the PLS of the input by
// ID (by alias for a manual connection), or the ID or alias the spec
// names. plsID is the PLS's ID when known.
func (b *endpointBuilder) target(ep *service.PrivateEndpoint) (any, *plan.ID, bool) {
	if ep.Spec.Service == "" {
		if id, err := plan.ParseID(ep.Spec.PrivateLinkServiceID); err == nil && id.Kind == plan.KindPrivateLinkService {
			return ep.Spec.PrivateLinkServiceID, &id, true
		}
		return ep.Spec.PrivateLinkServiceID, nil, ep.Spec.PrivateLinkServiceID != ""
	}
	pls := b.plsOf[ep.ServiceKey()]
	if pls == nil {
		return nil, nil, false
	}
	if ep.Spec.ManualApproval {
		return plan.AfterApply(pls.Key(), plan.AliasField), &pls.ID, true
	}
	return pls.ID.String(), &pls.ID, true
}

// ownerTags are the tags CCM puts on what it owns (§2.3), the owner being
// the endpoint.
func (b *endpointBuilder) ownerTags(owner string) map[string]string {
	tags := b.cfg.ConfigTags()
	tags[tagClusterName] = b.cfg.ClusterName
	if owner != "" {
		tags[tagOwnerService] = owner
	}
	return tags
}

// endpoint is the private endpoint with its one connection (arm-rules
// §1.4), named after the endpoint as HyperShift names it.
func (b *endpointBuilder) endpoint(ep *service.PrivateEndpoint, id plan.ID, target any) *plan.Resource {
	props := map[string]any{"privateLinkServiceId": target}
	if ep.Spec.RequestMessage != "" {
		props["requestMessage"] = ep.Spec.RequestMessage
	}
	list, other := plan.AutoConnections, plan.ManualConnections
	if ep.Spec.ManualApproval {
		list, other = other, list
	}
	return &plan.Resource{
		ID:       id,
		Location: b.cfg.Location,
		Tags:     b.ownerTags(ep.Owner()),
		Properties: map[string]any{
			"subnet": map[string]any{"id": ep.Spec.SubnetID},
			list:     []any{map[string]any{"name": id.Name(), "properties": props}},
			other:    []any{},
			// ARM assigns it (the provider reads it from the endpoint's NIC);
			// the endpoint's A records copy it.
			plan.PrivateIPField: plan.Unknown,
		},
		Services: []string{ep.Owner()},
		Owned:    true,
	}
}

// approval is the connection of pe on the PLS, approved. Its name is the
// endpoint's until ARM names it (<endpoint>.<guid>); the provider finds the
// connection by its private endpoint.
func approval(pls plan.ID, pe *plan.Resource) *plan.Resource {
	return &plan.Resource{
		ID: plan.ChildID(pls, plan.KindPLSConnection, pe.Name()),
		Properties: map[string]any{
			"privateEndpoint": plan.Ref(pe.ID),
			"privateLinkServiceConnectionState": map[string]any{
				"status": plan.ConnectionApproved, "description": "Approved by azsvc", "actionsRequired": "None",
			},
		},
		Services: pe.Services,
		Owned:    true,
	}
}

// zone places one DNS entry: the zone in the endpoint's resource group,
// its links, and its records. Zones and links serve every endpoint that
// declares them.
func (b *endpointBuilder) zone(ep *service.PrivateEndpoint, pe plan.ID, d service.EndpointDNS, peKey plan.Key, owner string) {
	zid := plan.NewID(pe.Subscription, pe.ResourceGroup, plan.KindPrivateDNSZone, strings.ToLower(d.Zone))
	b.share(&plan.Resource{ID: zid, Location: "global", Tags: b.ownerTags(""), Properties: map[string]any{}, Owned: true}, owner)
	vnets := d.VNetLinks
	if vnets == nil {
		if v, ok := ep.VNet(); ok {
			vnets = []string{v.String()}
		}
	}
	for _, v := range vnets {
		b.share(&plan.Resource{
			ID:       plan.ChildID(zid, plan.KindVNetLink, LinkName(v)),
			Location: "global",
			Tags:     b.ownerTags(""),
			Properties: map[string]any{
				"virtualNetwork":      map[string]any{"id": v},
				"registrationEnabled": false,
			},
			Owned: true,
		}, owner)
	}
	for _, name := range d.Records {
		rid := plan.ChildID(zid, plan.KindARecord, strings.ToLower(name))
		if _, taken := b.state.Get(rid.Key()); taken {
			continue // two endpoints writing one record: validation reports it
		}
		b.state.Put(&plan.Resource{
			ID: rid,
			Properties: map[string]any{
				"ttl":      service.TTLOf(d),
				"aRecords": []any{map[string]any{"ipv4Address": plan.AfterApply(peKey, plan.PrivateIPField)}},
				// Record sets have no tags: their metadata carries the
				// owner, as a PLS's tags do (ccm-semantics §2.3).
				"metadata": map[string]any{tagClusterName: b.cfg.ClusterName, tagOwnerService: owner},
			},
			Services: []string{owner},
			Owned:    true,
		})
	}
}

// share adds r, or the owner to the resource already in its place.
func (b *endpointBuilder) share(r *plan.Resource, owner string) {
	if got, ok := b.state.Get(r.Key()); ok {
		got.AddService(owner)
		return
	}
	r.AddService(owner)
	b.state.Put(r)
}

// LinkName names the link of a zone to the virtual network vnet: the
// network's name and a hash of its ID, since networks of one name in other
// groups or subscriptions may link to the same zone. Every endpoint
// declaring the pair names it the same.
func LinkName(vnet string) string {
	sum := sha256.Sum256([]byte(strings.ToLower(strings.TrimSuffix(vnet, "/"))))
	name := vnet[strings.LastIndexByte(vnet, '/')+1:]
	return strings.ToLower(name) + "-" + hex.EncodeToString(sum[:4])
}
