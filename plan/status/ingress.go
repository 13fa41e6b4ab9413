// Package status computes the Service status the cloud controller manager
// writes after a reconcile: status.loadBalancer.ingress (ccm-semantics §7.3
// step 2, getServiceLoadBalancerStatus).
package status

import (
	"fmt"
	"slices"

	corev1 "k8s.io/api/core/v1"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/service"
)

// Ingresses answers, per Service, the ingress CCM would write once the
// desired state is in Azure.
type Ingresses struct {
	frontends map[string][]*plan.Resource // namespace/name -> desired frontends, sorted by key
	observed  *plan.State
}

// New indexes the desired state's frontends by the Services they serve
// (their own and shared ones) and reads addresses from observed, the state
// read from ARM after apply.
func New(desired, observed *plan.State) *Ingresses {
	in := &Ingresses{frontends: map[string][]*plan.Resource{}, observed: observed}
	for _, fe := range desired.OfKind(plan.KindFrontend) {
		for _, svc := range fe.Services {
			in.frontends[svc] = append(in.frontends[svc], fe)
		}
	}
	return in
}

// Of is svc's status.loadBalancer.ingress: one entry per frontend the
// Service uses, the private IP of an internal frontend or the address of an
// external frontend's public IP, then its additional public IPs
// (§1.3 #19). CCM lists frontends in the load balancer's order, which ARM
// keeps as created; the observed state does not keep it, so frontends come
// in key order, which puts a dual-stack Service's IPv4 frontend ("<prefix>")
// before its IPv6 one ("<prefix>-IPv6") as CCM creates them.
//
// An error means the status is not known: a frontend or its address is
// missing from observed, e.g. because a step was blocked.
func (in *Ingresses) Of(svc *service.Service) ([]corev1.LoadBalancerIngress, error) {
	fes := in.frontends[svc.Key()]
	if len(fes) == 0 {
		return nil, fmt.Errorf("no load balancer frontend is planned for it")
	}
	var out []corev1.LoadBalancerIngress
	for _, fe := range fes {
		ip, err := in.address(fe)
		if err != nil {
			return nil, err
		}
		out = append(out, corev1.LoadBalancerIngress{IP: ip})
	}
	extra, err := svc.AdditionalPublicIPs()
	if err != nil {
		return nil, err
	}
	for _, a := range extra {
		out = append(out, corev1.LoadBalancerIngress{IP: a.String()})
	}
	return out, nil
}

func (in *Ingresses) address(fe *plan.Resource) (string, error) {
	got, ok := in.observed.Get(fe.Key())
	if !ok {
		return "", fmt.Errorf("%s is not in Azure", fe.ID.Address())
	}
	if id := refID(got.Properties["publicIPAddress"]); id != "" {
		pip, ok := in.observed.Get(plan.KeyOf(id))
		if !ok {
			return "", fmt.Errorf("the public IP of %s is not in Azure: %s", fe.ID.Address(), id)
		}
		if ip, _ := pip.Properties["ipAddress"].(string); ip != "" {
			return ip, nil
		}
		return "", fmt.Errorf("%s has no address yet", pip.ID.Address())
	}
	if ip, _ := got.Properties["privateIPAddress"].(string); ip != "" {
		return ip, nil
	}
	return "", fmt.Errorf("%s has no address yet", fe.ID.Address())
}

func refID(v any) string {
	m, ok := v.(map[string]any)
	if !ok {
		return ""
	}
	s, _ := m["id"].(string)
	return s
}

// Equal reports whether two ingress lists are the same, so an unchanged
// status is not written again. The API server fills ipMode VIP into an
// entry with an IP, so an unset ipMode there equals VIP.
func Equal(a, b []corev1.LoadBalancerIngress) bool {
	return slices.EqualFunc(a, b, func(x, y corev1.LoadBalancerIngress) bool {
		return x.IP == y.IP && x.Hostname == y.Hostname && ipMode(x) == ipMode(y) && len(x.Ports) == len(y.Ports)
	})
}

func ipMode(in corev1.LoadBalancerIngress) corev1.LoadBalancerIPMode {
	switch {
	case in.IPMode != nil:
		return *in.IPMode
	case in.IP != "":
		return corev1.LoadBalancerIPModeVIP
	}
	return ""
}
