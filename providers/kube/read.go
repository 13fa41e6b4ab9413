package kube

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
)

// Snapshot is what one read of the cluster returns: plain k8s.io/api values
// the planner can use without client-go.
type Snapshot struct {
	// Services are the Services of type LoadBalancer in the scope read and
	// matching -l, in the API server's order (namespace, then name).
	Services []corev1.Service
	// Nodes are every Node: backend pool membership and NSG destinations
	// need all of them, whatever the namespace or selector.
	Nodes []corev1.Node
	// EndpointSlices are every EndpointSlice of the namespaces read (all
	// of them, not only those of the Services read).
	EndpointSlices []discoveryv1.EndpointSlice
	// Lists counts the list requests made, one per page.
	Lists int
}

// Kinds says what Read lists besides Services.
type Kinds struct {
	Nodes          bool
	EndpointSlices bool
}

// Read lists the Services of type LoadBalancer, and the Nodes and
// EndpointSlices asked for: one paged list per kind, never a request per
// object.
func (c *Client) Read(ctx context.Context, k Kinds) (*Snapshot, error) {
	snap := &Snapshot{}
	ns := c.namespace
	if c.all {
		ns = metav1.NamespaceAll
	}
	var err error
	svcOpts := metav1.ListOptions{
		LabelSelector: c.selector.String(),
		// Services support this field selector (kubernetes
		// pkg/registry/core/service/strategy.go SelectableFields).
		FieldSelector: fields.OneTermEqualSelector("spec.type", string(corev1.ServiceTypeLoadBalancer)).String(),
	}
	snap.Services, err = listAll(ctx, c, snap, "services", ns, svcOpts,
		func(ctx context.Context, o metav1.ListOptions) ([]corev1.Service, string, error) {
			l, err := c.cs.CoreV1().Services(ns).List(ctx, o)
			if err != nil {
				return nil, "", err
			}
			return l.Items, l.Continue, nil
		})
	if err != nil {
		return nil, err
	}
	if k.Nodes {
		snap.Nodes, err = listAll(ctx, c, snap, "nodes", "", metav1.ListOptions{},
			func(ctx context.Context, o metav1.ListOptions) ([]corev1.Node, string, error) {
				l, err := c.cs.CoreV1().Nodes().List(ctx, o)
				if err != nil {
					return nil, "", err
				}
				return l.Items, l.Continue, nil
			})
		if err != nil {
			return nil, err
		}
	}
	if k.EndpointSlices {
		snap.EndpointSlices, err = listAll(ctx, c, snap, "endpointslices", ns, metav1.ListOptions{},
			func(ctx context.Context, o metav1.ListOptions) ([]discoveryv1.EndpointSlice, string, error) {
				l, err := c.cs.DiscoveryV1().EndpointSlices(ns).List(ctx, o)
				if err != nil {
					return nil, "", err
				}
				return l.Items, l.Continue, nil
			})
		if err != nil {
			return nil, err
		}
	}
	return snap, nil
}

// maxRestarts bounds how often a list starts over after its continue token
// expired (410 Gone), which happens when a page is asked for after etcd
// compacted the revision the list began at.
const maxRestarts = 2

// listAll pages through one list with limit/continue.
func listAll[T any](ctx context.Context, c *Client, snap *Snapshot, resource, ns string, opts metav1.ListOptions,
	list func(context.Context, metav1.ListOptions) ([]T, string, error)) ([]T, error) {
	var out []T
	opts.Limit = c.pageSize
	restarts := 0
	for {
		snap.Lists++
		items, next, err := list(ctx, opts)
		if apierrors.IsResourceExpired(err) && opts.Continue != "" && restarts < maxRestarts {
			restarts++
			out, opts.Continue = nil, ""
			continue
		}
		if err != nil {
			return nil, c.explain(err, "list", resource, groupOf(resource), ns)
		}
		out = append(out, items...)
		if next == "" {
			return out, nil
		}
		opts.Continue = next
	}
}

func groupOf(resource string) string {
	switch resource {
	case "endpointslices":
		return "discovery.k8s.io"
	case "leases":
		return "coordination.k8s.io"
	}
	return ""
}

// String summarises a snapshot for -v output.
func (s *Snapshot) String() string {
	return fmt.Sprintf("%d LoadBalancer Services, %d Nodes, %d EndpointSlices in %d list requests",
		len(s.Services), len(s.Nodes), len(s.EndpointSlices), s.Lists)
}
