package service

import (
	"strings"
	"testing"
)

// TestPartialNodeList: an endpoint on a node that no Node of the input has
// is a warning at its nodeName, one per slice naming every such node;
// none without Node input, and none once a cluster's full node list was
// laid over the manifests.
func TestPartialNodeList(t *testing.T) {
	slice := sliceDoc + "- addresses: [10.244.1.8]\n  nodeName: aks-nodepool1-1\n- addresses: [10.244.1.9]\n  nodeName: aks-nodepool1-2\n"
	slice = strings.Replace(slice, "ports:\n- {name: http, port: 8080, protocol: TCP}\n", "", 1) +
		"ports:\n- {name: http, port: 8080, protocol: TCP}\n"
	in := Decode("in.yaml", []byte(nodeDoc+"---\n"+slice))
	var got []Diagnostic
	for _, d := range in.Diagnostics {
		if d.Code == CodeUnknownNodeName {
			got = append(got, d)
		} else {
			t.Errorf("unexpected %s: %s", d.Code, d.Message)
		}
	}
	if len(got) != 1 {
		t.Fatalf("warnings %+v, want one", got)
	}
	d := got[0]
	if d.Severity != SeverityWarning || d.Field != "endpoints[1].nodeName" || d.Pos.Line != 30 ||
		!strings.Contains(d.Message, "nodes aks-nodepool1-1, aks-nodepool1-2") || !strings.Contains(d.Hint, "--from-cluster") {
		t.Errorf("warning %+v at %v", d, d.Pos)
	}
	if only := Decode("in.yaml", []byte(slice)); len(only.Diagnostics) != 0 {
		t.Errorf("without Nodes: %+v", only.Diagnostics)
	}
	OverlayTopology(in, nil, nil)
	if len(in.Diagnostics) != 0 {
		t.Errorf("after a cluster read: %+v", in.Diagnostics)
	}
}

// TestEndpointSliceV1beta1: a slice in discovery.k8s.io/v1beta1 is left
// out with a warning at its apiVersion.
func TestEndpointSliceV1beta1(t *testing.T) {
	in := Decode("in.yaml", []byte(strings.Replace(sliceDoc, "discovery.k8s.io/v1", "discovery.k8s.io/v1beta1", 1)))
	if len(in.Diagnostics) != 1 || in.Diagnostics[0].Code != CodeSliceV1beta1 || in.Diagnostics[0].Pos.Line != 1 ||
		!strings.Contains(in.Diagnostics[0].Message, "web-abc12") {
		t.Fatalf("diagnostics %+v", in.Diagnostics)
	}
	if in.Topology.SlicesKnown || len(in.Topology.EndpointSlices) != 0 {
		t.Errorf("topology %+v", in.Topology)
	}
}
