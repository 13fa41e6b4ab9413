package kube

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// UpdateStatus writes svc's status.loadBalancer.ingress, as CCM's service
// controller does after a reconcile. svc is the copy read from the cluster:
// its resourceVersion makes the write fail with a conflict, instead of
// overwriting, when the Service changed since it was read.
func (c *Client) UpdateStatus(ctx context.Context, svc *corev1.Service, ingress []corev1.LoadBalancerIngress) error {
	out := svc.DeepCopy()
	out.Status.LoadBalancer.Ingress = ingress
	_, err := c.cs.CoreV1().Services(svc.Namespace).UpdateStatus(ctx, out, metav1.UpdateOptions{})
	return c.explain(err, "update", "services/status", "", svc.Namespace)
}
