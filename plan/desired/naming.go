package desired

import (
	"crypto/md5" //nolint:gosec // CCM's rule names are md5 hex; not a security use.
	"encoding/hex"
	"sort"
	"strconv"
	"strings"
	"unicode"
)

// Name length limits (consts.go FrontendIPConfigNameMaxLength,
// LoadBalancerRuleNameMaxLength, PIPPrefixNameMaxLength, IPFamilySuffixLength).
const (
	maxNameLength      = 80
	ipv6Suffix         = "-IPv6"
	maxBaseNameLength  = maxNameLength - len(ipv6Suffix) // 75
	sharedProbeName    = "cluster-service-shared-health-probe"
	nsgRulePrefix      = "k8s-azure-lb"
	serviceTagInternet = "Internet"
)

// Prefix is CCM's per-Service name prefix: "a" + uid without dashes, cut to
// 32 characters (cloudprovider.DefaultLoadBalancerName, ccm-semantics §2.1).
func Prefix(uid string) string {
	p := "a" + strings.ReplaceAll(uid, "-", "")
	if len(p) > 32 {
		p = p[:32]
	}
	return p
}

// byFamily appends "-IPv6" to IPv6 names of dual-stack Services only
// (azure_utils.go getResourceByIPFamily, §2.2).
func byFamily(name string, dualStack, ipv6 bool) string {
	if dualStack && ipv6 {
		return name + ipv6Suffix
	}
	return name
}

// FrontendName is getDefaultFrontendIPConfigName: the prefix, or
// prefix-subnet cut to 75 characters with a last character that is not a
// letter or "_" replaced by "_" (§2.2).
func FrontendName(prefix, subnet string, dualStack, ipv6 bool) string {
	name := prefix
	if subnet != "" {
		name = prefix + "-" + subnet
		if len(name) > maxBaseNameLength {
			name = name[:maxBaseNameLength]
			if last := name[len(name)-1]; !unicode.IsLetter(rune(last)) && last != '_' {
				name = name[:len(name)-1] + "_"
			}
		}
	}
	return byFamily(name, dualStack, ipv6)
}

// RuleName is getLoadBalancerRuleName: prefix-PROTO-port, or
// prefix-subnet-PROTO-port with the subnet segment cut so the name stays
// within 75 characters before the IPv6 suffix (§2.2). Probes share it.
func RuleName(prefix, subnet, proto string, port int32, dualStack, ipv6 bool) string {
	base := prefix + "-" + proto + "-" + strconv.Itoa(int(port))
	if subnet == "" {
		return byFamily(base, dualStack, ipv6)
	}
	seg := subnet
	if len(base)+len(seg)+1 > maxBaseNameLength {
		seg = seg[:max(0, maxBaseNameLength-len(base)-1)]
	}
	return byFamily(prefix+"-"+seg+"-"+proto+"-"+strconv.Itoa(int(port)), dualStack, ipv6)
}

// PublicIPName is getPublicIPName: cluster-prefix[-lastSegment(prefixID)],
// cut to 75 characters, then "-IPv6" for the IPv6 PIP of a dual-stack
// Service (§2.2).
func PublicIPName(cluster, prefix, pipPrefixID string, dualStack, ipv6 bool) string {
	name := cluster + "-" + prefix
	if pipPrefixID != "" {
		seg := pipPrefixID[strings.LastIndex(pipPrefixID, "/")+1:]
		name += "-" + seg
	}
	if len(name) > maxBaseNameLength {
		name = name[:maxBaseNameLength]
	}
	return byFamily(name, dualStack, ipv6)
}

// PLSName is the azure-pls-name annotation, else pls-<frontend name>.
func PLSName(annotation, frontend string) string {
	if a := strings.TrimSpace(annotation); a != "" {
		return a
	}
	return "pls-" + frontend
}

// PLSIPConfigName is <subnet>-<pls><suffix> with the prefix cut so the
// whole name stays within 80 characters (reconcilePLSIpConfigs).
func PLSIPConfigName(subnet, pls, suffix string) string {
	prefix := subnet + "-" + pls
	if limit := maxNameLength - len(suffix); len(prefix) > limit {
		prefix = prefix[:max(0, limit)]
	}
	return prefix + suffix
}

// NSGAllowRuleName is GenerateAllowSecurityRuleName:
// k8s-azure-lb_allow_<family>_<md5 of "proto_sources_ports">, sources and
// ports sorted as strings (§2.2).
func NSGAllowRuleName(proto, family string, sources, ports []string) string {
	src := append([]string(nil), sources...)
	dst := append([]string(nil), ports...)
	sort.Strings(src)
	sort.Strings(dst)
	sum := md5.Sum([]byte(proto + "_" + strings.Join(src, ",") + "_" + strings.Join(dst, ","))) //nolint:gosec
	return nsgRulePrefix + "_allow_" + family + "_" + hex.EncodeToString(sum[:])
}

// NSGDenyAllRuleName is GenerateDenyAllSecurityRuleName.
func NSGDenyAllRuleName(family string) string { return nsgRulePrefix + "_deny-all_" + family }
