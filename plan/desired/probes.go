package desired

import (
	"strconv"

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
	if info.etpLocal && !(s.PLSCreate() && s.PLSProxyProtocol()) {
		local = localProbe(r, s)
	}
	out := make([]portPlan, 0, len(s.Spec.Ports))
	for _, p := range s.Spec.Ports {
		pp := portPlan{port: p, proto: protoOf(p), noRule: s.NoLBRule(p.Port)}
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
	case s.NoProbeRule(p.Port): // §1.4 #39
		return nil
	case protoOf(p) != string(corev1.ProtocolTCP): // UDP/SCTP never get a per-port probe
		return local
	}
	if _, explicit := s.PortAnnotation(p.Port, service.PortProbePort); local != nil && !explicit {
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
	port, _, err := s.ProbePort(p)
	if err != nil {
		r.add(CodeProbeConfig, annField(service.PortKey(p.Port, service.PortProbePort)),
			"name a Service port or give a port number between 0 and 65535", "%v", err)
		return nil
	}
	spec := &probeSpec{nameProto: protoOf(p), namePort: p.Port, port: port}
	spec.protocol, _ = s.ProbeProtocol(p)
	if spec.protocol == "Https" && !cfg.Standard() {
		spec.protocol = "Tcp" // Https needs a standard SKU (buildHealthProbeRulesForPort)
	}
	if spec.protocol != "Tcp" {
		spec.path = s.ProbeRequestPath(p.Port)
	}
	spec.interval, spec.threshold = intervalAndThreshold(r, s, p.Port)
	return spec
}

// intervalAndThreshold reads the per-port then global interval (≥5,
// default 5) and number of probes (≥2, default 2); their product must be
// below 120 (getHealthProbeConfigProbeIntervalAndNumOfProbe). Kept beside
// Service.ProbeTiming because it reports every bad key with its own field
// and code, in the wording examples/invalid pins (without the accessor's
// "error parsing value: ").
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
	if len(s.Annotations) == 0 {
		return minimum, true // the common case, without building the per-port key
	}
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
