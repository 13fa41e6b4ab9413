package service

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"
)

// Probe defaults (ccm-semantics §4).
const (
	DefaultProbeInterval    int32 = 5
	DefaultProbeNumOfProbe  int32 = 2
	DefaultProbeRequestPath       = "/"
)

// ProbeSource says where a probe protocol came from (§4, priority order).
type ProbeSource string

const (
	ProbeFromPortAnnotation   ProbeSource = "port annotation"
	ProbeFromAppProtocol      ProbeSource = "appProtocol"
	ProbeFromGlobalAnnotation ProbeSource = "global annotation"
	ProbeFromDefault          ProbeSource = "default"
)

// errProbeTotal is CCM's message when interval x num-of-probe >= 120.
var errProbeTotal = errors.New("total probe should be less than 120, please adjust interval and number of probe accordingly")

// probeInt follows the per-port -> global -> default chain for an integer
// probe parameter with a minimum, as getHealthProbeConfigProbeInterval and
// getHealthProbeConfigNumOfProbe do.
func (s *Service) probeInt(port int32, param, global string, min, def int32) (int32, error) {
	for _, key := range []string{PortKey(port, param), global} {
		v, set, err := s.Int32(key)
		if err != nil {
			return 0, err
		}
		if !set {
			continue
		}
		if v < min {
			name := strings.TrimPrefix(param, "health-probe_")
			return 0, fmt.Errorf("failed to parse annotation %s: error parsing value: the minimum value of %s is %d", key, name, min)
		}
		return v, nil
	}
	return def, nil
}

// ProbeInterval is the probe interval for a port: port_{port}_health-probe_interval,
// then azure-load-balancer-health-probe-interval, then 5; minimum 5 (§1.4 #42).
// For an ETP Local Service pass the healthCheckNodePort (§4).
func (s *Service) ProbeInterval(port int32) (int32, error) {
	return s.probeInt(port, PortProbeInterval, AnnProbeInterval, 5, DefaultProbeInterval)
}

// ProbeNumOfProbe is the probe threshold for a port: per-port, then global,
// then 2; minimum 2 (§1.4 #43).
func (s *Service) ProbeNumOfProbe(port int32) (int32, error) {
	return s.probeInt(port, PortProbeNumOfProbe, AnnProbeNumOfProbe, 2, DefaultProbeNumOfProbe)
}

// ProbeTiming returns interval and threshold for a port and applies CCM's
// interval x num-of-probe < 120 rule (getHealthProbeConfigProbeIntervalAndNumOfProbe).
func (s *Service) ProbeTiming(port int32) (interval, numOfProbe int32, err error) {
	if numOfProbe, err = s.ProbeNumOfProbe(port); err != nil {
		return 0, 0, err
	}
	if interval, err = s.ProbeInterval(port); err != nil {
		return 0, 0, err
	}
	if int64(interval)*int64(numOfProbe) >= 120 {
		return 0, 0, errProbeTotal
	}
	return interval, numOfProbe, nil
}

// ProbeProtocol is a port's probe protocol (Tcp, Http or Https) and where it
// came from: non-empty port_{port}_health-probe_protocol, then appProtocol
// (when set at all), then the non-blank global annotation, then Tcp. Unknown
// values become Tcp (§4). Https on a basic SKU becomes Tcp: the caller, who
// knows the SKU, applies that.
func (s *Service) ProbeProtocol(p corev1.ServicePort) (protocol string, from ProbeSource) {
	if v, ok := s.PortAnnotation(p.Port, PortProbeProtocol); ok && v != "" {
		protocol, _ = ParseProbeProtocol(v)
		return protocol, ProbeFromPortAnnotation
	}
	if p.AppProtocol != nil {
		protocol, _ = ParseProbeProtocol(*p.AppProtocol)
		return protocol, ProbeFromAppProtocol
	}
	if v, ok := s.Annotation(AnnProbeProtocol); ok && strings.TrimSpace(v) != "" {
		protocol, _ = ParseProbeProtocol(v)
		return protocol, ProbeFromGlobalAnnotation
	}
	return "Tcp", ProbeFromDefault
}

// ProbeRequestPath is the request path of an Http/Https probe: the per-port
// annotation if present (even empty), then the global one, then "/" (§1.4 #44).
func (s *Service) ProbeRequestPath(port int32) string {
	if v, ok := s.PortAnnotation(port, PortProbeRequestPath); ok {
		return v
	}
	if v, ok := s.Annotation(AnnProbeRequestPath); ok {
		return v
	}
	return DefaultProbeRequestPath
}

// ProbePort resolves port_{port}_health-probe_port (§1.4 #41): a Service
// port name (case-insensitive) or a number equal to a Service port gives
// that port's nodePort; another number 0..65535 is used as is. explicit is
// false (and the port's own nodePort returned) when the annotation is absent.
func (s *Service) ProbePort(p corev1.ServicePort) (port int32, explicit bool, err error) {
	v, ok := s.PortAnnotation(p.Port, PortProbePort)
	if !ok {
		return p.NodePort, false, nil
	}
	key := PortKey(p.Port, PortProbePort)
	n, convErr := strconv.Atoi(v)
	if convErr != nil {
		for _, sp := range s.Spec.Ports {
			if strings.EqualFold(sp.Name, v) {
				return sp.NodePort, true, nil
			}
		}
		return 0, true, fmt.Errorf("failed to parse annotation %s: port %s not found in service", key, shownKey(v))
	}
	if n < 0 || n > 65535 {
		return 0, true, fmt.Errorf("failed to parse annotation %s: port %d is out of range", key, n)
	}
	for _, sp := range s.Spec.Ports {
		if int(sp.Port) == n {
			return sp.NodePort, true, nil
		}
	}
	return int32(n), true, nil
}
