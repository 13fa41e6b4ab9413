package desired

import (
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
	if !s.PLSCreate() {
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
		name:         s.PLSName(),
		rg:           orDefault(s.PLSResourceGroup(), cfg.PLSResourceGroup()),
		subnet:       cfg.SubnetName,
		count:        1,
		fqdns:        s.PLSFQDNs(),
		autoApproval: s.PLSAutoApproval(),
		proxy:        s.PLSProxyProtocol(),
		hasConfig:    s.HasPLSConfig(),
	}
	if subnet, ok := s.PLSSubnet(); ok {
		spec.subnet = subnet
	}
	spec.visibility, _ = s.PLSVisibility()
	// The count keeps its own range check: its messages (pinned by
	// examples/invalid) lack the "error parsing value: " that
	// Service.PLSIPConfigCount adds, and a parse error has its own code.
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
	// Every bad address is reported, and the count is checked against the
	// good ones, so that one run shows every mistake.
	static, errs := s.PLSStaticIPsAndErrors()
	for _, err := range errs {
		r.add(CodePrivateLink, annField(service.AnnPLSIPConfigurationIPAddress), "list IPv4 addresses separated by spaces", "%v", err)
	}
	spec.static = static
	if len(spec.static) > spec.count {
		r.add(CodePrivateLink, countField, "raise the ip-address-count annotation or list fewer addresses",
			"ipConfigCount(%d) must be no smaller than number of static IPs specified(%d)", spec.count, len(spec.static))
	}
	return spec
}

// plsResource builds the PLS attached to frontend fe. Unset visibility and
// auto-approval are empty lists, as CCM writes them once it updates a PLS
// (azure_privatelinkservice.go:581-588); a PLS CCM created has neither
// object, which the diff takes as empty, as CCM does (:561, :571).
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
			// ARM assigns it; a consumer in another tenant connects by it.
			"alias": plan.Unknown,
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
