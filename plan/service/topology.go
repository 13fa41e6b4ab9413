package service

import (
	"fmt"
	goslices "slices"
	"sort"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
)

// Node and EndpointSlice input: what the cluster's machines look like, for
// backend pool membership and the NSG rules whose destinations are node
// IPs (ccm-semantics §5.2, §7.2, §7.6). They come from Node (v1) and
// EndpointSlice (discovery.k8s.io/v1) documents beside the Services, so
// render and the golden tests work without a cluster, or from a live
// cluster's lists; manifests replace the cluster's objects of the same
// name, as they replace its Services.
const (
	NodeKind                = "Node"
	NodeAPIVersion          = "v1"
	EndpointSliceKind       = "EndpointSlice"
	EndpointSliceAPIVersion = "discovery.k8s.io/v1"
	endpointSliceV1beta1    = "discovery.k8s.io/v1beta1"
	ServiceNameLabel        = discoveryv1.LabelServiceName
	clusterNodePrefix       = ClusterPrefix + "node/"
	clusterSlicePrefix      = ClusterPrefix + "endpointslice/"
)

// Node is a decoded Node.
type Node struct {
	*corev1.Node
	// Source is where the object's document starts, or
	// "cluster:node/<name>" for a Node read from a cluster.
	Source Position
}

// EndpointSlice is a decoded EndpointSlice.
type EndpointSlice struct {
	*discoveryv1.EndpointSlice
	Source Position
	// nodeNameAt is where each endpoint's nodeName is written, by index;
	// empty for a slice read from a cluster.
	nodeNameAt []Position
}

// Key is "namespace/name".
func (e *EndpointSlice) Key() string { return namespaced(e.Namespace, e.Name) }

// ServiceKey is the "namespace/name" of the Service the slice belongs to
// (its kubernetes.io/service-name label), "" without the label.
func (e *EndpointSlice) ServiceKey() string {
	name := e.Labels[ServiceNameLabel]
	if name == "" {
		return ""
	}
	return namespaced(e.Namespace, name)
}

func namespaced(ns, name string) string {
	if ns == "" {
		ns = "default"
	}
	return ns + "/" + name
}

// Topology is what the planner knows of the cluster's Nodes and
// EndpointSlices. NodesKnown and SlicesKnown say whether any source gave
// them: a cluster read is known even when empty, manifests only when they
// hold at least one object of the kind. Without Nodes, azsvc plans pools
// and node-IP NSG rules as it always did: from what ARM holds.
type Topology struct {
	Nodes          []*Node          // sorted by name
	EndpointSlices []*EndpointSlice // sorted by namespace/name
	NodesKnown     bool
	SlicesKnown    bool
	// NodesFromCluster says the Nodes were read from a cluster, which
	// lists every Node; manifests may list only some.
	NodesFromCluster bool
}

// OverlayTopology lays the Nodes and EndpointSlices decoded into in over a
// cluster's: a manifest replaces the cluster's object of the same name
// (namespace/name for slices), and both kinds are then known, since the
// cluster was read.
func OverlayTopology(in *Input, nodes []corev1.Node, slices []discoveryv1.EndpointSlice) {
	t := &in.Topology
	byName := make(map[string]*Node, len(t.Nodes))
	for _, n := range t.Nodes {
		byName[n.Name] = n
	}
	for i := range nodes {
		if _, ok := byName[nodes[i].Name]; !ok {
			n := &nodes[i]
			t.Nodes = append(t.Nodes, &Node{Node: n, Source: Position{File: clusterNodePrefix + n.Name}})
		}
	}
	byKey := make(map[string]*EndpointSlice, len(t.EndpointSlices))
	for _, e := range t.EndpointSlices {
		byKey[e.Key()] = e
	}
	for i := range slices {
		e := &EndpointSlice{EndpointSlice: &slices[i]}
		if _, ok := byKey[e.Key()]; !ok {
			e.Source = Position{File: clusterSlicePrefix + e.Key()}
			t.EndpointSlices = append(t.EndpointSlices, e)
		}
	}
	t.NodesKnown, t.SlicesKnown, t.NodesFromCluster = true, true, true
	t.sort()
	// The cluster lists every Node: an endpoint on a node it lacks is a
	// race with a node leaving, not an incomplete input.
	in.Diagnostics = goslices.DeleteFunc(in.Diagnostics, func(d Diagnostic) bool { return d.Code == CodeUnknownNodeName })
}

func (t *Topology) sort() {
	sort.SliceStable(t.Nodes, func(i, j int) bool { return t.Nodes[i].Name < t.Nodes[j].Name })
	sort.SliceStable(t.EndpointSlices, func(i, j int) bool { return t.EndpointSlices[i].Key() < t.EndpointSlices[j].Key() })
}

// finishTopology drops duplicate Nodes and EndpointSlices (the first
// definition wins, as for Services) and sorts what is left.
func (in *Input) finishTopology() {
	t := &in.Topology
	seen := map[string]Position{}
	nodes := t.Nodes[:0]
	for _, n := range t.Nodes {
		if prev, dup := seen[n.Name]; dup {
			in.Diagnostics = append(in.Diagnostics, topologyDuplicate(CodeDuplicateNode, n.Source, "Node "+n.Name, prev))
			continue
		}
		seen[n.Name] = n.Source
		nodes = append(nodes, n)
	}
	t.Nodes = nodes
	seen = map[string]Position{}
	slices := t.EndpointSlices[:0]
	for _, e := range t.EndpointSlices {
		if prev, dup := seen[e.Key()]; dup {
			in.Diagnostics = append(in.Diagnostics, topologyDuplicate(CodeDuplicateSlice, e.Source, "EndpointSlice "+e.Key(), prev))
			continue
		}
		seen[e.Key()] = e.Source
		slices = append(slices, e)
	}
	t.EndpointSlices = slices
	t.sort()
	in.checkNodeNames()
}

// checkNodeNames warns about each EndpointSlice whose endpoints run on
// nodes that no Node of the input has: the clearest sign of a partial list
// of Node manifests, which would drain every missing node from the pools
// and NSG rules.
func (in *Input) checkNodeNames() {
	t := &in.Topology
	if !t.NodesKnown {
		return
	}
	known := make(map[string]bool, len(t.Nodes))
	for _, n := range t.Nodes {
		known[n.Name] = true
	}
	for _, e := range t.EndpointSlices {
		var unknown []string
		at := e.Source
		field := ""
		for i, ep := range e.Endpoints {
			if ep.NodeName == nil || *ep.NodeName == "" || known[*ep.NodeName] || goslices.Contains(unknown, *ep.NodeName) {
				continue
			}
			if len(unknown) == 0 && i < len(e.nodeNameAt) {
				at, field = e.nodeNameAt[i], "endpoints["+strconv.Itoa(i)+"].nodeName"
			}
			unknown = append(unknown, *ep.NodeName)
		}
		if len(unknown) == 0 {
			continue
		}
		in.Diagnostics = append(in.Diagnostics, Diagnostic{Code: CodeUnknownNodeName, Severity: SeverityWarning, Pos: at, Field: field,
			Message: fmt.Sprintf("EndpointSlice %s has endpoints on %s that no Node of the input has: the Node manifests look incomplete, and every node missing from them leaves the backend pools and NSG rules",
				e.Key(), nodeList(unknown)),
			Hint: "give every Node of the cluster (kubectl get nodes -o yaml), or plan with --from-cluster"})
	}
}

func nodeList(names []string) string {
	if len(names) == 1 {
		return "node " + names[0]
	}
	return "nodes " + strings.Join(names, ", ")
}

func topologyDuplicate(code string, at Position, what string, first Position) Diagnostic {
	return Diagnostic{Code: code, Severity: severityOf(code), Pos: at, Field: "metadata.name",
		Message: what + " is defined twice; the first definition is at " + first.String(),
		Hint:    "remove the duplicate; the second definition is ignored"}
}
