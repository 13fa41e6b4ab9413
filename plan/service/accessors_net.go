package service

import (
	"fmt"
	"net"
	"net/netip"
	"sort"
	"strings"

	corev1 "k8s.io/api/core/v1"
)

// IPFamilies returns spec.ipFamilies; an empty list means IPv4 only (§3).
func (s *Service) IPFamilies() []corev1.IPFamily {
	if len(s.Spec.IPFamilies) == 0 {
		return []corev1.IPFamily{corev1.IPv4Protocol}
	}
	return s.Spec.IPFamilies
}

// DualStack reports exactly two IP families, which drives the -IPv6 name
// suffixes (§9).
func (s *Service) DualStack() bool { return len(s.Spec.IPFamilies) == 2 }

// IPv4 reports whether the Service has an IPv4 frontend.
func (s *Service) IPv4() bool { return s.hasFamily(corev1.IPv4Protocol) }

// IPv6 reports whether the Service has an IPv6 frontend.
func (s *Service) IPv6() bool { return s.hasFamily(corev1.IPv6Protocol) }

func (s *Service) hasFamily(f corev1.IPFamily) bool {
	for _, have := range s.IPFamilies() {
		if have == f {
			return true
		}
	}
	return false
}

// LoadBalancerIP is the pinned address of one family: the non-empty
// azure-load-balancer-ipv4/-ipv6 annotation, else spec.loadBalancerIP when it
// parses as that family, else "" (azure_utils.go:getServiceLoadBalancerIP).
func (s *Service) LoadBalancerIP(ipv6 bool) string {
	key := AnnIPv4
	if ipv6 {
		key = AnnIPv6
	}
	if v := s.Annotations[key]; v != "" {
		return v
	}
	if ip := net.ParseIP(s.Spec.LoadBalancerIP); ip != nil && (ip.To4() == nil) == ipv6 {
		return s.Spec.LoadBalancerIP
	}
	return ""
}

// PIPName is the user-named public IP of one family (§1.3 #24/#25): a
// dual-stack Service reads azure-pip-name for IPv4 and azure-pip-name-ipv6
// for IPv6; a single-stack IPv6 Service prefers the non-empty -ipv6 key and
// falls back to azure-pip-name. "" means a generated name.
func (s *Service) PIPName(ipv6 bool) string {
	return s.perFamily(AnnPIPName, AnnPIPNameIPv6, ipv6)
}

// PIPPrefixID is the public IP prefix id of one family, with the same
// dual-stack rules as PIPName (§1.3 #26/#27).
func (s *Service) PIPPrefixID(ipv6 bool) string {
	return s.perFamily(AnnPIPPrefixID, AnnPIPPrefixIDIPv6, ipv6)
}

func (s *Service) perFamily(v4Key, v6Key string, ipv6 bool) string {
	if s.DualStack() {
		if ipv6 {
			return s.Annotations[v6Key]
		}
		return s.Annotations[v4Key]
	}
	if v := s.Annotations[v6Key]; ipv6 && v != "" {
		return v
	}
	return s.Annotations[v4Key]
}

// InternalSubnet is azure-load-balancer-internal-subnet, honoured only when
// the Service is internal for LB choice (exact "true") and the value is not
// blank; the value is returned untrimmed, as CCM uses it (getInternalSubnet).
func (s *Service) InternalSubnet() (string, bool) {
	if !s.InternalForLBChoice() {
		return "", false
	}
	v, ok := s.Annotations[AnnInternalSubnet]
	if !ok || strings.TrimSpace(v) == "" {
		return "", false
	}
	return v, true
}

// DNSLabelName is azure-dns-label-name, raw. set is false when the
// annotation is absent: CCM then leaves the public IP's DNS alone, while a
// present "" removes dnsSettings (§1.3 #4, getPublicIPDomainNameLabel;
// §12 #12 "absent = untouched, empty = delete").
func (s *Service) DNSLabelName() (label string, set bool) {
	label, set = s.Annotations[AnnDNSLabelName]
	return label, set
}

// PIPResourceGroup is azure-load-balancer-resource-group, trimmed; "" means
// the config resourceGroup (§1.3 #5).
func (s *Service) PIPResourceGroup() string {
	return strings.TrimSpace(s.Annotations[AnnLoadBalancerResourceGroup])
}

// LoadBalancerMode reads azure-load-balancer-mode (basic SKU only): trimmed;
// auto for "__auto__" (case-insensitive), else the comma-separated VM set
// names, trimmed (getServiceLoadBalancerMode).
func (s *Service) LoadBalancerMode() (auto bool, vmSets []string, set bool) {
	v, ok := s.Annotations[AnnLoadBalancerMode]
	if !ok {
		return false, nil, false
	}
	v = strings.TrimSpace(v)
	if strings.EqualFold(v, "__auto__") {
		return true, nil, true
	}
	for _, name := range strings.Split(v, ",") {
		if name = strings.TrimSpace(name); name != "" {
			vmSets = append(vmSets, name)
		}
	}
	return false, vmSets, true
}

// LoadBalancerConfigurations is azure-load-balancer-configurations: the key
// matched case-insensitively, every item trimmed and lowercased
// (GetLoadBalancerConfigurationsNames). Keys are visited in sorted order for
// determinism.
func (s *Service) LoadBalancerConfigurations() []string {
	keys := make([]string, 0, 1)
	for k := range s.Annotations {
		if strings.EqualFold(k, AnnLoadBalancerConfigurations) {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var names []string
	for _, k := range keys {
		for _, n := range strings.Split(s.Annotations[k], ",") {
			names = append(names, strings.ToLower(strings.TrimSpace(n)))
		}
	}
	return names
}

// PIPTags is azure-pip-tags with CCM's dropping rules (ParseTags).
func (s *Service) PIPTags() map[string]string {
	tags, _ := ParseTags(s.Annotations[AnnPIPTags])
	return tags
}

// PIPIPTags is azure-pip-ip-tags (ParseIPTags). set is true when the
// annotation is present, even empty: present-but-empty means "no ip tags".
func (s *Service) PIPIPTags() (tags map[string]string, set bool) {
	v, ok := s.Annotations[AnnPIPIPTags]
	if !ok {
		return nil, false
	}
	tags, _ = ParseIPTags(v)
	return tags, true
}

// AllowedServiceTags is azure-allowed-service-tags split on "," with items
// trimmed; nil when absent. Like CCM it keeps empty items (§1.3 #7).
func (s *Service) AllowedServiceTags() []string {
	v, ok := s.Annotations[AnnAllowedServiceTags]
	if !ok {
		return nil
	}
	return SplitComma(v)
}

// AllowedIPRanges reads azure-allowed-ip-ranges then
// load-balancer-source-ranges (group B, §5.2): valid prefixes, and the
// invalid items that make CCM add a deny-all rule.
func (s *Service) AllowedIPRanges() (valid []netip.Prefix, invalid []string) {
	for _, key := range []string{AnnAllowedIPRanges, AnnLoadBalancerSourceRanges} {
		v, ok := s.Annotations[key]
		if !ok {
			continue
		}
		for _, item := range SplitComma(v) {
			if p, err := ParsePrefix(item); err == nil {
				valid = append(valid, p)
			} else {
				invalid = append(invalid, item)
			}
		}
	}
	return valid, invalid
}

// SourceRanges reads spec.loadBalancerSourceRanges (group A, §5.2), each
// trimmed: valid prefixes and invalid items.
func (s *Service) SourceRanges() (valid []netip.Prefix, invalid []string) {
	for _, item := range s.Spec.LoadBalancerSourceRanges {
		item = strings.TrimSpace(item)
		if p, err := ParsePrefix(item); err == nil {
			valid = append(valid, p)
		} else {
			invalid = append(invalid, item)
		}
	}
	return valid, invalid
}

// AdditionalPublicIPs is azure-additional-public-ips, split on "," without
// trimming the items, as CCM splits it; any invalid item is CCM's error
// (§1.3 #19, loadbalancer/configuration.go:AdditionalPublicIPs).
func (s *Service) AdditionalPublicIPs() ([]netip.Addr, error) {
	v, ok := s.Annotations[AnnAdditionalPublicIPs]
	if !ok {
		return nil, nil
	}
	var out []netip.Addr
	for _, item := range SplitCommaUntrimmed(v) {
		a, err := netip.ParseAddr(item)
		if err != nil {
			return nil, fmt.Errorf("invalid service annotation %s:%s: %w", AnnAdditionalPublicIPs, v, err)
		}
		out = append(out, a)
	}
	return out, nil
}
