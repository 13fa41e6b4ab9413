package service

import (
	"fmt"
	"net"
	"net/netip"
	"strconv"
	"strings"
)

// Pure parsers that reproduce CCM's reading of annotation values. Each cites
// the CCM function it mirrors; keep them byte-for-byte faithful, including
// CCM's oddities, because the desired-state builder relies on them.

// ParseInt32 reads an integer annotation value the way CCM does: trimmed,
// base 10, int32 (consts/helpers.go:extractInt32FromString).
func ParseInt32(value string) (int32, error) {
	v := strings.TrimSpace(value)
	n, err := strconv.ParseInt(v, 10, 32)
	if err != nil {
		return 0, fmt.Errorf("error value: %w: %s value must be a whole number", err, v)
	}
	return int32(n), nil
}

// ParsePrefix parses a CIDR and requires it to be properly masked
// (10.0.0.1/24 is invalid), as CCM's iputil.ParsePrefix does.
func ParsePrefix(value string) (netip.Prefix, error) {
	p, err := netip.ParsePrefix(value)
	if err != nil {
		return netip.Prefix{}, fmt.Errorf("invalid CIDR format %q: %w", value, err)
	}
	if m := p.Masked(); m.Addr() != p.Addr() {
		return netip.Prefix{}, fmt.Errorf("invalid CIDR format %q: not a network prefix, did you mean %q", value, m.String())
	}
	return p, nil
}

// SplitComma trims the whole value, splits it on "," and trims each item.
// Empty items are kept, as CCM keeps them (loadbalancer/configuration.go:
// AllowedServiceTags); an empty value yields one empty item.
func SplitComma(value string) []string {
	items := strings.Split(strings.TrimSpace(value), ",")
	for i := range items {
		items[i] = strings.TrimSpace(items[i])
	}
	return items
}

// SplitCommaUntrimmed trims the whole value and splits it on ",", keeping
// each item exactly as written: azure-additional-public-ips is read so
// (loadbalancer/configuration.go:AdditionalPublicIPs), and netip.ParseAddr
// refuses " 20.62.13.9".
func SplitCommaUntrimmed(value string) []string {
	return strings.Split(strings.TrimSpace(value), ",")
}

// SplitSpace trims the whole value, splits it on " " and drops empty items
// (azure_privatelinkservice.go:getPLSFqdns and friends).
func SplitSpace(value string) []string {
	var out []string
	for _, item := range strings.Split(strings.TrimSpace(value), " ") {
		if item = strings.TrimSpace(item); item != "" {
			out = append(out, item)
		}
	}
	return out
}

// ParseTags reads azure-pip-tags: "k=v,k2=v2". A pair that does not split
// into exactly two parts on "=", or whose trimmed key is empty, is dropped
// (returned in dropped); keys and values are trimmed; the last write wins
// (azure_utils.go:parseTags).
func ParseTags(value string) (tags map[string]string, dropped []string) {
	tags = map[string]string{}
	if value == "" {
		return tags, nil
	}
	for _, kv := range strings.Split(value, ",") {
		parts := strings.Split(kv, "=")
		if len(parts) != 2 || strings.TrimSpace(parts[0]) == "" {
			dropped = append(dropped, kv)
			continue
		}
		tags[strings.TrimSpace(parts[0])] = strings.TrimSpace(parts[1])
	}
	return tags, dropped
}

// ParseIPTags reads azure-pip-ip-tags: "type=tag,type2=tag2". Pairs without
// exactly one "=" are dropped; an empty key is kept; the last write wins
// (azure_loadbalancer.go:getIPTagMap).
func ParseIPTags(value string) (tags map[string]string, dropped []string) {
	tags = map[string]string{}
	for _, kv := range strings.Split(strings.TrimSpace(value), ",") {
		parts := strings.Split(kv, "=")
		if len(parts) != 2 {
			if strings.TrimSpace(kv) != "" {
				dropped = append(dropped, kv)
			}
			continue
		}
		tags[strings.TrimSpace(parts[0])] = strings.TrimSpace(parts[1])
	}
	return tags, dropped
}

// ParseProbeProtocol maps a probe protocol value to Tcp, Http or Https:
// trimmed and case-insensitive; anything else is Tcp
// (azure_loadbalancer_healthprobe.go:buildHealthProbeRulesForPort). known
// is false when the value was not one of the three.
func ParseProbeProtocol(value string) (protocol string, known bool) {
	switch v := strings.TrimSpace(value); {
	case strings.EqualFold(v, "Http"):
		return "Http", true
	case strings.EqualFold(v, "Https"):
		return "Https", true
	case strings.EqualFold(v, "Tcp"):
		return "Tcp", true
	}
	return "Tcp", false
}

// IsNonPublicIP reports whether an address cannot be a public frontend:
// private, loopback, link-local, unspecified, multicast, CGNAT 100.64.0.0/10
// or the Azure platform address 168.63.129.16
// (azure_publicip_repo.go:validatePublicIPCandidate).
func IsNonPublicIP(a netip.Addr) bool {
	a = a.Unmap()
	cgnat := netip.MustParsePrefix("100.64.0.0/10")
	wireserver := netip.MustParseAddr("168.63.129.16")
	return !a.IsGlobalUnicast() || a.IsPrivate() || cgnat.Contains(a) || a == wireserver
}

// parseStaticIPv4 checks one azure-pls-ip-configuration-ip-address item
// with net.ParseIP/To4, as getPLSStaticIPs does (an IPv4-mapped IPv6 address
// counts as IPv4 there).
func parseStaticIPv4(ip string) error {
	parsed := net.ParseIP(ip)
	if parsed == nil {
		return fmt.Errorf("%s is not a valid IP address", ip)
	}
	if parsed.To4() == nil {
		return fmt.Errorf("private link service ip config only supports IPv4, %s provided", ip)
	}
	return nil
}
