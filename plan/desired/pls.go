package desired

import (
	"net/netip"
	"strings"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/cluster"
	"github.com/azsvc/azsvc/plan/service"
)

// plsSpec is a Service's Private Link Service request (ccm-semantics §8).
type plsSpec struct {
	name         string // annotation; empty means pls-<frontend>
	rg           string
	subnet       string
	count        int
	static       []string
	fqdns        []string
	visibility   []string
	autoApproval []string
	proxy        bool
	hasConfig    bool // any PLS config annotation (serviceHasAdditionalConfigs)
}

func analyzePLS(r *refusal, info *svcInfo, cfg *cluster.Config) *plsSpec {
	s := info.svc
	if !s.Bool(service.AnnPLSCreate) {
		return nil
	}
	field := annField(service.AnnPLSCreate)
	if !info.internal && !info.floatingOff {
		r.add(CodePrivateLink, field, "make the Service internal or disable floating IP",
			"service requiring private link service must be internal or disable floating ip")
	}
	if !info.dualStack && info.families[0] == ipv6 {
		r.add(CodePrivateLink, field, "use an IPv4 or dual-stack Service", "IPv6 is not supported for private link service")
	}
	spec := &plsSpec{
		name:         strings.TrimSpace(s.Annotations[service.AnnPLSName]),
		rg:           orDefault(strings.TrimSpace(s.Annotations[service.AnnPLSResourceGroup]), cfg.PLSResourceGroup()),
		subnet:       plsSubnet(s, cfg),
		count:        1,
		fqdns:        nonNil(annList(s, service.AnnPLSFQDNs, " ")),
		visibility:   visibility(s),
		autoApproval: nonNil(annList(s, service.AnnPLSAutoApproval, " ")),
		proxy:        s.Bool(service.AnnPLSProxyProtocol),
	}
	for _, k := range [...]string{
		service.AnnPLSName, service.AnnPLSIPConfigurationSubnet, service.AnnPLSIPConfigurationIPCount,
		service.AnnPLSIPConfigurationIPAddress, service.AnnPLSFQDNs, service.AnnPLSProxyProtocol,
		service.AnnPLSVisibility, service.AnnPLSAutoApproval,
	} {
		if _, ok := s.Annotations[k]; ok {
			spec.hasConfig = true
		}
	}
	countField := annField(service.AnnPLSIPConfigurationIPCount)
	switch n, ok, err := s.Int32(service.AnnPLSIPConfigurationIPCount); {
	case err != nil:
		r.add(CodeInvalidInteger, countField, "use a whole number from 1 to 8", "%v", err)
	case ok && n < 1:
		r.add(CodePrivateLink, countField, "use 1 to 8", "minimum number of private link service ipConfig is 1, %d provided", n)
	case ok && n > 8:
		r.add(CodePrivateLink, countField, "use 1 to 8", "maximum number of private link service ipConfig is 8, %d provided", n)
	case ok:
		spec.count = int(n)
	}
	spec.static = staticIPs(r, s)
	if len(spec.static) > spec.count {
		r.add(CodePrivateLink, countField, "raise the ip-address-count annotation or list fewer addresses",
			"ipConfigCount(%d) must be no smaller than number of static IPs specified(%d)", spec.count, len(spec.static))
	}
	return spec
}

// plsSubnet: PLS subnet annotation, else the internal subnet of an
// exactly-"true" internal Service, else subnetName (getPLSSubnetName).
func plsSubnet(s *service.Service, cfg *cluster.Config) string {
	if v := s.Annotations[service.AnnPLSIPConfigurationSubnet]; strings.TrimSpace(v) != "" {
		return v
	}
	if v, ok := s.InternalSubnet(); ok {
		return v
	}
	return cfg.SubnetName
}

func visibility(s *service.Service) []string {
	out := []string{}
	for _, v := range annList(s, service.AnnPLSVisibility, " ") {
		if v == "*" {
			return []string{"*"}
		}
		out = append(out, v)
	}
	return out
}

// staticIPs are the listed IPv4 NAT addresses, de-duplicated, first one
// primary (getPLSStaticIPs).
func staticIPs(r *refusal, s *service.Service) []string {
	field := annField(service.AnnPLSIPConfigurationIPAddress)
	var out []string
	seen := map[string]bool{}
	for _, v := range annList(s, service.AnnPLSIPConfigurationIPAddress, " ") {
		addr, err := netip.ParseAddr(v)
		switch {
		case err != nil:
			r.add(CodePrivateLink, field, "list IPv4 addresses separated by spaces", "getPLSStaticIPs: %s is not a valid IP address", v)
		case !addr.Is4():
			r.add(CodePrivateLink, field, "list IPv4 addresses", "getPLSStaticIPs: private link service ip config only supports IPv4, %s provided", v)
		case !seen[v]:
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}

func nonNil(v []string) []string {
	if v == nil {
		return []string{}
	}
	return v
}

// plsResource builds the PLS attached to frontend fe.
func (b *builder) plsResource(info *svcInfo, fe *plan.Resource) *plan.Resource {
	spec := info.pls
	name := PLSName(spec.name, fe.Name())
	subnetID := b.subnetID(spec.subnet)
	ipConfigs := make([]any, 0, spec.count)
	for i, ip := range spec.static {
		ipConfigs = append(ipConfigs, map[string]any{
			"name": PLSIPConfigName(spec.subnet, name, "-static-"+ip),
			"properties": map[string]any{
				"privateIPAddress": ip, "privateIPAllocationMethod": "Static", "subnet": map[string]any{"id": subnetID},
				"primary": i == 0, "privateIPAddressVersion": "IPv4",
			},
		})
	}
	for i := 0; i < spec.count-len(spec.static); i++ {
		ipConfigs = append(ipConfigs, map[string]any{
			"name": PLSIPConfigName(spec.subnet, name, "-dynamic-"+itoa(i)),
			"properties": map[string]any{
				"privateIPAllocationMethod": "Dynamic", "subnet": map[string]any{"id": subnetID},
				"primary": len(spec.static) == 0 && i == 0, "privateIPAddressVersion": "IPv4",
			},
		})
	}
	tags := b.cfg.ConfigTags()
	tags[tagClusterName] = b.cfg.ClusterName
	tags[tagOwnerService] = info.key
	return &plan.Resource{
		ID:       plan.NewID(b.sub, spec.rg, plan.KindPrivateLinkService, name),
		Location: b.cfg.Location,
		Tags:     tags,
		Properties: map[string]any{
			"loadBalancerFrontendIpConfigurations": []any{plan.Ref(fe.ID)},
			"ipConfigurations":                     ipConfigs,
			"visibility":                           map[string]any{"subscriptions": toAny(spec.visibility)},
			"autoApproval":                         map[string]any{"subscriptions": toAny(spec.autoApproval)},
			"fqdns":                                toAny(spec.fqdns),
			"enableProxyProtocol":                  spec.proxy,
		},
		Owned: true,
	}
}

func toAny(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}
