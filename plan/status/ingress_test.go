package status

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/service"
)

const sub = "00000000-0000-0000-0000-000000000000"

func frontend(lb, name string, props map[string]any, services ...string) *plan.Resource {
	lbID := plan.NewID(sub, "rg", plan.KindLoadBalancer, lb)
	return &plan.Resource{ID: plan.ChildID(lbID, plan.KindFrontend, name), Properties: props, Services: services}
}

func pip(name, ip string) *plan.Resource {
	props := map[string]any{}
	if ip != "" {
		props["ipAddress"] = ip
	}
	return &plan.Resource{ID: plan.NewID(sub, "rg", plan.KindPublicIP, name), Properties: props}
}

func pipRef(name string) map[string]any {
	return map[string]any{"publicIPAddress": plan.Ref(plan.NewID(sub, "rg", plan.KindPublicIP, name))}
}

func svc(name string, ann map[string]string) *service.Service {
	return service.New(&corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: "prod", Name: name, Annotations: ann}})
}

func TestIngress(t *testing.T) {
	desired, observed := plan.NewState(), plan.NewState()
	for _, r := range []*plan.Resource{
		frontend("kubernetes", "aweb", pipRef("kubernetes-aweb"), "prod/web"),
		frontend("kubernetes", "aweb-IPv6", pipRef("kubernetes-aweb-IPv6"), "prod/web"),
		frontend("kubernetes", "ashared", pipRef("byo"), "prod/primary", "prod/secondary"),
		frontend("kubernetes-internal", "aint", map[string]any{"privateIPAddress": plan.Unknown}, "prod/int"),
		frontend("kubernetes", "ablocked", pipRef("kubernetes-ablocked"), "prod/blocked"),
		frontend("kubernetes", "anoip", pipRef("kubernetes-anoip"), "prod/noip"),
	} {
		desired.Put(r)
	}
	for _, r := range []*plan.Resource{
		frontend("kubernetes", "aweb", pipRef("kubernetes-aweb")),
		frontend("kubernetes", "aweb-IPv6", pipRef("kubernetes-aweb-IPv6")),
		frontend("kubernetes", "ashared", pipRef("byo")),
		frontend("kubernetes-internal", "aint", map[string]any{"privateIPAddress": "10.224.0.7"}),
		frontend("kubernetes", "anoip", pipRef("kubernetes-anoip")),
		pip("kubernetes-aweb", "20.0.0.1"), pip("kubernetes-aweb-IPv6", "2001:db8::1"), pip("byo", "20.0.0.9"),
		pip("kubernetes-anoip", ""),
	} {
		observed.Put(r)
	}
	in := New(desired, observed)
	tests := []struct {
		svc     *service.Service
		want    []string
		wantErr string
	}{
		{svc: svc("web", nil), want: []string{"20.0.0.1", "2001:db8::1"}},
		{svc: svc("secondary", map[string]string{service.AnnAdditionalPublicIPs: "1.2.3.4"}), want: []string{"20.0.0.9", "1.2.3.4"}},
		{svc: svc("int", nil), want: []string{"10.224.0.7"}},
		{svc: svc("blocked", nil), wantErr: "lb/kubernetes/frontend/ablocked is not in Azure"},
		{svc: svc("noip", nil), wantErr: "has no address yet"},
		{svc: svc("none", nil), wantErr: "no load balancer frontend"},
	}
	for _, tt := range tests {
		t.Run(tt.svc.Name, func(t *testing.T) {
			got, err := in.Of(tt.svc)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var ips []string
			for _, g := range got {
				ips = append(ips, g.IP)
			}
			if diff := cmp.Diff(tt.want, ips); diff != "" {
				t.Errorf("ingress (-want +got):\n%s", diff)
			}
		})
	}
}

func TestEqual(t *testing.T) {
	vip, proxy := corev1.LoadBalancerIPModeVIP, corev1.LoadBalancerIPModeProxy
	tests := []struct {
		name string
		a, b []corev1.LoadBalancerIngress
		want bool
	}{
		{"same", []corev1.LoadBalancerIngress{{IP: "1.1.1.1"}}, []corev1.LoadBalancerIngress{{IP: "1.1.1.1"}}, true},
		{"defaulted VIP", []corev1.LoadBalancerIngress{{IP: "1.1.1.1"}}, []corev1.LoadBalancerIngress{{IP: "1.1.1.1", IPMode: &vip}}, true},
		{"proxy differs", []corev1.LoadBalancerIngress{{IP: "1.1.1.1"}}, []corev1.LoadBalancerIngress{{IP: "1.1.1.1", IPMode: &proxy}}, false},
		{"order matters", []corev1.LoadBalancerIngress{{IP: "1.1.1.1"}, {IP: "2.2.2.2"}}, []corev1.LoadBalancerIngress{{IP: "2.2.2.2"}, {IP: "1.1.1.1"}}, false},
		{"empty and nil", nil, []corev1.LoadBalancerIngress{}, true},
	}
	for _, tt := range tests {
		if got := Equal(tt.a, tt.b); got != tt.want {
			t.Errorf("%s: Equal = %v, want %v", tt.name, got, tt.want)
		}
	}
}
