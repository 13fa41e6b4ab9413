package service

import "strconv"

// Prefix is the annotation key prefix every CCM annotation shares.
const Prefix = "service.beta.kubernetes.io/"

// The 37 fixed azure-* annotation keys CCM reads (ccm-semantics §1.3), in the
// reference's order.
const (
	AnnInternal                    = Prefix + "azure-load-balancer-internal"
	AnnInternalSubnet              = Prefix + "azure-load-balancer-internal-subnet"
	AnnLoadBalancerMode            = Prefix + "azure-load-balancer-mode"
	AnnDNSLabelName                = Prefix + "azure-dns-label-name"
	AnnLoadBalancerResourceGroup   = Prefix + "azure-load-balancer-resource-group"
	AnnPIPIPTags                   = Prefix + "azure-pip-ip-tags"
	AnnAllowedServiceTags          = Prefix + "azure-allowed-service-tags"
	AnnAllowedIPRanges             = Prefix + "azure-allowed-ip-ranges"
	AnnDenyAllExceptSourceRanges   = Prefix + "azure-deny-all-except-load-balancer-source-ranges"
	AnnIdleTimeout                 = Prefix + "azure-load-balancer-tcp-idle-timeout"
	AnnHAPorts                     = Prefix + "azure-load-balancer-enable-high-availability-ports"
	AnnProbeProtocol               = Prefix + "azure-load-balancer-health-probe-protocol"
	AnnProbeInterval               = Prefix + "azure-load-balancer-health-probe-interval"
	AnnProbeNumOfProbe             = Prefix + "azure-load-balancer-health-probe-num-of-probe"
	AnnProbeRequestPath            = Prefix + "azure-load-balancer-health-probe-request-path"
	AnnPIPTags                     = Prefix + "azure-pip-tags"
	AnnDisableFloatingIP           = Prefix + "azure-disable-load-balancer-floating-ip"
	AnnDisableNSGRule              = Prefix + "azure-disable-load-balancer-nsg-rule"
	AnnAdditionalPublicIPs         = Prefix + "azure-additional-public-ips"
	AnnLoadBalancerConfigurations  = Prefix + "azure-load-balancer-configurations"
	AnnDisableTCPReset             = Prefix + "azure-load-balancer-disable-tcp-reset"
	AnnIPv4                        = Prefix + "azure-load-balancer-ipv4"
	AnnIPv6                        = Prefix + "azure-load-balancer-ipv6"
	AnnPIPName                     = Prefix + "azure-pip-name"
	AnnPIPNameIPv6                 = Prefix + "azure-pip-name-ipv6"
	AnnPIPPrefixID                 = Prefix + "azure-pip-prefix-id"
	AnnPIPPrefixIDIPv6             = Prefix + "azure-pip-prefix-id-ipv6"
	AnnPLSCreate                   = Prefix + "azure-pls-create"
	AnnPLSResourceGroup            = Prefix + "azure-pls-resource-group"
	AnnPLSName                     = Prefix + "azure-pls-name"
	AnnPLSIPConfigurationSubnet    = Prefix + "azure-pls-ip-configuration-subnet"
	AnnPLSIPConfigurationIPCount   = Prefix + "azure-pls-ip-configuration-ip-address-count"
	AnnPLSIPConfigurationIPAddress = Prefix + "azure-pls-ip-configuration-ip-address"
	AnnPLSFQDNs                    = Prefix + "azure-pls-fqdns"
	AnnPLSProxyProtocol            = Prefix + "azure-pls-proxy-protocol"
	AnnPLSVisibility               = Prefix + "azure-pls-visibility"
	AnnPLSAutoApproval             = Prefix + "azure-pls-auto-approval"
)

// AnnLoadBalancerSourceRanges is the upstream Kubernetes key CCM reads
// together with AnnAllowedIPRanges (ccm-semantics §1.5 #45).
const AnnLoadBalancerSourceRanges = Prefix + "load-balancer-source-ranges"

// AnnSharedSecurityRule was removed from CCM and has no effect (§1.5).
const AnnSharedSecurityRule = Prefix + "azure-shared-securityrule"

// AnnMixedProtocols is older charts' switch for TCP and UDP on one port;
// CCM no longer reads it (§1.5): every Service may mix protocols.
const AnnMixedProtocols = Prefix + "azure-load-balancer-mixed-protocols"

// The 7 per-port parameters (ccm-semantics §1.4); build keys with PortKey.
const (
	PortNoLBRule         = "no_lb_rule"
	PortNoProbeRule      = "no_probe_rule"
	PortProbeProtocol    = "health-probe_protocol"
	PortProbePort        = "health-probe_port"
	PortProbeInterval    = "health-probe_interval"
	PortProbeNumOfProbe  = "health-probe_num-of-probe"
	PortProbeRequestPath = "health-probe_request-path"
)

// PortKey builds service.beta.kubernetes.io/port_{port}_{param}.
func PortKey(port int32, param string) string {
	return Prefix + "port_" + strconv.Itoa(int(port)) + "_" + param
}
