package kube

import (
	"context"
	"fmt"

	authorizationv1 "k8s.io/api/authorization/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// CanUpdateStatus asks the API server, with one SelfSubjectAccessReview per
// namespace, whether azsvc may update services/status in every namespace
// given (one cluster-wide review first, which settles it when a
// ClusterRole grants it). apply asks before its first Azure write, so a
// missing permission is found while nothing has changed yet. A denial is a
// Forbidden *Error naming the verb, resource and namespace.
func (c *Client) CanUpdateStatus(ctx context.Context, namespaces []string) error {
	allowed, err := c.can(ctx, "update", "services", "status", "")
	if err != nil || allowed {
		return err
	}
	for _, ns := range namespaces {
		allowed, err := c.can(ctx, "update", "services", "status", ns)
		if err != nil {
			return err
		}
		if !allowed {
			return &Error{Kind: Forbidden, Verb: "update", Resource: "services/status", Namespace: ns, Where: c.where,
				Err: fmt.Errorf("checked before changing Azure (SelfSubjectAccessReview), since --update-status writes the status only after the Azure changes")}
		}
	}
	return nil
}

// can is one SelfSubjectAccessReview: whether the caller may verb the
// resource (and subresource) in namespace ns ("" for every namespace).
func (c *Client) can(ctx context.Context, verb, resource, sub, ns string) (bool, error) {
	review := &authorizationv1.SelfSubjectAccessReview{Spec: authorizationv1.SelfSubjectAccessReviewSpec{
		ResourceAttributes: &authorizationv1.ResourceAttributes{Verb: verb, Resource: resource, Subresource: sub, Namespace: ns},
	}}
	out, err := c.cs.AuthorizationV1().SelfSubjectAccessReviews().Create(ctx, review, metav1.CreateOptions{})
	if err != nil {
		return false, c.explain(err, "create", "selfsubjectaccessreviews", "authorization.k8s.io", "")
	}
	return out.Status.Allowed, nil
}
