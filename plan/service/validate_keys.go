package service

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/azsvc/azsvc/plan/quote"
)

// key checks one annotation key: unknown azure-* and port_* keys, the
// removed key, per-port keys naming a missing port, and boolean values.
func (c keyRules) key(key string) {
	a, known := c.reg.Lookup(key)
	switch {
	case known && a.Removed:
		c.add(c.s.annDiag(CodeRemovedAnnotation, key,
			fmt.Sprintf("annotation %s has no effect: CCM no longer reads it", key),
			"remove it; "+a.Instead))
		return
	case known && a.PerPort():
		c.portKey(key, a)
	case known:
	case isAzureKey(key):
		if strings.EqualFold(key, AnnLoadBalancerConfigurations) {
			return // CCM matches this one key case-insensitively (§1.3 #20)
		}
		c.unknownAzureKey(key)
		return
	case strings.HasPrefix(key, Prefix+"port_"):
		c.unknownPortKey(key)
		return
	default:
		c.foreignKey(key)
		return
	}
	if a.Type == TypeBool {
		c.boolValue(key, a)
	}
}

func (c keyRules) unknownAzureKey(key string) {
	var names []string
	for _, a := range c.reg.All() {
		if !a.PerPort() && !a.Removed && isAzureKey(a.Key) {
			names = append(names, a.Key)
		}
	}
	msg := fmt.Sprintf("unknown annotation %s: CCM ignores it", shownKey(key))
	hint := "check the spelling against the cloud-provider-azure annotation list"
	if best, ok := closest(strings.ToLower(key), names); ok {
		msg += fmt.Sprintf("; did you mean %s?", best)
		hint = "rename the key to " + best
	}
	c.add(c.s.annDiag(CodeUnknownAnnotation, key, msg, hint))
}

func (c keyRules) unknownPortKey(key string) {
	rest := strings.TrimPrefix(key, Prefix+"port_")
	num, param, _ := strings.Cut(rest, "_")
	if _, err := strconv.ParseInt(num, 10, 32); err != nil {
		msg := fmt.Sprintf("per-port annotation %s: %s is not a port number; CCM ignores it", shownKey(key), quote.Value(num))
		hint := "use the Service port number, e.g. " + PortKey(443, PortProbeProtocol)
		for _, p := range c.s.Spec.Ports {
			if p.Name != "" && strings.EqualFold(p.Name, num) {
				msg += fmt.Sprintf("; did you mean port_%d_%s?", p.Port, param)
				hint = "rename the key to " + Prefix + "port_" + strconv.Itoa(int(p.Port)) + "_" + param
				break
			}
		}
		c.add(c.s.annDiag(CodeUnknownPortKey, key, msg, hint))
		return
	}
	msg := fmt.Sprintf("unknown per-port annotation %s: CCM ignores it", shownKey(key))
	hint := "the per-port parameters are " + strings.Join(PortParams(), ", ")
	if best, ok := closest(param, PortParams()); ok {
		msg += fmt.Sprintf("; did you mean port_%s_%s?", num, best)
		hint = "rename the key to " + Prefix + "port_" + num + "_" + best
	}
	c.add(c.s.annDiag(CodeUnknownPortKey, key, msg, hint))
}

// portKey checks that a per-port key names a port of the Service. Under
// externalTrafficPolicy Local, interval and num-of-probe may also be keyed by
// the healthCheckNodePort (ccm-semantics §4).
func (c keyRules) portKey(key string, a Annotation) {
	port, _, _ := ParsePortKey(key)
	if c.hasPort(port) {
		return
	}
	hc := c.s.Spec.HealthCheckNodePort
	if c.s.ETPLocal() && hc != 0 && port == hc && (a.Param == PortProbeInterval || a.Param == PortProbeNumOfProbe) {
		return
	}
	var ports []string
	for _, p := range c.s.Spec.Ports {
		ports = append(ports, strconv.Itoa(int(p.Port)))
	}
	c.add(c.s.annDiag(CodePortNotInService, key,
		fmt.Sprintf("annotation %s names port %d, which the Service does not have; CCM ignores it", key, port),
		fmt.Sprintf("use one of the Service ports (%s); the key uses spec.ports[].port, not targetPort or nodePort", strings.Join(ports, ", "))))
}

// boolValue flags boolean values CCM silently reads as false, and the
// internal annotation's "True" trap (§1.2): CCM's load balancer choice
// needs exactly "true", so "True" makes the Service public, which is an
// error (DESIGN.md: a misread that widens reach), not a warning.
func (c keyRules) boolValue(key string, a Annotation) {
	v := c.s.Annotations[key]
	read := v
	if a.Convention == ConvBoolTrimFold {
		read = strings.TrimSpace(v)
	}
	if key == AnnInternal && strings.EqualFold(v, "true") && v != "true" {
		c.add(c.s.annValueDiag(CodeExposureBoolean, key,
			fmt.Sprintf("%s is %s: CCM puts the Service on the public LB (it needs exactly \"true\"), so it becomes reachable from the Internet, while its NSG logic treats it as internal", key, quote.Value(v)),
			`write exactly "true" for an internal LB, or remove the annotation for a public one`))
		return
	}
	if strings.EqualFold(read, "true") || strings.EqualFold(read, "false") {
		return
	}
	if a.Exposure != "" {
		c.add(c.s.annValueDiag(CodeExposureBoolean, key,
			fmt.Sprintf("%s is %s, which CCM reads as false: %s", key, quote.Value(v), a.Exposure),
			exposureHint(key, v)))
		return
	}
	c.add(c.s.annValueDiag(CodeNotBoolean, key,
		fmt.Sprintf("%s is %s, which CCM reads as false (%s)", key, quote.Value(v), a.Convention),
		`write "true" or "false"`))
}

// exposureHint says how to write a boolean that decides exposure: the
// internal key wants exactly "true" for CCM's load balancer choice (§1.2).
func exposureHint(key, v string) string {
	yes := `write "true": CCM reads nothing else as true`
	if key == AnnInternal {
		yes = `write exactly "true" for an internal load balancer`
	}
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "yes", "y", "on", "1", "enabled", "enable", "true":
		return yes
	case "no", "n", "off", "0", "disabled", "disable":
		return `write "false", or remove the annotation`
	}
	if key == AnnInternal {
		return `write exactly "true" for an internal load balancer, or "false" for a public one`
	}
	return `write "true" or "false"`
}
