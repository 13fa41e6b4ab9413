package desired

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/cluster"
)

const tcpUDP = `  ports:
  - {name: http, protocol: TCP, port: 80, nodePort: 30080}
  - {name: dns, protocol: UDP, port: 53, nodePort: 30053}
`

const local = `  externalTrafficPolicy: Local
  healthCheckNodePort: 32000
`

// TestProbeDecisions covers every decision of ccm-semantics §4 (and the
// per-port annotations of §1.4): for the rule named rule, the probe it
// references, or "" for none.
func TestProbeDecisions(t *testing.T) {
	type probe = map[string]any
	tests := []struct {
		name  string
		cfg   []func(*cluster.Config)
		ann   map[string]string
		spec  string
		rule  string
		probe string
		want  probe // properties of the referenced probe
	}{
		{name: "§4.3 default: Tcp on nodePort, 5s x2", spec: tcp80, rule: "TCP-80", probe: "TCP-80",
			want: probe{"protocol": "Tcp", "port": 30080, "intervalInSeconds": 5, "probeThreshold": 2}},
		{name: "§4.3 UDP ports get no per-port probe", spec: tcpUDP, rule: "UDP-53"},
		{name: "§4.1 shared mode: TCP rule -> shared probe", cfg: []func(*cluster.Config){sharedProbeMode}, spec: tcpUDP,
			rule: "TCP-80", probe: sharedProbeName,
			want: probe{"protocol": "Http", "port": 10256, "requestPath": "/healthz", "intervalInSeconds": 5, "probeThreshold": 2}},
		{name: "§4.1 shared mode: UDP rule -> shared probe too", cfg: []func(*cluster.Config){sharedProbeMode}, spec: tcpUDP,
			rule: "UDP-53", probe: sharedProbeName,
			want: probe{"protocol": "Http", "port": 10256, "requestPath": "/healthz", "intervalInSeconds": 5, "probeThreshold": 2}},
		{name: "§4.1 shared mode ignores per-port annotations", cfg: []func(*cluster.Config){sharedProbeMode},
			ann: map[string]string{"port_80_health-probe_protocol": "Https"}, spec: tcp80, rule: "TCP-80", probe: sharedProbeName,
			want: probe{"protocol": "Http", "port": 10256, "requestPath": "/healthz", "intervalInSeconds": 5, "probeThreshold": 2}},
		{name: "§4.1 shared mode not for ETP Local", cfg: []func(*cluster.Config){sharedProbeMode}, spec: tcp80 + local,
			rule: "TCP-80", probe: "TCP-32000",
			want: probe{"protocol": "Http", "port": 32000, "requestPath": "/healthz", "intervalInSeconds": 5, "probeThreshold": 2}},
		{name: "§4.2 ETP Local: Http healthCheckNodePort /healthz", spec: tcpUDP + local, rule: "TCP-80", probe: "TCP-32000",
			want: probe{"protocol": "Http", "port": 32000, "requestPath": "/healthz", "intervalInSeconds": 5, "probeThreshold": 2}},
		{name: "§4.2 ETP Local: UDP rule references it too", spec: tcpUDP + local, rule: "UDP-53", probe: "TCP-32000",
			want: probe{"protocol": "Http", "port": 32000, "requestPath": "/healthz", "intervalInSeconds": 5, "probeThreshold": 2}},
		{name: "§4.2 ETP Local: global protocol and path ignored, tuning by healthCheckNodePort",
			ann:  map[string]string{"azure-load-balancer-health-probe-protocol": "Tcp", "azure-load-balancer-health-probe-request-path": "/x", "port_32000_health-probe_interval": "10", "azure-load-balancer-health-probe-num-of-probe": "3"},
			spec: tcp80 + local, rule: "TCP-80", probe: "TCP-32000",
			want: probe{"protocol": "Http", "port": 32000, "requestPath": "/healthz", "intervalInSeconds": 10, "probeThreshold": 3}},
		{name: "§4.2 ETP Local with PLS proxy protocol: per-port probes",
			ann:  map[string]string{"azure-load-balancer-internal": "true", "azure-pls-create": "true", "azure-pls-proxy-protocol": " TRUE "},
			spec: tcp80 + local, rule: "TCP-80", probe: "TCP-80",
			want: probe{"protocol": "Tcp", "port": 30080, "intervalInSeconds": 5, "probeThreshold": 2}},
		{name: "§4.2 ETP Local with explicit probe port: own probe", ann: map[string]string{"port_80_health-probe_port": "8080"},
			spec: tcp80 + local, rule: "TCP-80", probe: "TCP-80",
			want: probe{"protocol": "Tcp", "port": 8080, "intervalInSeconds": 5, "probeThreshold": 2}},
		{name: "§1.4 #39 no_probe_rule, even under ETP Local", ann: map[string]string{"port_80_no_probe_rule": "true"},
			spec: tcp80 + local, rule: "TCP-80"},
		{name: "§4.3 appProtocol http switches to Http /", spec: "  ports:\n  - {port: 80, nodePort: 30080, appProtocol: http}\n",
			rule: "TCP-80", probe: "TCP-80", want: probe{"protocol": "Http", "port": 30080, "requestPath": "/", "intervalInSeconds": 5, "probeThreshold": 2}},
		{name: "§4.3 per-port protocol beats appProtocol", ann: map[string]string{"port_80_health-probe_protocol": "tcp"},
			spec: "  ports:\n  - {port: 80, nodePort: 30080, appProtocol: http}\n", rule: "TCP-80", probe: "TCP-80",
			want: probe{"protocol": "Tcp", "port": 30080, "intervalInSeconds": 5, "probeThreshold": 2}},
		{name: "§4.3 appProtocol beats global annotation", ann: map[string]string{"azure-load-balancer-health-probe-protocol": "Https"},
			spec: "  ports:\n  - {port: 80, nodePort: 30080, appProtocol: kubernetes.io/h2c}\n", rule: "TCP-80", probe: "TCP-80",
			want: probe{"protocol": "Tcp", "port": 30080, "intervalInSeconds": 5, "probeThreshold": 2}},
		{name: "§4.3 global protocol and path", ann: map[string]string{"azure-load-balancer-health-probe-protocol": " http ", "azure-load-balancer-health-probe-request-path": "/ready"},
			spec: tcp80, rule: "TCP-80", probe: "TCP-80",
			want: probe{"protocol": "Http", "port": 30080, "requestPath": "/ready", "intervalInSeconds": 5, "probeThreshold": 2}},
		{name: "§4.3 per-port path beats global", ann: map[string]string{"azure-load-balancer-health-probe-protocol": "Http", "azure-load-balancer-health-probe-request-path": "/ready", "port_80_health-probe_request-path": "/live"},
			spec: tcp80, rule: "TCP-80", probe: "TCP-80",
			want: probe{"protocol": "Http", "port": 30080, "requestPath": "/live", "intervalInSeconds": 5, "probeThreshold": 2}},
		{name: "§4.3 Https on standard", ann: map[string]string{"port_80_health-probe_protocol": "HTTPS"}, spec: tcp80, rule: "TCP-80", probe: "TCP-80",
			want: probe{"protocol": "Https", "port": 30080, "requestPath": "/", "intervalInSeconds": 5, "probeThreshold": 2}},
		{name: "§4.3 Https on basic falls back to Tcp", cfg: []func(*cluster.Config){basicSKU}, ann: map[string]string{"port_80_health-probe_protocol": "Https"},
			spec: tcp80, rule: "TCP-80", probe: "TCP-80", want: probe{"protocol": "Tcp", "port": 30080, "intervalInSeconds": 5, "probeThreshold": 2}},
		{name: "§4.3 unknown protocol value means Tcp", ann: map[string]string{"port_80_health-probe_protocol": "grpc"}, spec: tcp80, rule: "TCP-80", probe: "TCP-80",
			want: probe{"protocol": "Tcp", "port": 30080, "intervalInSeconds": 5, "probeThreshold": 2}},
		{name: "§1.4 #41 probe port by port name -> its nodePort", ann: map[string]string{"port_80_health-probe_port": "Status"},
			spec: "  ports:\n  - {name: http, port: 80, nodePort: 30080}\n  - {name: status, port: 8081, nodePort: 30081}\n", rule: "TCP-80", probe: "TCP-80",
			want: probe{"protocol": "Tcp", "port": 30081, "intervalInSeconds": 5, "probeThreshold": 2}},
		{name: "§1.4 #41 probe port equal to a Service port -> its nodePort", ann: map[string]string{"port_80_health-probe_port": "8081"},
			spec: "  ports:\n  - {name: http, port: 80, nodePort: 30080}\n  - {name: status, port: 8081, nodePort: 30081}\n", rule: "TCP-80", probe: "TCP-80",
			want: probe{"protocol": "Tcp", "port": 30081, "intervalInSeconds": 5, "probeThreshold": 2}},
		{name: "§4.3 interval and threshold: per-port beats global", ann: map[string]string{"port_80_health-probe_interval": "7", "azure-load-balancer-health-probe-interval": "20", "azure-load-balancer-health-probe-num-of-probe": "4"},
			spec: tcp80, rule: "TCP-80", probe: "TCP-80", want: probe{"protocol": "Tcp", "port": 30080, "intervalInSeconds": 7, "probeThreshold": 4}},
		{name: "§3 HA ports: one All rule named after ports[0], probe renamed after it",
			ann:  map[string]string{"azure-load-balancer-internal": "true", "azure-load-balancer-enable-high-availability-ports": "true"},
			spec: "  ports:\n  - {name: dns, protocol: UDP, port: 53, nodePort: 30053}\n  - {name: http, port: 80, nodePort: 30080}\n",
			rule: "UDP-53", probe: "UDP-53", want: probe{"protocol": "Tcp", "port": 30080, "intervalInSeconds": 5, "probeThreshold": 2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := mustBuild(t, testConfig(t, tt.cfg...), manifest("svc", tt.ann, tt.spec))
			rule := named(st, plan.KindRule, testPrefix+"-"+tt.rule)
			if rule == nil {
				t.Fatalf("no rule %s-%s; rules: %v", testPrefix, tt.rule, names(st, plan.KindRule))
			}
			ref := refName(rule.Properties["probe"])
			wantRef := ""
			if tt.probe == sharedProbeName {
				wantRef = sharedProbeName
			} else if tt.probe != "" {
				wantRef = testPrefix + "-" + tt.probe
			}
			if ref != wantRef {
				t.Fatalf("rule probe = %q, want %q", ref, wantRef)
			}
			if wantRef == "" {
				return
			}
			p := named(st, plan.KindProbe, wantRef)
			if p == nil {
				t.Fatalf("probe %s not in state: %v", wantRef, names(st, plan.KindProbe))
			}
			if d := cmp.Diff(tt.want, p.Properties); d != "" {
				t.Errorf("probe properties (-want +got):\n%s", d)
			}
		})
	}
}

// TestNoLBRule covers §1.4 #38: no rule and no probe for the port.
func TestNoLBRule(t *testing.T) {
	st := mustBuild(t, testConfig(t), manifest("svc", map[string]string{"port_53_no_lb_rule": "True"}, tcpUDP))
	if d := cmp.Diff([]string{testPrefix + "-TCP-80"}, names(st, plan.KindRule)); d != "" {
		t.Errorf("rules (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{testPrefix + "-TCP-80"}, names(st, plan.KindProbe)); d != "" {
		t.Errorf("probes (-want +got):\n%s", d)
	}
}

// TestProbeErrors covers the §4 validation errors that make CCM refuse
// the Service.
func TestProbeErrors(t *testing.T) {
	tests := []struct {
		name string
		ann  map[string]string
		code string
	}{
		{"§4.3 interval below 5", map[string]string{"azure-load-balancer-health-probe-interval": "4"}, CodeProbeConfig},
		{"§4.3 num-of-probe below 2", map[string]string{"port_80_health-probe_num-of-probe": "1"}, CodeProbeConfig},
		{"§4.3 interval x threshold >= 120", map[string]string{"azure-load-balancer-health-probe-interval": "60", "azure-load-balancer-health-probe-num-of-probe": "2"}, CodeProbeConfig},
		{"§1.4 #41 probe port not a name or number", map[string]string{"port_80_health-probe_port": "nope"}, CodeProbeConfig},
		{"§1.4 #41 probe port out of range", map[string]string{"port_80_health-probe_port": "70000"}, CodeProbeConfig},
		{"§1.2 interval not an integer", map[string]string{"azure-load-balancer-health-probe-interval": "5s"}, CodeInvalidInteger},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st, scope, diags := build(t, testConfig(t), manifest("svc", tt.ann, tcp80))
			if len(diags) != 1 || diags[0].Code != tt.code {
				t.Fatalf("diagnostics = %+v, want one %s", diags, tt.code)
			}
			if st.Len() != 0 || len(scope.Services) != 0 {
				t.Errorf("refused Service still produced %d resources, scope %v", st.Len(), scope.Services)
			}
		})
	}
}
