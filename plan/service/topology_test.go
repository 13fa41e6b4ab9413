package service

import (
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

const nodeDoc = `apiVersion: v1
kind: Node
metadata:
  name: aks-nodepool1-0
  labels:
    kubernetes.io/os: linux
spec:
  providerID: azure:///subscriptions/s/resourceGroups/mc_rg/providers/Microsoft.Compute/virtualMachineScaleSets/aks-nodepool1-vmss/virtualMachines/0
status:
  addresses:
  - {type: Hostname, address: aks-nodepool1-0}
  - {type: InternalIP, address: 10.224.0.4}
  - {type: InternalIP, address: "fd00::4"}
  capacity: {cpu: "2", memory: 8Gi}
  conditions:
  - {type: Ready, status: "True", lastHeartbeatTime: "2026-01-02T03:04:05Z"}
`

const sliceDoc = `apiVersion: discovery.k8s.io/v1
kind: EndpointSlice
metadata:
  name: web-abc12
  namespace: shop
  labels: {kubernetes.io/service-name: web}
addressType: IPv4
endpoints:
- addresses: [10.244.1.7]
  conditions: {ready: true}
  nodeName: aks-nodepool1-0
ports:
- {name: http, port: 8080, protocol: TCP}
`

func TestDecodeTopology(t *testing.T) {
	in := Decode("cluster.yaml", []byte(nodeDoc+"---\n"+sliceDoc))
	if len(in.Diagnostics) != 0 {
		t.Fatalf("diagnostics %v", in.Diagnostics)
	}
	topo := in.Topology
	if !topo.NodesKnown || !topo.SlicesKnown || len(topo.Nodes) != 1 || len(topo.EndpointSlices) != 1 {
		t.Fatalf("topology %+v", topo)
	}
	n := topo.Nodes[0]
	if n.Name != "aks-nodepool1-0" || len(n.Status.Addresses) != 3 || n.Source.Line != 1 || n.Status.Capacity.Cpu().Value() != 2 {
		t.Errorf("node %+v at %v", n.Node, n.Source)
	}
	e := topo.EndpointSlices[0]
	if e.Key() != "shop/web-abc12" || e.ServiceKey() != "shop/web" || *e.Endpoints[0].NodeName != "aks-nodepool1-0" || e.Source.Line != 18 {
		t.Errorf("slice %+v at %v", e.EndpointSlice, e.Source)
	}
	if len(in.Services) != 0 || in.Skipped[SkipNotService] != 0 {
		t.Errorf("services %d, skipped %v", len(in.Services), in.Skipped)
	}
}

// TestDecodeTopologyDiagnostics: strict decoding, addresses and names, each
// finding placed at its field.
func TestDecodeTopologyDiagnostics(t *testing.T) {
	tests := []struct {
		name      string
		doc       string
		code      string
		line      int
		field     string
		message   string
		keptNodes int
	}{
		{"unknown field, with a suggestion", strings.Replace(nodeDoc, "  providerID:", "  providerId:", 1),
			CodeUnknownObjField, 8, "spec.providerId", `unknown field spec.providerId in Node; did you mean providerID?`, 0},
		{"field of the wrong type", strings.Replace(nodeDoc, "  addresses:\n", "  addresses: 10.0.0.1\n  x:\n", 1),
			CodeWrongType, 10, "status.addresses", "status.addresses: expected []v1.NodeAddress, got string", 0},
		{"InternalIP that is not an address", strings.Replace(nodeDoc, "10.224.0.4", "10.224.0", 1),
			CodeNotAnAddress, 12, "status.addresses[1].address", `Node aks-nodepool1-0: InternalIP "10.224.0" is not an IP address`, 0},
		{"a Hostname address is not checked", strings.Replace(nodeDoc, "address: aks-nodepool1-0}", "address: not an ip}", 1),
			"", 0, "", "", 1},
		{"no name", strings.Replace(nodeDoc, "  name: aks-nodepool1-0\n", "", 1),
			CodeTopologyNoName, 1, "", "Node has no metadata.name", 0},
		{"duplicate Node", nodeDoc + "---\n" + nodeDoc,
			CodeDuplicateNode, 18, "metadata.name", "Node aks-nodepool1-0 is defined twice; the first definition is at t.yaml:1:1", 1},
		{"slice address of the other family", strings.Replace(sliceDoc, "10.244.1.7", "fd00::7", 1),
			CodeNotAnAddress, 9, "endpoints[0].addresses[0]", `EndpointSlice shop/web-abc12: "fd00::7" is not an IPv4 address`, 0},
		{"slice addressType", strings.Replace(sliceDoc, "IPv4", "IPv5", 1),
			CodeAddressType, 7, "addressType", `EndpointSlice shop/web-abc12: addressType "IPv5" is not IPv4, IPv6 or FQDN`, 0},
		{"slice without its Service's label", strings.Replace(sliceDoc, "  labels: {kubernetes.io/service-name: web}\n", "", 1),
			CodeSliceWithoutName, 4, "metadata.labels", "EndpointSlice shop/web-abc12 has no kubernetes.io/service-name label", 0},
		{"repeated key", strings.Replace(nodeDoc, "spec:\n", "spec:\n  unschedulable: true\n  unschedulable: false\n", 1),
			CodeDuplicateKey, 9, "spec.unschedulable", `key "unschedulable" is written twice`, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := Decode("t.yaml", []byte(tc.doc))
			if len(in.Topology.Nodes) != tc.keptNodes {
				t.Errorf("kept %d nodes, want %d", len(in.Topology.Nodes), tc.keptNodes)
			}
			if tc.code == "" {
				if len(in.Diagnostics) != 0 {
					t.Fatalf("diagnostics %v", in.Diagnostics)
				}
				return
			}
			if len(in.Diagnostics) != 1 {
				t.Fatalf("diagnostics %v, want one %s", in.Diagnostics, tc.code)
			}
			d := in.Diagnostics[0]
			if d.Code != tc.code || d.Pos.Line != tc.line || d.Field != tc.field || !strings.HasPrefix(d.Message, tc.message) || d.Hint == "" {
				t.Errorf("got %s %v %q %q (hint %q)\nwant %s line %d %q %q", d.Code, d.Pos, d.Field, d.Message, d.Hint, tc.code, tc.line, tc.field, tc.message)
			}
		})
	}
}

// TestOverlayTopology: manifests replace the cluster's Node and
// EndpointSlice of the same name; both kinds are known once a cluster was
// read, even an empty one.
func TestOverlayTopology(t *testing.T) {
	in := Decode("m.yaml", []byte(nodeDoc))
	cluster := []corev1.Node{
		{ObjectMeta: metav1.ObjectMeta{Name: "aks-nodepool1-0", Labels: map[string]string{"from": "cluster"}}},
		{ObjectMeta: metav1.ObjectMeta{Name: "aks-nodepool1-1"}},
	}
	slices := []discoveryv1.EndpointSlice{{ObjectMeta: metav1.ObjectMeta{Name: "web-1", Namespace: "shop"}}}
	OverlayTopology(in, cluster, slices)
	topo := in.Topology
	if !topo.NodesKnown || !topo.SlicesKnown || len(topo.Nodes) != 2 || len(topo.EndpointSlices) != 1 {
		t.Fatalf("topology %+v", topo)
	}
	if topo.Nodes[0].Labels["from"] == "cluster" || topo.Nodes[0].Source.File != "m.yaml" {
		t.Errorf("the manifest did not replace the cluster's node: %+v", topo.Nodes[0])
	}
	if topo.Nodes[1].Source.File != "cluster:node/aks-nodepool1-1" || topo.EndpointSlices[0].Source.File != "cluster:endpointslice/shop/web-1" {
		t.Errorf("sources %v %v", topo.Nodes[1].Source, topo.EndpointSlices[0].Source)
	}
	empty := Decode("none.yaml", nil)
	OverlayTopology(empty, nil, nil)
	if !empty.Topology.NodesKnown || !empty.Topology.SlicesKnown {
		t.Error("an empty cluster read leaves the topology unknown")
	}
}
