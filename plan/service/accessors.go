package service

import (
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"
)

// Accessors that encode CCM's reading of each annotation (ccm-semantics
// §1.2–§1.4). The desired-state builder must use these rather than reading
// Annotations directly, so that azsvc and CCM agree on every odd case.

// Annotation returns an annotation's raw value and whether it is present.
func (s *Service) Annotation(key string) (string, bool) {
	v, ok := s.Annotations[key]
	return v, ok
}

// Bool reads a boolean annotation with that key's CCM convention (§1.2):
// PLS booleans (azure-pls-create, azure-pls-proxy-protocol) are trimmed, all
// others are not; both compare "true" case-insensitively. For
// azure-load-balancer-internal it is InternalForRules. Absent is false.
func (s *Service) Bool(key string) bool {
	v, ok := s.Annotations[key]
	if !ok {
		return false
	}
	if key == AnnPLSCreate || key == AnnPLSProxyProtocol {
		v = strings.TrimSpace(v)
	}
	return strings.EqualFold(v, "true")
}

// InternalForLBChoice is azure-load-balancer-internal as CCM reads it to
// choose the LB: exactly "true"; "True" means external (§1.2,
// azure_loadbalancer.go:requiresInternalLoadBalancer). It also gates the
// internal-subnet annotation and the default PLS subnet.
func (s *Service) InternalForLBChoice() bool {
	return s.Annotations[AnnInternal] == "true"
}

// InternalForRules is azure-load-balancer-internal as CCM reads it while
// building rules (HA ports, SCTP check, IPv6 ILB floating IP):
// case-insensitive "true" (§1.2, consts/helpers.go:IsK8sServiceUsingInternalLoadBalancer).
func (s *Service) InternalForRules() bool {
	return strings.EqualFold(s.Annotations[AnnInternal], "true")
}

// InternalForNSG is azure-load-balancer-internal as CCM's NSG access control
// reads it: strings.ToLower(v) == "true" (§1.2, loadbalancer/configuration.go:IsInternal).
func (s *Service) InternalForNSG() bool {
	return strings.ToLower(s.Annotations[AnnInternal]) == "true"
}

// Int32 reads an integer annotation: trimmed, base 10 (§1.2). set is false
// when the key is absent; a present value that does not parse is an error,
// which in CCM fails the whole reconcile. No range check is applied.
func (s *Service) Int32(key string) (v int32, set bool, err error) {
	raw, ok := s.Annotations[key]
	if !ok {
		return 0, false, nil
	}
	v, err = ParseInt32(raw)
	if err != nil {
		return 0, true, fmt.Errorf("failed to parse annotation %s: %w", key, err)
	}
	return v, true, nil
}

// IdleTimeout is azure-load-balancer-tcp-idle-timeout in minutes, 4 when
// unset (set false); out of 4..100 is CCM's error (§1.3 #10).
func (s *Service) IdleTimeout() (minutes int32, set bool, err error) {
	v, set, err := s.Int32(AnnIdleTimeout)
	if err == nil && set && (v < 4 || v > 100) {
		err = fmt.Errorf("idle timeout value must be a whole number representing minutes between 4 and 100, actual value: %d", v)
	}
	if err != nil {
		return 0, set, fmt.Errorf("error parsing idle timeout key: %s, err: %w", AnnIdleTimeout, err)
	}
	if !set {
		return 4, false, nil
	}
	return v, true, nil
}

// PortAnnotation returns the raw value of service.beta.kubernetes.io/port_{port}_{param}.
// Without annotations it skips building the key: most Services have none,
// and desired-state building asks for several keys per port.
func (s *Service) PortAnnotation(port int32, param string) (string, bool) {
	if len(s.Annotations) == 0 {
		return "", false
	}
	return s.Annotation(PortKey(port, param))
}

// PortBool reads a per-port boolean (no_lb_rule, no_probe_rule):
// case-insensitive "true", untrimmed (§1.4).
func (s *Service) PortBool(port int32, param string) bool {
	if len(s.Annotations) == 0 {
		return false
	}
	return s.Bool(PortKey(port, param))
}

// New wraps a Service that has no source file, such as one read from a live
// cluster; Pos then returns the zero Position.
func New(svc *corev1.Service) *Service { return &Service{Service: svc} }

// ETPLocal reports externalTrafficPolicy: Local (§4).
func (s *Service) ETPLocal() bool {
	return s.Spec.ExternalTrafficPolicy == corev1.ServiceExternalTrafficPolicyLocal
}

// FloatingIPDisabled is azure-disable-load-balancer-floating-ip (§1.3 #17).
func (s *Service) FloatingIPDisabled() bool { return s.Bool(AnnDisableFloatingIP) }

// HAPorts reports the HA-ports annotation on a Service that is internal for
// rule building; CCM also requires a standard SKU, which the caller knows
// (§1.3 #11).
func (s *Service) HAPorts() bool { return s.InternalForRules() && s.Bool(AnnHAPorts) }

// NoLBRule is port_{port}_no_lb_rule (§1.4 #38).
func (s *Service) NoLBRule(port int32) bool { return s.PortBool(port, PortNoLBRule) }

// NoProbeRule is port_{port}_no_probe_rule (§1.4 #39).
func (s *Service) NoProbeRule(port int32) bool { return s.PortBool(port, PortNoProbeRule) }
