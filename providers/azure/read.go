package azure

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/runtime"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/network/armnetwork/v9"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/privatedns/armprivatedns"

	"github.com/azsvc/azsvc/plan"
)

// Read lists every resource type in its resource groups and returns what it
// found as observed state. It makes list calls only, never one GET per
// resource: the number of reads grows with paging and with the number of
// private DNS zones (links and A records are listed per zone), not with the
// number of Services. A resource group that does not exist reads as empty.
func (p *Provider) Read(ctx context.Context, scope plan.ReadScope) (*plan.State, error) {
	sub := scope.Subscription
	if sub == "" {
		sub = p.subscription
	}
	c, err := p.clientsFor(sub)
	if err != nil {
		return nil, err
	}
	r := &reader{c: c, state: plan.NewState()}
	lists := map[plan.Kind]func(context.Context, string) error{
		plan.KindLoadBalancer:       r.loadBalancers,
		plan.KindPublicIP:           r.publicIPs,
		plan.KindSecurityGroup:      r.securityGroups,
		plan.KindPrivateLinkService: r.privateLinkServices,
		plan.KindPrivateEndpoint:    r.privateEndpoints,
		plan.KindPrivateDNSZone:     r.privateZones,
	}
	for _, k := range plan.ReadKinds {
		for _, rg := range unique(scope.Groups[k]) {
			if err := checkSegment("resource group", rg); err != nil {
				return nil, err
			}
			if err := lists[k](ctx, rg); err != nil && !isGroupNotFound(err) {
				return nil, err
			}
		}
	}
	for _, v := range uniqueVNets(scope.VirtualNetworks) {
		if err := errors.Join(checkSegment("resource group", v.ResourceGroup), checkSegment("virtual network", v.Name)); err != nil {
			return nil, err
		}
		if err := r.subnets(ctx, v); err != nil {
			return nil, err
		}
	}
	return r.state, nil
}

type reader struct {
	c     *clients
	state *plan.State
}

// pageAll walks a pager and adds every item of every page to the state.
func pageAll[P any, T any](ctx context.Context, r *reader, what string, pager *runtime.Pager[P], items func(P) []T) error {
	for pager.More() {
		page, err := pager.NextPage(ctx)
		if err != nil {
			return wrapError("list "+what, err, false)
		}
		for _, item := range items(page) {
			if err := r.add(item); err != nil {
				return fmt.Errorf("list %s: %w", what, err)
			}
		}
	}
	return nil
}

// add converts one SDK struct through its ARM JSON (the single conversion
// path, convert.go) and stores the resource and its children.
func (r *reader) add(item any) error {
	body, err := json.Marshal(item)
	if err != nil {
		return fmt.Errorf("encode ARM body: %w", err)
	}
	return r.addJSON(body)
}

func (r *reader) addJSON(body []byte) error {
	res, children, err := FromARM(body)
	if err != nil {
		return err
	}
	r.state.Put(res)
	for _, c := range children {
		r.state.Put(c)
	}
	return nil
}

func (r *reader) loadBalancers(ctx context.Context, rg string) error {
	pager := r.c.network.NewLoadBalancersClient().NewListPager(rg, nil)
	return pageAll(ctx, r, "load balancers in "+rg, pager,
		func(p armnetwork.LoadBalancersClientListResponse) []*armnetwork.LoadBalancer { return p.Value })
}

func (r *reader) publicIPs(ctx context.Context, rg string) error {
	pager := r.c.network.NewPublicIPAddressesClient().NewListPager(rg, nil)
	return pageAll(ctx, r, "public IPs in "+rg, pager,
		func(p armnetwork.PublicIPAddressesClientListResponse) []*armnetwork.PublicIPAddress { return p.Value })
}

func (r *reader) securityGroups(ctx context.Context, rg string) error {
	pager := r.c.network.NewSecurityGroupsClient().NewListPager(rg, nil)
	return pageAll(ctx, r, "network security groups in "+rg, pager,
		func(p armnetwork.SecurityGroupsClientListResponse) []*armnetwork.SecurityGroup { return p.Value })
}

func (r *reader) privateLinkServices(ctx context.Context, rg string) error {
	pager := r.c.network.NewPrivateLinkServicesClient().NewListPager(rg, nil)
	return pageAll(ctx, r, "private link services in "+rg, pager,
		func(p armnetwork.PrivateLinkServicesClientListResponse) []*armnetwork.PrivateLinkService {
			return p.Value
		})
}

// privateEndpoints lists the PEs of rg. A PE's IP is in customDnsConfigs only
// for some targets (arm-rules §1.4); for the others it is on the PE's NIC, so
// the NICs of the groups those PEs use are listed once and expanded into the
// PE bodies as `$expand=networkInterfaces` would.
func (r *reader) privateEndpoints(ctx context.Context, rg string) error {
	var pes []*armnetwork.PrivateEndpoint
	pager := r.c.network.NewPrivateEndpointsClient().NewListPager(rg, nil)
	for pager.More() {
		page, err := pager.NextPage(ctx)
		if err != nil {
			return wrapError("list private endpoints in "+rg, err, false)
		}
		pes = append(pes, page.Value...)
	}
	nics, err := r.listNICs(ctx, nicGroupsToExpand(pes))
	if err != nil {
		return err
	}
	for _, pe := range pes {
		if pe.Properties != nil {
			for i, ref := range pe.Properties.NetworkInterfaces {
				if ref != nil && ref.ID != nil && nics[strings.ToLower(*ref.ID)] != nil {
					pe.Properties.NetworkInterfaces[i] = nics[strings.ToLower(*ref.ID)]
				}
			}
		}
		if err := r.add(pe); err != nil {
			return fmt.Errorf("list private endpoints in %s: %w", rg, err)
		}
	}
	return nil
}

// nicGroupsToExpand returns the resource groups of the NICs of the PEs whose
// IP is not in customDnsConfigs.
func nicGroupsToExpand(pes []*armnetwork.PrivateEndpoint) []string {
	var groups []string
	for _, pe := range pes {
		if pe.Properties == nil || hasDNSConfigIP(pe.Properties.CustomDNSConfigs) {
			continue
		}
		for _, ref := range pe.Properties.NetworkInterfaces {
			if ref != nil && ref.ID != nil {
				if rg := groupOf(*ref.ID); rg != "" {
					groups = append(groups, rg)
				}
			}
		}
	}
	return unique(groups)
}

func hasDNSConfigIP(cfgs []*armnetwork.CustomDNSConfigPropertiesFormat) bool {
	for _, c := range cfgs {
		if c != nil && len(c.IPAddresses) > 0 {
			return true
		}
	}
	return false
}

// listNICs lists the NICs of groups, keyed by lower-cased ID.
func (r *reader) listNICs(ctx context.Context, groups []string) (map[string]*armnetwork.Interface, error) {
	out := map[string]*armnetwork.Interface{}
	for _, rg := range groups {
		pager := r.c.network.NewInterfacesClient().NewListPager(rg, nil)
		for pager.More() {
			page, err := pager.NextPage(ctx)
			if isGroupNotFound(err) {
				break
			}
			if err != nil {
				return nil, wrapError("list network interfaces in "+rg, err, false)
			}
			for _, nic := range page.Value {
				if nic != nil && nic.ID != nil {
					out[strings.ToLower(*nic.ID)] = nic
				}
			}
		}
	}
	return out, nil
}

// privateZones lists the zones of rg, then the VNet links and A record sets
// of each zone: ARM has no cross-zone list for either.
func (r *reader) privateZones(ctx context.Context, rg string) error {
	var zones []string
	pager := r.c.dns.NewPrivateZonesClient().NewListByResourceGroupPager(rg, nil)
	for pager.More() {
		page, err := pager.NextPage(ctx)
		if err != nil {
			return wrapError("list private DNS zones in "+rg, err, false)
		}
		for _, z := range page.Value {
			if err := r.add(z); err != nil {
				return fmt.Errorf("list private DNS zones in %s: %w", rg, err)
			}
			if z.Name != nil {
				zones = append(zones, *z.Name)
			}
		}
	}
	for _, zone := range zones {
		links := r.c.dns.NewVirtualNetworkLinksClient().NewListPager(rg, zone, nil)
		err := pageAll(ctx, r, "virtual network links of "+zone, links,
			func(p armprivatedns.VirtualNetworkLinksClientListResponse) []*armprivatedns.VirtualNetworkLink {
				return p.Value
			})
		if err != nil {
			return err
		}
		records := r.c.dns.NewRecordSetsClient().NewListByTypePager(rg, zone, armprivatedns.RecordTypeA, nil)
		err = pageAll(ctx, r, "A records of "+zone, records,
			func(p armprivatedns.RecordSetsClientListByTypeResponse) []*armprivatedns.RecordSet { return p.Value })
		if err != nil {
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
	pager := r.c.network.NewSubnetsClient().NewListPager(v.ResourceGroup, v.Name, nil)
	for pager.More() {
		page, err := pager.NextPage(ctx)
		if isNotFound(err) {
			return nil
		}
		if err != nil {
			return wrapError("list "+what, err, false)
		}
		for _, sn := range page.Value {
			if err := r.add(sn); err != nil {
				return fmt.Errorf("list %s: %w", what, err)
			}
		}
	}
	return nil
}

// uniqueVNets drops unnamed and case-insensitively repeated VNets.
func uniqueVNets(vnets []plan.VNetRef) []plan.VNetRef {
	seen := map[string]bool{}
	var out []plan.VNetRef
	for _, v := range vnets {
		k := strings.ToLower(v.ResourceGroup + "/" + v.Name)
		if v.ResourceGroup != "" && v.Name != "" && !seen[k] {
			seen[k] = true
			out = append(out, v)
		}
	}
	return out
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
