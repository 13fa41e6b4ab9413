package desired

import (
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"

	"github.com/azsvc/azsvc/plan/cluster"
	"github.com/azsvc/azsvc/plan/service"
)

// probeSpec is a health probe before it is placed on a load balancer: its
// name depends on the family (dual-stack "-IPv6") and the LB.
type probeSpec struct {
	shared    bool   // cluster-service-shared-health-probe
	local     bool   // the ETP Local healthCheckNodePort probe
	nameProto string // protocol and port the probe is named after
	namePort  int32
	protocol  string // Tcp, Http, Https
	port      int32
	path      string // Http/Https only
	interval  int32
	threshold int32
}

// portPlan is one spec.ports entry with its rule and probe decisions.
type portPlan struct {
	port   corev1.ServicePort
	proto  string // TCP, UDP or SCTP
	noRule bool
	probe  *probeSpec
}

func protoOf(p corev1.ServicePort) string {
	if p.Protocol == "" {
		return string(corev1.ProtocolTCP)
	}
	return string(p.Protocol)
}

func itoa(i int) string { return strconv.Itoa(i) }

// planPorts decides rule and probe for every port (ccm-semantics §3, §4).
func planPorts(r *refusal, info *svcInfo, cfg *cluster.Config) []portPlan {
	s := info.svc
	var local *probeSpec
	if info.etpLocal && !(s.Bool(service.AnnPLSCreate) && s.Bool(service.AnnPLSProxyProtocol)) {
		local = localProbe(r, s)
	}
	out := make([]portPlan, 0, len(s.Spec.Ports))
	for _, p := range s.Spec.Ports {
		pp := portPlan{port: p, proto: protoOf(p), noRule: s.Bool(service.PortKey(p.Port, service.PortNoLBRule))}
		if !pp.noRule || info.haPorts {
			pp.probe = decideProbe(r, info, cfg, p, local)
		}
		out = append(out, pp)
	}
	return out
}

// decideProbe is the §4 decision order for one port.
func decideProbe(r *refusal, info *svcInfo, cfg *cluster.Config, p corev1.ServicePort, local *probeSpec) *probeSpec {
	s := info.svc
	switch {
	case cfg.SharedProbe() && !info.etpLocal: // §4.1
		return &probeSpec{shared: true, protocol: "Http", port: cfg.SharedHealthProbePort,
			path: cfg.SharedHealthProbePath, interval: 5, threshold: 2}
	case s.Bool(service.PortKey(p.Port, service.PortNoProbeRule)): // §1.4 #39
		return nil
	case protoOf(p) != string(corev1.ProtocolTCP): // UDP/SCTP never get a per-port probe
		return local
	}
	if _, explicit := s.Annotations[service.PortKey(p.Port, service.PortProbePort)]; local != nil && !explicit {
		return local // §4.2
	}
	return perPortProbe(r, info, cfg, p) // §4.3
}

// localProbe is the ETP Local probe: Http on healthCheckNodePort /healthz,
// named prefix-TCP-<healthCheckNodePort> even for UDP Services (§4.2).
func localProbe(r *refusal, s *service.Service) *probeSpec {
	hc := s.Spec.HealthCheckNodePort
	interval, threshold := intervalAndThreshold(r, s, hc)
	return &probeSpec{local: true, nameProto: "TCP", namePort: hc, protocol: "Http", port: hc, path: "/healthz",
		interval: interval, threshold: threshold}
}

func perPortProbe(r *refusal, info *svcInfo, cfg *cluster.Config, p corev1.ServicePort) *probeSpec {
	s := info.svc
	spec := &probeSpec{nameProto: protoOf(p), namePort: p.Port, port: p.NodePort}
	if v, ok := s.Annotations[service.PortKey(p.Port, service.PortProbePort)]; ok {
		port, ok := probePort(r, s, p.Port, v)
		if !ok {
			return nil
		}
		spec.port = port
	}
	spec.protocol = probeProtocol(s, p, cfg.Standard())
	if spec.protocol != "Tcp" {
		spec.path = "/"
		if v, ok := s.Annotations[service.PortKey(p.Port, service.PortProbeRequestPath)]; ok {
			spec.path = v
		} else if v, ok := s.Annotations[service.AnnProbeRequestPath]; ok {
			spec.path = v
		}
	}
	spec.interval, spec.threshold = intervalAndThreshold(r, s, p.Port)
	return spec
}

// probePort resolves port_{p}_health-probe_port: a port name gives that
// port's nodePort, a number equal to a Service port gives its nodePort, any
// other number is used as is (§1.4 #41).
func probePort(r *refusal, s *service.Service, port int32, v string) (int32, bool) {
	field := annField(service.PortKey(port, service.PortProbePort))
	for _, item := range s.Spec.Ports {
		if strings.EqualFold(item.Name, v) {
			return item.NodePort, true
		}
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		r.add(CodeProbeConfig, field, "name a Service port or give a port number",
			"failed to parse annotation %s: port %s not found in service", service.PortKey(port, service.PortProbePort), v)
		return 0, false
	}
	if n < 0 || n > 65535 {
		r.add(CodeProbeConfig, field, "use a port between 0 and 65535",
			"failed to parse annotation %s: port %d is out of range", service.PortKey(port, service.PortProbePort), n)
		return 0, false
	}
	for _, item := range s.Spec.Ports {
		if item.Port == int32(n) {
			return item.NodePort, true
		}
	}
	return int32(n), true
}

// probeProtocol: per-port annotation, then appProtocol, then the global
// annotation, then Tcp; unknown values mean Tcp and Https on basic means Tcp
// (buildHealthProbeRulesForPort).
func probeProtocol(s *service.Service, p corev1.ServicePort, standard bool) string {
	v, ok := s.Annotations[service.PortKey(p.Port, service.PortProbeProtocol)]
	if !ok && p.AppProtocol != nil {
		v, ok = *p.AppProtocol, true
	}
	if !ok {
		v = s.Annotations[service.AnnProbeProtocol]
	}
	switch v = strings.TrimSpace(v); {
	case strings.EqualFold(v, "Https") && standard:
		return "Https"
	case strings.EqualFold(v, "Http"):
		return "Http"
	}
	return "Tcp"
}

// intervalAndThreshold reads the per-port then global interval (≥5,
// default 5) and number of probes (≥2, default 2); their product must be
// below 120 (getHealthProbeConfigProbeIntervalAndNumOfProbe).
func intervalAndThreshold(r *refusal, s *service.Service, port int32) (int32, int32) {
	threshold, okT := tuning(r, s, port, service.PortProbeNumOfProbe, service.AnnProbeNumOfProbe, 2, "num-of-probe")
	interval, okI := tuning(r, s, port, service.PortProbeInterval, service.AnnProbeInterval, 5, "interval")
	if okT && okI && interval*threshold >= 120 {
		r.add(CodeProbeConfig, annField(service.AnnProbeInterval), "lower the interval or the number of probes",
			"total probe should be less than 120, please adjust interval and number of probe accordingly")
	}
	return interval, threshold
}

func tuning(r *refusal, s *service.Service, port int32, param, global string, minimum int32, what string) (int32, bool) {
	for _, key := range []string{service.PortKey(port, param), global} {
		v, ok, err := s.Int32(key)
		if err != nil {
			r.add(CodeInvalidInteger, annField(key), "use a whole number", "%v", err)
			return minimum, false
		}
		if !ok {
			continue
		}
		if v < minimum {
			r.add(CodeProbeConfig, annField(key), "use at least "+itoa(int(minimum)),
				"failed to parse annotation %s: the minimum value of %s is %d", key, what, minimum)
			return minimum, false
		}
		return v, true
	}
	return minimum, true
}
