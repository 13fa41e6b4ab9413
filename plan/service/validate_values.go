package service

import (
	"fmt"
	"net/netip"
	"sort"
	"strconv"
	"strings"

	"github.com/azsvc/azsvc/plan/quote"
)

// integers checks every integer annotation present: whole number, then the
// key's range (§1.3 #10, #13, #14, #32; §1.4 #42, #43).
func (c valueRules) integers() {
	keys := make([]string, 0, 4)
	for k := range c.s.Annotations {
		if a, ok := c.reg.Lookup(k); ok && a.Type == TypeInt {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		a, _ := c.reg.Lookup(k)
		c.integer(k, a)
	}
}

func (c valueRules) integer(key string, a Annotation) {
	raw := c.s.Annotations[key]
	v, err := ParseInt32(raw)
	if err != nil {
		c.add(c.s.annValueDiag(CodeNotInteger, key,
			fmt.Sprintf("%s is %s, not a whole number: CCM fails the whole reconcile", key, quote.Value(raw)),
			fmt.Sprintf("write a whole number (%s)", a.Allowed)))
		return
	}
	var code, msg string
	switch {
	case key == AnnIdleTimeout && (v < a.Min || v > a.Max):
		code, msg = CodeIdleTimeoutRange, fmt.Sprintf("idle timeout %d is outside 4..100 minutes: CCM fails the reconcile", v)
	case a.Param == PortProbeInterval || key == AnnProbeInterval:
		if v < a.Min {
			code, msg = CodeProbeIntervalMin, fmt.Sprintf("probe interval %d is below the minimum of 5 seconds: CCM fails the reconcile", v)
		}
	case a.Param == PortProbeNumOfProbe || key == AnnProbeNumOfProbe:
		if v < a.Min {
			code, msg = CodeProbeNumMin, fmt.Sprintf("num-of-probe %d is below the minimum of 2: CCM fails the reconcile", v)
		}
	case key == AnnPLSIPConfigurationIPCount && (v < a.Min || v > a.Max):
		code, msg = CodePLSCountRange, fmt.Sprintf("PLS ip address count %d is outside 1..8: CCM fails the reconcile", v)
	}
	if code != "" {
		c.add(c.s.annValueDiag(code, key, msg, "use a value in "+a.Allowed))
	}
}

// probeTiming applies interval x num-of-probe < 120 along the per-port ->
// global -> default chain for every port that may get a probe, reporting
// each offending pair of keys once (§4).
func (c valueRules) probeTiming() {
	ports := make([]int32, 0, len(c.s.Spec.Ports)+1)
	for _, p := range c.s.Spec.Ports {
		ports = append(ports, p.Port)
	}
	if hc := c.s.Spec.HealthCheckNodePort; c.s.ETPLocal() && hc != 0 {
		ports = append(ports, hc)
	}
	if len(ports) == 0 {
		ports = append(ports, 0)
	}
	seen := map[string]bool{}
	for _, port := range ports {
		interval, err1 := c.s.ProbeInterval(port)
		num, err2 := c.s.ProbeNumOfProbe(port)
		if err1 != nil || err2 != nil || int64(interval)*int64(num) < 120 {
			continue // value errors are reported by integers
		}
		ik, nk := c.chainKey(port, PortProbeInterval, AnnProbeInterval), c.chainKey(port, PortProbeNumOfProbe, AnnProbeNumOfProbe)
		if seen[ik+"|"+nk] {
			continue
		}
		seen[ik+"|"+nk] = true
		at := ik
		if at == "" {
			at = nk
		}
		c.add(c.s.annValueDiag(CodeProbeTotal, at,
			fmt.Sprintf("probe interval %d x num-of-probe %d = %d seconds for port %d: CCM requires less than 120 and fails the reconcile", interval, num, interval*num, port),
			"lower the interval or the number of probes so that their product is below 120"))
	}
}

// chainKey is the key that supplies a probe parameter for a port, or "".
func (c valueRules) chainKey(port int32, param, global string) string {
	if k := PortKey(port, param); c.has(k) {
		return k
	}
	if c.has(global) {
		return global
	}
	return ""
}

// pls checks the PLS static IPs and their count (§1.3 #32, #33).
func (c valueRules) pls() {
	const key = AnnPLSIPConfigurationIPAddress
	if !c.has(key) {
		return
	}
	distinct := map[string]bool{}
	for _, ip := range SplitSpace(c.s.Annotations[key]) {
		if err := parseStaticIPv4(ip); err != nil {
			c.add(c.s.annValueDiag(CodePLSStaticIP, key, fmt.Sprintf("%s: %v: CCM fails the reconcile", key, err),
				"list IPv4 addresses from the PLS subnet, separated by spaces"))
			continue
		}
		distinct[ip] = true
	}
	count, err := c.s.PLSIPConfigCount()
	if err == nil && int(count) < len(distinct) {
		c.add(c.s.annValueDiag(CodePLSTooManyIPs, key,
			fmt.Sprintf("%d static PLS IPs but ip address count is %d: CCM requires the count to be no smaller", len(distinct), count),
			fmt.Sprintf("set %s to %d, or list fewer addresses", AnnPLSIPConfigurationIPCount, len(distinct))))
	}
}

// ranges checks every CIDR of spec.loadBalancerSourceRanges and the two
// range annotations; CCM drops an invalid one and adds a deny-all rule
// (§1.3 #8, §5.2).
func (c valueRules) ranges() {
	for _, key := range []string{AnnAllowedIPRanges, AnnLoadBalancerSourceRanges} {
		v, ok := c.s.Annotations[key]
		if !ok {
			continue
		}
		for _, item := range SplitComma(v) {
			if _, err := ParsePrefix(item); err != nil {
				c.add(c.s.annValueDiag(CodeInvalidCIDR, key, cidrMessage(key, item), cidrHint(item, true)))
			}
		}
	}
	for i, item := range c.s.Spec.LoadBalancerSourceRanges {
		item = strings.TrimSpace(item)
		if _, err := ParsePrefix(item); err != nil {
			path := "spec.loadBalancerSourceRanges[" + strconv.Itoa(i) + "]"
			c.add(c.s.diag(CodeInvalidCIDR, path, cidrMessage("spec.loadBalancerSourceRanges", item), cidrHint(item, false)))
		}
	}
}

func cidrMessage(where, item string) string {
	return fmt.Sprintf("%s: %s is not a valid network CIDR: CCM drops it and adds a deny-all NSG rule for the Service", where, quote.Value(item))
}

// cidrHint says how to fix a bad CIDR; commaList is true for the
// annotations (comma-separated), false for the spec's YAML list.
func cidrHint(item string, commaList bool) string {
	if p, err := netip.ParsePrefix(item); err == nil {
		return fmt.Sprintf("write the network address: %s", p.Masked())
	}
	if a, err := netip.ParseAddr(item); err == nil {
		return fmt.Sprintf("add a prefix length, e.g. %s/%d", a, a.BitLen())
	}
	if fields := strings.Fields(item); len(fields) > 1 && !commaList {
		return "write each CIDR as a list item of its own: [" + strings.Join(fields, ", ") + "]"
	}
	return listHint(item, "write a CIDR such as 203.0.113.0/24", "write a CIDR such as 2001:db8::/32")
}
