package adopt

import (
	"reflect"
	"testing"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/desired"
	"github.com/azsvc/azsvc/plan/service"
)

// probeFor is a probe on lb named name, on port.
func probeFor(lb, name string, port int, proto string) *plan.Resource {
	return lbChild(plan.KindProbe, lb, name, map[string]any{"port": port, "protocol": proto})
}

// ruleTo is a rule named name using probe, with backendPort and floating IP
// as given.
func ruleTo(lb, name string, probe *plan.Resource, backend int, floating bool) *plan.Resource {
	props := map[string]any{"backendPort": backend, "enableFloatingIP": floating}
	if probe != nil {
		props["probe"] = ref(probe.ID)
	}
	return lbChild(plan.KindRule, lb, name, props)
}

// TestNodePorts covers where Azure holds what the API server assigned
// (issue 20): a probe CCM built for the Service port, another port's
// probe named by health-probe_port, a rule's backend port with floating IP
// disabled, the ETP Local probe named after the healthCheckNodePort; a
// pinned port is kept, disagreeing evidence leaves the port unknown, and a
// Service whose UID is unknown has nothing in Azure.
func TestNodePorts(t *testing.T) {
	const uid = "fedcba98-7654-3210-fedc-ba9876543210"
	head := "apiVersion: v1\nkind: Service\nmetadata: {name: web, namespace: shop, uid: " + uid + "}\n"
	tests := []struct {
		name, spec  string
		annotations map[string]string
		arm         []*plan.Resource
		want        desired.AssignedPorts
	}{
		{"probe of the port", "spec: {type: LoadBalancer, ports: [{port: 80}]}", nil,
			withProbe("TCP-80", 30080, "TCP-80", 80, true), desired.AssignedPorts{plan.NodePortField("TCP", 80): 30080}},
		{"pinned is kept", "spec: {type: LoadBalancer, ports: [{port: 80, nodePort: 31000}]}", nil,
			withProbe("TCP-80", 30080, "TCP-80", 80, true), nil},
		{"floating IP disabled: the backend port", "spec: {type: LoadBalancer, ports: [{port: 53, protocol: UDP}]}", nil,
			[]*plan.Resource{ruleTo("kubernetes", prefixB+"-UDP-53", nil, 30053, false)}, desired.AssignedPorts{plan.NodePortField("UDP", 53): 30053}},
		{"ETP Local: the healthCheckNodePort", "spec: {type: LoadBalancer, externalTrafficPolicy: Local, ports: [{port: 80, nodePort: 30080}]}", nil,
			withProbe("TCP-32100", 32100, "TCP-80", 80, true), desired.AssignedPorts{plan.FieldHealthCheckNodePort: 32100}},
		{"disagreeing evidence stays unknown", "spec: {type: LoadBalancer, ports: [{port: 80}]}", nil,
			withProbe("TCP-80", 30080, "TCP-80", 30081, false), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := service.Decode("m.yaml", []byte(head+tt.spec+"\n"))
			got := NodePorts(in.Services, state(tt.arm...), nil)
			if !reflect.DeepEqual(got.ByService["shop/web"], tt.want) || len(got.Adopted) != len(tt.want) {
				t.Errorf("ports = %v (%+v), want %v", got.ByService["shop/web"], got.Adopted, tt.want)
			}
		})
	}
	unknownUID := service.Decode("m.yaml", []byte("apiVersion: v1\nkind: Service\nmetadata: {name: web, namespace: shop}\nspec: {type: LoadBalancer, ports: [{port: 80}]}\n"))
	if got := NodePorts(unknownUID.Services, state(withProbe("TCP-80", 30080, "TCP-80", 80, true)...), nil); len(got.ByService) != 0 {
		t.Errorf("a Service whose UID is unknown got %v", got.ByService)
	}
	// Its UID found in Azure (plan/adopt Find), its ports are found too.
	if got := NodePorts(unknownUID.Services, state(withProbe("TCP-80", 30080, "TCP-80", 80, true)...), map[string]string{"shop/web": prefixB}); len(got.ByService["shop/web"]) != 1 {
		t.Errorf("with the prefix from Azure: %v", got.ByService)
	}
}

// withProbe is a probe named prefixB-probeName on probePort and the rule
// prefixB-ruleName using it, with the rule's backend port and floating IP.
func withProbe(probeName string, probePort int, ruleName string, backend int, floating bool) []*plan.Resource {
	p := probeFor("kubernetes", prefixB+"-"+probeName, probePort, "Tcp")
	return []*plan.Resource{p, ruleTo("kubernetes", prefixB+"-"+ruleName, p, backend, floating)}
}

// TestNodePortsByName: a health-probe_port naming another port makes the
// probe's port that port's nodePort.
func TestNodePortsByName(t *testing.T) {
	in := service.Decode("m.yaml", []byte(`apiVersion: v1
kind: Service
metadata:
  name: web
  namespace: shop
  uid: fedcba98-7654-3210-fedc-ba9876543210
  annotations: {service.beta.kubernetes.io/port_8883_health-probe_port: health}
spec: {type: LoadBalancer, ports: [{name: mqtt, port: 8883}, {name: health, port: 8080}]}
`))
	got := NodePorts(in.Services, state(withProbe("TCP-8883", 30808, "TCP-8883", 8883, true)...), nil)
	if want := (desired.AssignedPorts{plan.NodePortField("TCP", 8080): 30808}); !reflect.DeepEqual(got.ByService["shop/web"], want) {
		t.Errorf("ports = %v, want %v", got.ByService["shop/web"], want)
	}
}
