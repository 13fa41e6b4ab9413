package service

import (
	"strconv"
	"strings"
)

// ValueType is the shape of an annotation's value.
type ValueType string

const (
	TypeBool        ValueType = "boolean"
	TypeInt         ValueType = "integer"
	TypeString      ValueType = "string"
	TypeEnum        ValueType = "enum"
	TypeIP          ValueType = "ip address"
	TypeIPList      ValueType = "comma-separated ip addresses"
	TypeCIDRList    ValueType = "comma-separated CIDRs"
	TypeCommaList   ValueType = "comma-separated list"
	TypeSpaceList   ValueType = "space-separated list"
	TypeIPSpaceList ValueType = "space-separated IPv4 addresses"
	TypeTagPairs    ValueType = "comma-separated key=value pairs"
	TypeARMID       ValueType = "ARM resource id"
	TypePortRef     ValueType = "port name or number"
)

// Convention is how CCM reads an annotation's raw value (ccm-semantics §1.2).
type Convention string

const (
	// ConvBoolFold: true iff the value equals "true" case-insensitively,
	// without trimming (consts/helpers.go:expectAttributeInSvcAnnotationBeEqualTo).
	ConvBoolFold Convention = "bool: case-insensitive \"true\", untrimmed"
	// ConvBoolTrimFold: trimmed, then case-insensitive "true" (PLS booleans,
	// azure_utils.go:getBoolValueFromServiceAnnotations).
	ConvBoolTrimFold Convention = "bool: trimmed, case-insensitive \"true\""
	// ConvInternal: exact "true" for LB choice, case-insensitive for rules,
	// strings.ToLower(v)=="true" for NSG access control (§1.2).
	ConvInternal Convention = "bool: exact \"true\" for LB choice; case-insensitive for rules and NSG"
	// ConvInt32: trimmed, base-10 int32; failure fails the whole reconcile.
	ConvInt32 Convention = "int32: trimmed, base 10"
	// ConvRaw: the value is used exactly as written.
	ConvRaw Convention = "raw: used as written"
	// ConvTrimmed: trimmed; empty after trimming means unset.
	ConvTrimmed Convention = "trimmed; empty means unset"
	// ConvFoldTrimmed: trimmed and matched case-insensitively.
	ConvFoldTrimmed Convention = "trimmed, case-insensitive"
	// ConvCommaTrim: whole value trimmed, split on ",", each item trimmed.
	ConvCommaTrim Convention = "split on \",\", items trimmed"
	// ConvCommaRaw: whole value trimmed, split on ",", items kept as
	// written (loadbalancer/configuration.go:AdditionalPublicIPs).
	ConvCommaRaw Convention = "split on \",\", items untrimmed"
	// ConvSpaceTrim: whole value trimmed, split on " ", empty items dropped.
	ConvSpaceTrim Convention = "split on \" \", empty items dropped"
	// ConvTagPairs: split on ",", then "="; pairs without exactly one "=" or
	// with an empty key are dropped; last write wins (azure_utils.go:parseTags).
	ConvTagPairs Convention = "k=v pairs: malformed pairs and empty keys dropped, last wins"
	// ConvIPTagPairs: like ConvTagPairs but an empty key is kept
	// (azure_loadbalancer.go:getIPTagMap).
	ConvIPTagPairs Convention = "k=v pairs: pairs without exactly one \"=\" dropped, last wins"
	// ConvKeyFoldLower: key matched case-insensitively, names trimmed and
	// lowercased (consts/helpers.go:GetLoadBalancerConfigurationsNames).
	ConvKeyFoldLower Convention = "key case-insensitive; items trimmed and lowercased"
)

// Annotation describes one annotation CCM reads (ccm-semantics §1).
type Annotation struct {
	// Key is the full key; for a per-port template it is
	// service.beta.kubernetes.io/port_{port}_<Param>.
	Key string `json:"key"`
	// Param is the per-port parameter; empty for fixed keys.
	Param      string     `json:"param,omitempty"`
	Type       ValueType  `json:"type"`
	Convention Convention `json:"convention"`
	Default    string     `json:"default,omitempty"`
	Allowed    string     `json:"allowed,omitempty"`
	// Min and Max bound integer values; Max 0 means no upper bound.
	Min     int32  `json:"min,omitempty"`
	Max     int32  `json:"max,omitempty"`
	Affects string `json:"affects"`
	Ref     string `json:"ref"`
	// Removed marks a key CCM no longer reads (it has no effect); Instead
	// says what does its job now.
	Removed bool   `json:"removed,omitempty"`
	Instead string `json:"instead,omitempty"`
	// Exposure is set on the booleans that decide who can reach the
	// Service: what CCM does when it reads a value other than "true" or
	// "false" as false. Such a value is an error (AZSVC1043), since a "yes"
	// there changes exposure silently (DESIGN: strict where a misread
	// widens or moves who reaches what); other booleans get a warning.
	Exposure string `json:"exposure,omitempty"`
}

// PerPort reports whether a is a per-port template.
func (a Annotation) PerPort() bool { return a.Param != "" }

// portTemplate is the documented form of a per-port key.
func portTemplate(param string) string { return Prefix + "port_{port}_" + param }

// annotationTable is the registry in ccm-semantics §1 order. It is built by a
// function, not held in a package variable, so that callers can never mutate
// the shared copy.
func annotationTable() []Annotation {
	return []Annotation{
		{Key: AnnInternal, Type: TypeBool, Convention: ConvInternal, Default: "external", Allowed: `"true"`, Affects: "internal LB choice, frontend subnet/private IP, rule and probe names, NSG Internet rule", Ref: "§1.3 #1",
			Exposure: "the Service goes on the public load balancer with a public IP, and CCM allows it from the Internet"},
		{Key: AnnInternalSubnet, Type: TypeString, Convention: ConvRaw, Default: "config subnetName", Allowed: "subnet name in vnetName; honoured only when internal is exactly \"true\"", Affects: "ILB frontend subnet; frontend, rule and probe names; default PLS subnet", Ref: "§1.3 #2"},
		{Key: AnnLoadBalancerMode, Type: TypeString, Convention: ConvTrimmed, Default: "primary VM set", Allowed: "__auto__ or VM set names, basic SKU only", Affects: "which basic LB hosts the Service", Ref: "§1.3 #3"},
		{Key: AnnDNSLabelName, Type: TypeString, Convention: ConvRaw, Default: "DNS untouched", Allowed: `DNS label; "" removes dnsSettings`, Affects: "public IP dnsSettings.domainNameLabel", Ref: "§1.3 #4"},
		{Key: AnnLoadBalancerResourceGroup, Type: TypeString, Convention: ConvTrimmed, Default: "config resourceGroup", Affects: "public IP resource group", Ref: "§1.3 #5"},
		{Key: AnnPIPIPTags, Type: TypeTagPairs, Convention: ConvIPTagPairs, Allowed: "type=tag pairs", Affects: "public IP ipTags (a change recreates a managed public IP)", Ref: "§1.3 #6"},
		{Key: AnnAllowedServiceTags, Type: TypeCommaList, Convention: ConvCommaTrim, Allowed: "NSG service tags", Affects: "NSG allow rules by service tag; suppresses the Internet rule", Ref: "§1.3 #7"},
		{Key: AnnAllowedIPRanges, Type: TypeCIDRList, Convention: ConvCommaTrim, Allowed: "properly masked CIDRs", Affects: "NSG allow rule sources", Ref: "§1.3 #8"},
		{Key: AnnDenyAllExceptSourceRanges, Type: TypeBool, Convention: ConvBoolFold, Default: "false", Affects: "NSG deny-all rule for the Service's destinations", Ref: "§1.3 #9",
			Exposure: "no deny-all rule is added: sources outside the allowed ranges are not blocked"},
		{Key: AnnIdleTimeout, Type: TypeInt, Convention: ConvInt32, Default: "4", Allowed: "4..100 minutes", Min: 4, Max: 100, Affects: "LB rule idleTimeoutInMinutes", Ref: "§1.3 #10"},
		{Key: AnnHAPorts, Type: TypeBool, Convention: ConvBoolFold, Default: "false", Allowed: "internal LB, standard SKU", Affects: "one HA-ports rule (protocol All, port 0) instead of per-port rules", Ref: "§1.3 #11",
			Exposure: "the load balancer forwards only the Service's ports, not every port"},
		{Key: AnnProbeProtocol, Type: TypeEnum, Convention: ConvFoldTrimmed, Default: "Tcp", Allowed: "Tcp, Http, Https", Affects: "probe protocol (after per-port annotation and appProtocol)", Ref: "§1.3 #12"},
		{Key: AnnProbeInterval, Type: TypeInt, Convention: ConvInt32, Default: "5", Allowed: ">= 5 seconds; interval x num-of-probe < 120", Min: 5, Affects: "probe intervalInSeconds", Ref: "§1.3 #13"},
		{Key: AnnProbeNumOfProbe, Type: TypeInt, Convention: ConvInt32, Default: "2", Allowed: ">= 2; interval x num-of-probe < 120", Min: 2, Affects: "probe probeThreshold", Ref: "§1.3 #14"},
		{Key: AnnProbeRequestPath, Type: TypeString, Convention: ConvRaw, Default: "/", Allowed: "Http/Https probes only", Affects: "probe requestPath", Ref: "§1.3 #15"},
		{Key: AnnPIPTags, Type: TypeTagPairs, Convention: ConvTagPairs, Allowed: "key=value pairs", Affects: "tags on managed public IPs (added or updated, never removed)", Ref: "§1.3 #16"},
		{Key: AnnDisableFloatingIP, Type: TypeBool, Convention: ConvBoolFold, Default: "false", Affects: "LB rule enableFloatingIP=false and backendPort=nodePort; NSG destinations become node IPs and nodePorts", Ref: "§1.3 #17",
			Exposure: "floating IP stays on: the NSG rules allow the frontend IP and Service ports, not node IPs and nodePorts"},
		{Key: AnnDisableNSGRule, Type: TypeBool, Convention: ConvBoolFold, Default: "false", Affects: "CCM stops adding NSG rules for the Service", Ref: "§1.3 #18",
			Exposure: "CCM adds its NSG allow rules for the Service (from the Internet, for a public one)"},
		{Key: AnnAdditionalPublicIPs, Type: TypeIPList, Convention: ConvCommaRaw, Allowed: "IP addresses", Affects: "Service status ingress and NSG destinations", Ref: "§1.3 #19"},
		{Key: AnnLoadBalancerConfigurations, Type: TypeCommaList, Convention: ConvKeyFoldLower, Default: "all configurations eligible", Allowed: "multi-SLB configuration names", Affects: "which multi-SLB LB hosts the Service", Ref: "§1.3 #20"},
		{Key: AnnDisableTCPReset, Type: TypeBool, Convention: ConvBoolFold, Default: "false", Affects: "enableTcpReset=false on TCP and HA rules", Ref: "§1.3 #21"},
		{Key: AnnIPv4, Type: TypeIP, Convention: ConvRaw, Default: "dynamic", Allowed: "IPv4 address (public for external Services)", Affects: "ILB static private IP, or the existing public IP an external Service uses", Ref: "§1.3 #22"},
		{Key: AnnIPv6, Type: TypeIP, Convention: ConvRaw, Default: "dynamic", Allowed: "IPv6 address (public for external Services)", Affects: "same as azure-load-balancer-ipv4 for IPv6", Ref: "§1.3 #23"},
		{Key: AnnPIPName, Type: TypeString, Convention: ConvRaw, Default: "generated name", Allowed: "name of an existing public IP", Affects: "the frontend's public IP (IPv4, or single-stack IPv6 without -ipv6)", Ref: "§1.3 #24"},
		{Key: AnnPIPNameIPv6, Type: TypeString, Convention: ConvRaw, Allowed: "name of an existing public IP", Affects: "the IPv6 frontend's public IP", Ref: "§1.3 #25"},
		{Key: AnnPIPPrefixID, Type: TypeARMID, Convention: ConvRaw, Allowed: "public IP prefix ARM id", Affects: "new managed public IP's publicIPPrefix and name", Ref: "§1.3 #26"},
		{Key: AnnPIPPrefixIDIPv6, Type: TypeARMID, Convention: ConvRaw, Allowed: "public IP prefix ARM id", Affects: "same for IPv6", Ref: "§1.3 #27"},
		{Key: AnnPLSCreate, Type: TypeBool, Convention: ConvBoolTrimFold, Default: "false", Affects: "creates a Private Link Service on each owned IPv4 frontend", Ref: "§1.3 #28",
			Exposure: "no Private Link Service is created, and the private endpoints meant to reach the Service cannot"},
		{Key: AnnPLSResourceGroup, Type: TypeString, Convention: ConvTrimmed, Default: "config privateLinkServiceResourceGroup", Affects: "PLS resource group", Ref: "§1.3 #29"},
		{Key: AnnPLSName, Type: TypeString, Convention: ConvTrimmed, Default: "pls-<frontend name>", Allowed: "cannot change once created", Affects: "PLS name", Ref: "§1.3 #30"},
		{Key: AnnPLSIPConfigurationSubnet, Type: TypeString, Convention: ConvRaw, Default: "internal-subnet annotation, else config subnetName", Allowed: "subnet name in vnetName", Affects: "PLS NAT ipConfigurations subnet", Ref: "§1.3 #31"},
		{Key: AnnPLSIPConfigurationIPCount, Type: TypeInt, Convention: ConvInt32, Default: "1", Allowed: "1..8", Min: 1, Max: 8, Affects: "number of PLS NAT ipConfigurations", Ref: "§1.3 #32"},
		{Key: AnnPLSIPConfigurationIPAddress, Type: TypeIPSpaceList, Convention: ConvSpaceTrim, Default: "all dynamic", Allowed: "IPv4 only; no more than the ip count", Affects: "static PLS NAT IPs; the first is primary", Ref: "§1.3 #33"},
		{Key: AnnPLSFQDNs, Type: TypeSpaceList, Convention: ConvSpaceTrim, Affects: "PLS fqdns", Ref: "§1.3 #34"},
		{Key: AnnPLSProxyProtocol, Type: TypeBool, Convention: ConvBoolTrimFold, Default: "false", Affects: "PLS enableProxyProtocol; with ETP Local, per-port probes replace the kube-proxy probe", Ref: "§1.3 #35",
			Exposure: "the PLS sends no PROXY header: the backends see the PLS's NAT addresses instead of the clients'"},
		{Key: AnnPLSVisibility, Type: TypeSpaceList, Convention: ConvSpaceTrim, Default: "RBAC only", Allowed: "subscription ids or *", Affects: "PLS visibility.subscriptions", Ref: "§1.3 #36"},
		{Key: AnnPLSAutoApproval, Type: TypeSpaceList, Convention: ConvSpaceTrim, Allowed: "subscription ids", Affects: "PLS autoApproval.subscriptions", Ref: "§1.3 #37"},

		{Key: portTemplate(PortNoLBRule), Param: PortNoLBRule, Type: TypeBool, Convention: ConvBoolFold, Default: "false", Affects: "no LB rule and no probe for the port (NSG rules still made)", Ref: "§1.4 #38",
			Exposure: "the port gets a load-balancing rule and is reachable through the load balancer"},
		{Key: portTemplate(PortNoProbeRule), Param: PortNoProbeRule, Type: TypeBool, Convention: ConvBoolFold, Default: "false", Affects: "the port's rule has no probe", Ref: "§1.4 #39"},
		{Key: portTemplate(PortProbeProtocol), Param: PortProbeProtocol, Type: TypeEnum, Convention: ConvFoldTrimmed, Default: "appProtocol, then global, then Tcp", Allowed: "Tcp, Http, Https", Affects: "probe protocol", Ref: "§1.4 #40"},
		{Key: portTemplate(PortProbePort), Param: PortProbePort, Type: TypePortRef, Convention: ConvRaw, Default: "the port's nodePort", Allowed: "a Service port name or 0..65535", Max: 65535, Affects: "probe port; forces a per-port probe under ETP Local", Ref: "§1.4 #41"},
		{Key: portTemplate(PortProbeInterval), Param: PortProbeInterval, Type: TypeInt, Convention: ConvInt32, Default: "global interval, then 5", Allowed: ">= 5 seconds", Min: 5, Affects: "probe intervalInSeconds", Ref: "§1.4 #42"},
		{Key: portTemplate(PortProbeNumOfProbe), Param: PortProbeNumOfProbe, Type: TypeInt, Convention: ConvInt32, Default: "global num-of-probe, then 2", Allowed: ">= 2", Min: 2, Affects: "probe probeThreshold", Ref: "§1.4 #43"},
		{Key: portTemplate(PortProbeRequestPath), Param: PortProbeRequestPath, Type: TypeString, Convention: ConvRaw, Default: "global request path, then /", Allowed: "Http/Https probes only", Affects: "probe requestPath", Ref: "§1.4 #44"},

		{Key: AnnLoadBalancerSourceRanges, Type: TypeCIDRList, Convention: ConvCommaTrim, Allowed: "properly masked CIDRs", Affects: "NSG allow rule sources, together with azure-allowed-ip-ranges", Ref: "§1.5 #45"},
		{Key: AnnSharedSecurityRule, Type: TypeBool, Convention: ConvBoolFold, Affects: "nothing: removed from CCM (commit 1fb8674b9)", Ref: "§1.5", Removed: true,
			Instead: "NSG rules are now shared automatically (ccm-semantics §5.3)"},
		{Key: AnnMixedProtocols, Type: TypeBool, Convention: ConvBoolFold, Affects: "nothing: CCM no longer reads it", Ref: "§1.5", Removed: true,
			Instead: "CCM builds one rule per port and protocol, so a Service lists its TCP and UDP ports as they are (examples/mixed-protocols)"},
	}
}

// Registry indexes the annotation table. Build one with NewRegistry and
// share it; it is read-only.
type Registry struct {
	list  []Annotation
	fixed map[string]int
	param map[string]int
	short []string // fixed keys CCM reads, without the prefix, for suggestions
}

// NewRegistry builds the registry of every annotation in ccm-semantics §1.
func NewRegistry() *Registry {
	r := &Registry{list: annotationTable(), fixed: map[string]int{}, param: map[string]int{}}
	for i, a := range r.list {
		if a.PerPort() {
			r.param[a.Param] = i
		} else {
			r.fixed[a.Key] = i
		}
		if !a.PerPort() && !a.Removed {
			r.short = append(r.short, strings.TrimPrefix(a.Key, Prefix))
		}
	}
	return r
}

// names lists the fixed keys CCM reads without their prefix.
func (r *Registry) names() []string { return r.short }

// All returns every annotation, in ccm-semantics §1 order.
func (r *Registry) All() []Annotation { return append([]Annotation(nil), r.list...) }

// Lookup finds the registry entry of a full key; a per-port key such as
// service.beta.kubernetes.io/port_443_health-probe_protocol resolves to its
// template.
func (r *Registry) Lookup(key string) (Annotation, bool) {
	if i, ok := r.fixed[key]; ok {
		return r.list[i], true
	}
	if _, param, ok := ParsePortKey(key); ok {
		if i, ok := r.param[param]; ok {
			return r.list[i], true
		}
	}
	return Annotation{}, false
}

// Annotations returns every annotation CCM reads (plus the removed
// azure-shared-securityrule and azure-load-balancer-mixed-protocols), in
// ccm-semantics §1 order.
func Annotations() []Annotation { return annotationTable() }

// Lookup finds the registry entry of a full annotation key (see
// Registry.Lookup). Prefer a shared Registry in loops.
func Lookup(key string) (Annotation, bool) { return NewRegistry().Lookup(key) }

// ParsePortKey splits service.beta.kubernetes.io/port_{port}_{param}. ok is
// false unless the port is a decimal int32 and a param follows; the param is
// not checked against the registry.
func ParsePortKey(key string) (port int32, param string, ok bool) {
	rest, found := strings.CutPrefix(key, Prefix+"port_")
	if !found {
		return 0, "", false
	}
	num, param, found := strings.Cut(rest, "_")
	if !found || param == "" {
		return 0, "", false
	}
	n, err := strconv.ParseInt(num, 10, 32)
	if err != nil {
		return 0, "", false
	}
	return int32(n), param, true
}

// PortParams lists the 7 per-port parameters (ccm-semantics §1.4).
func PortParams() []string {
	return []string{PortNoLBRule, PortNoProbeRule, PortProbeProtocol, PortProbePort, PortProbeInterval, PortProbeNumOfProbe, PortProbeRequestPath}
}
