package engine

import (
	"encoding/json"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/azsvc/azsvc/plan/planfile"
	"github.com/azsvc/azsvc/plan/service"
	"github.com/azsvc/azsvc/providers/kube"
)

// clusterObjects is how a saved plan holds what --from-cluster read.
type clusterObjects struct {
	Services       []corev1.Service            `json:"services"`
	Nodes          []corev1.Node               `json:"nodes"`
	EndpointSlices []discoveryv1.EndpointSlice `json:"endpointSlices"`
}

// clusterSource records c for a saved plan. managedFields are dropped:
// nothing plans from them, and they are most of an object's bytes.
func clusterSource(c *Cluster) (*planfile.ClusterSource, error) {
	if c == nil {
		return nil, nil
	}
	objs := clusterObjects{
		Services:       make([]corev1.Service, len(c.Snapshot.Services)),
		Nodes:          make([]corev1.Node, len(c.Snapshot.Nodes)),
		EndpointSlices: make([]discoveryv1.EndpointSlice, len(c.Snapshot.EndpointSlices)),
	}
	for i, s := range c.Snapshot.Services {
		s.ManagedFields = nil
		objs.Services[i] = s
	}
	for i, n := range c.Snapshot.Nodes {
		n.ManagedFields = nil
		objs.Nodes[i] = n
	}
	for i, e := range c.Snapshot.EndpointSlices {
		e.ManagedFields = nil
		objs.EndpointSlices[i] = e
	}
	data, err := json.Marshal(objs)
	if err != nil {
		return nil, fmt.Errorf("record the cluster's objects: %w", err)
	}
	return &planfile.ClusterSource{Where: c.Where, Context: c.Context, Server: c.Server, Namespace: c.Scope.Namespace, AllNamespaces: c.Scope.AllNamespaces,
		Selector: c.Selector, Objects: string(data)}, nil
}

// clusterFromSaved is the cluster a saved plan recorded, nil for none.
func clusterFromSaved(src *planfile.ClusterSource) (*Cluster, error) {
	if src == nil {
		return nil, nil
	}
	var objs clusterObjects
	if err := json.Unmarshal([]byte(src.Objects), &objs); err != nil {
		return nil, fmt.Errorf("saved plan: the cluster's objects: %w", err)
	}
	sel, err := labels.Parse(src.Selector)
	if err != nil {
		return nil, fmt.Errorf("saved plan: selector %q: %w", src.Selector, err)
	}
	return &Cluster{
		Snapshot: &kube.Snapshot{Services: objs.Services, Nodes: objs.Nodes, EndpointSlices: objs.EndpointSlices},
		Scope: service.ClusterScope{Namespace: src.Namespace, AllNamespaces: src.AllNamespaces,
			Selects: func(l map[string]string) bool { return sel.Matches(labels.Set(l)) }},
		Selector: src.Selector,
		Where:    src.Where,
		Context:  src.Context,
		Server:   src.Server,
	}, nil
}
