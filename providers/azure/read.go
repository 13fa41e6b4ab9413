package azure

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"

	"github.com/azsvc/azsvc/plan"
)

// Read lists every resource type in its resource groups, each with the
// clients of the group's own subscription, and returns what it found as
// observed state. It makes list calls only, never one GET per resource:
// the number of reads grows with paging and with the number of private DNS
// zones (links and A records are listed per zone), not with the number of
// Services or private endpoints. A resource group that does not exist
// reads as empty, and so does an optional one azsvc may not read.
func (p *Provider) Read(ctx context.Context, scope plan.ReadScope) (*plan.State, error) {
	state := plan.NewState()
	readers := map[string]*reader{}
	readerFor := func(sub string) (*reader, error) {
		if r := readers[strings.ToLower(sub)]; r != nil {
			return r, nil
		}
		c, err := p.clientsFor(sub)
		if err != nil {
			return nil, err
		}
		r := &reader{c: c, state: state}
		readers[strings.ToLower(sub)] = r
		return r, nil
	}
	lists := map[plan.Kind]func(*reader, context.Context, string) error{
		plan.KindLoadBalancer:       (*reader).loadBalancers,
		plan.KindPublicIP:           (*reader).publicIPs,
		plan.KindPublicIPPrefix:     (*reader).publicIPPrefixes,
		plan.KindSecurityGroup:      (*reader).securityGroups,
		plan.KindPrivateLinkService: (*reader).privateLinkServices,
		plan.KindPrivateEndpoint:    (*reader).privateEndpoints,
		plan.KindPrivateDNSZone:     (*reader).privateZones,
	}
	for _, k := range plan.ReadKinds {
		for _, g := range scope.GroupsOf(k, p.subscription) {
			if err := checkSegment("resource group", g.Name); err != nil {
				return nil, err
			}
			r, err := readerFor(g.Subscription)
			if err != nil {
				return nil, err
			}
			err = lists[k](r, ctx, g.Name)
			if isGroupNotFound(err) {
				sub := g.Subscription
				if sub == "" {
					sub = p.subscription
				}
				state.MarkGroupMissing(sub, g.Name)
			} else if err != nil && !(g.Optional && isForbidden(err)) {
				return nil, err
			}
		}
	}
	for _, v := range scope.VNetsIn(p.subscription) {
		if err := errors.Join(checkSegment("resource group", v.ResourceGroup), checkSegment("virtual network", v.Name)); err != nil {
			return nil, err
		}
		r, err := readerFor(v.Subscription)
		if err != nil {
			return nil, err
		}
		if err := r.subnets(ctx, v); err != nil {
			return nil, err
		}
	}
	return state, nil
}

type reader struct {
	c     *clients
	state *plan.State
}

// addMap converts one ARM body (convert.go) and stores the resource and
// its children.
func (r *reader) addMap(m map[string]any) error {
	res, children, err := fromMap(m)
	if err != nil {
		return err
	}
	r.state.Put(res)
	for _, c := range children {
		r.state.Put(c)
	}
	return nil
}

// listInto lists one collection into the state.
func (r *reader) listInto(ctx context.Context, what, path, version string) error {
	return wrapError("list "+what, r.c.arm.list(ctx, path, version, r.addMap), false)
}

func (r *reader) loadBalancers(ctx context.Context, rg string) error {
	return r.listInto(ctx, "load balancers in "+rg, r.c.arm.groupPath(rg, "loadBalancers"), networkAPIVersion)
}

func (r *reader) publicIPs(ctx context.Context, rg string) error {
	return r.listInto(ctx, "public IPs in "+rg, r.c.arm.groupPath(rg, "publicIPAddresses"), networkAPIVersion)
}

func (r *reader) publicIPPrefixes(ctx context.Context, rg string) error {
	return r.listInto(ctx, "public IP prefixes in "+rg, r.c.arm.groupPath(rg, "publicIPPrefixes"), networkAPIVersion)
}

func (r *reader) securityGroups(ctx context.Context, rg string) error {
	return r.listInto(ctx, "network security groups in "+rg, r.c.arm.groupPath(rg, "networkSecurityGroups"), networkAPIVersion)
}

func (r *reader) privateLinkServices(ctx context.Context, rg string) error {
	return r.listInto(ctx, "private link services in "+rg, r.c.arm.groupPath(rg, "privateLinkServices"), networkAPIVersion)
}

// privateEndpoints lists the PEs of rg. A PE's IP is in customDnsConfigs only
// for some targets (arm-rules §1.4); for the others it is on the PE's NIC, so
// the NICs of the groups those PEs use are listed once and expanded into the
// PE bodies as `$expand=networkInterfaces` would.
func (r *reader) privateEndpoints(ctx context.Context, rg string) error {
	what := "private endpoints in " + rg
	var pes []map[string]any
	err := r.c.arm.list(ctx, r.c.arm.groupPath(rg, "privateEndpoints"), networkAPIVersion, func(m map[string]any) error {
		pes = append(pes, m)
		return nil
	})
	if err != nil {
		return wrapError("list "+what, err, false)
	}
	nics, err := r.listNICs(ctx, nicGroupsToExpand(pes))
	if err != nil {
		return err
	}
	for _, pe := range pes {
		expandNICs(pe, func(id string) map[string]any { return nics[strings.ToLower(id)] })
		if err := r.addMap(pe); err != nil {
			return fmt.Errorf("list %s: %w", what, err)
		}
	}
	return nil
}

// expandNICs replaces a PE's NIC references with the NICs nic finds.
func expandNICs(pe map[string]any, nic func(id string) map[string]any) {
	refs := list(obj(pe["properties"])["networkInterfaces"])
	for i, ref := range refs {
		if n := nic(str(obj(ref)["id"])); n != nil {
			refs[i] = n
		}
	}
}

// nicGroupsToExpand returns the resource groups of the NICs of the PEs whose
// IP is not in customDnsConfigs.
func nicGroupsToExpand(pes []map[string]any) []string {
	var groups []string
	for _, pe := range pes {
		p := obj(pe["properties"])
		if p == nil || hasDNSConfigIP(p) {
			continue
		}
		for _, ref := range list(p["networkInterfaces"]) {
			if rg := groupOf(str(obj(ref)["id"])); rg != "" {
				groups = append(groups, rg)
			}
		}
	}
	return unique(groups)
}

func hasDNSConfigIP(props map[string]any) bool {
	for _, c := range list(props["customDnsConfigs"]) {
		if len(list(obj(c)["ipAddresses"])) > 0 {
			return true
		}
	}
	return false
}

// listNICs lists the NICs of groups, keyed by lower-cased ID.
func (r *reader) listNICs(ctx context.Context, groups []string) (map[string]map[string]any, error) {
	out := map[string]map[string]any{}
	for _, rg := range groups {
		err := r.c.arm.list(ctx, r.c.arm.groupPath(rg, "networkInterfaces"), networkAPIVersion, func(m map[string]any) error {
			if id := str(m["id"]); id != "" {
				out[strings.ToLower(id)] = m
			}
			return nil
		})
		if err != nil && !isGroupNotFound(err) {
			return nil, wrapError("list network interfaces in "+rg, err, false)
		}
	}
	return out, nil
}

// privateZones lists the zones of rg, then the VNet links and A record sets
// of each zone: ARM has no cross-zone list for either.
func (r *reader) privateZones(ctx context.Context, rg string) error {
	var zones []string
	err := r.c.arm.list(ctx, r.c.arm.groupPath(rg, "privateDnsZones"), privateDNSAPIVersion, func(m map[string]any) error {
		if name := str(m["name"]); name != "" {
			zones = append(zones, name)
		}
		return r.addMap(m)
	})
	if err != nil {
		return wrapError("list private DNS zones in "+rg, err, false)
	}
	for _, zone := range zones {
		links := r.c.arm.groupPath(rg, "privateDnsZones", zone, "virtualNetworkLinks")
		if err := r.listInto(ctx, "virtual network links of "+zone, links, privateDNSAPIVersion); err != nil {
			return err
		}
		records := r.c.arm.groupPath(rg, "privateDnsZones", zone, "A")
		if err := r.listInto(ctx, "A records of "+zone, records, privateDNSAPIVersion); err != nil {
			return err
		}
	}
	return nil
}

// subnets lists the subnets of one VNet in one call (per page). A VNet or
// resource group that does not exist reads as having no subnets: the plan
// then reports the PLS subnet as not found, as CCM does.
func (r *reader) subnets(ctx context.Context, v plan.VNetRef) error {
	what := "subnets of virtual network " + v.Name + " in " + v.ResourceGroup
	err := r.listInto(ctx, what, r.c.arm.groupPath(v.ResourceGroup, "virtualNetworks", v.Name, "subnets"), networkAPIVersion)
	if isNotFound(err) {
		return nil
	}
	return err
}

// isForbidden reports a read the credential may not make (another
// tenant's or consumer's resource group).
func isForbidden(err error) bool {
	var re *azcore.ResponseError
	return errors.As(err, &re) && (re.StatusCode == http.StatusForbidden || re.StatusCode == http.StatusUnauthorized)
}

func isGroupNotFound(err error) bool {
	var re *azcore.ResponseError
	return errors.As(err, &re) && re.StatusCode == http.StatusNotFound && strings.EqualFold(re.ErrorCode, "ResourceGroupNotFound")
}

// unique drops empty and case-insensitively repeated names, keeping order.
func unique(names []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, n := range names {
		if k := strings.ToLower(n); n != "" && !seen[k] {
			seen[k] = true
			out = append(out, n)
		}
	}
	return out
}

// groupOf returns the resource group of any ARM ID.
func groupOf(id string) string {
	parts := strings.Split(strings.Trim(id, "/"), "/")
	for i := 0; i+1 < len(parts); i++ {
		if strings.EqualFold(parts[i], "resourceGroups") {
			return parts[i+1]
		}
	}
	return ""
}
