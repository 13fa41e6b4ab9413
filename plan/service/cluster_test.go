package service

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8stypes "k8s.io/apimachinery/pkg/types"
)

func clusterSvc(ns, name, uid string, mutate ...func(*corev1.Service)) corev1.Service {
	s := corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, UID: k8stypes.UID("uid-" + uid), ResourceVersion: "7",
			Annotations: map[string]string{"service.beta.kubernetes.io/azure-dns-label-name": "from-cluster"}},
		Spec: corev1.ServiceSpec{
			Type:       corev1.ServiceTypeLoadBalancer,
			ClusterIP:  "10.0.0.10",
			ClusterIPs: []string{"10.0.0.10"},
			Ports: []corev1.ServicePort{
				{Name: "http", Port: 80, Protocol: corev1.ProtocolTCP, NodePort: 30080},
				{Name: "https", Port: 443, Protocol: corev1.ProtocolTCP, NodePort: 30443},
			},
		},
		Status: corev1.ServiceStatus{LoadBalancer: corev1.LoadBalancerStatus{Ingress: []corev1.LoadBalancerIngress{{IP: "20.1.2.3"}}}},
	}
	for _, m := range mutate {
		m(&s)
	}
	return s
}

const manifestWeb = `apiVersion: v1
kind: Service
metadata:
  name: web
  annotations:
    service.beta.kubernetes.io/azure-dns-label-name: from-manifest
spec:
  type: LoadBalancer
  ports:
  - name: http
    port: 80
  - name: metrics
    port: 9090
`

func TestFromClusterList(t *testing.T) {
	class := "other"
	svcs := []corev1.Service{
		clusterSvc("prod", "a", "1"),
		clusterSvc("prod", "b", "2", func(s *corev1.Service) { s.Spec.LoadBalancerClass = &class }),
		clusterSvc("prod", "c", "3", func(s *corev1.Service) { s.Spec.Type = corev1.ServiceTypeClusterIP }),
	}
	wanted, skipped := FromClusterList(svcs)
	if len(wanted) != 1 || wanted[0].Key() != "prod/a" {
		t.Fatalf("wanted = %v", wanted)
	}
	if got := wanted[0].Pos("spec.ports[0].port").String(); got != "cluster:prod/a" {
		t.Errorf("position of a cluster Service = %q, want cluster:prod/a", got)
	}
	want := map[SkipReason]int{SkipLoadBalancerClass: 1, SkipNotLoadBalancer: 1}
	if diff := cmp.Diff(want, skipped); diff != "" {
		t.Errorf("skipped (-want +got):\n%s", diff)
	}
}

func TestOverlay(t *testing.T) {
	tests := []struct {
		name      string
		cluster   []corev1.Service
		manifests string
		scope     ClusterScope
		wantKeys  []string
		wantDiag  string
		check     func(t *testing.T, merged []*Service)
	}{
		{
			name:      "manifest replaces spec and annotations, cluster keeps UID, status, allocated values",
			cluster:   []corev1.Service{clusterSvc("prod", "web", "1"), clusterSvc("prod", "api", "2")},
			manifests: manifestWeb,
			scope:     ClusterScope{Namespace: "prod"},
			wantKeys:  []string{"prod/web", "prod/api"},
			check: func(t *testing.T, merged []*Service) {
				web := merged[0]
				if web.UID != "uid-1" || web.ResourceVersion != "7" || len(web.Status.LoadBalancer.Ingress) != 1 {
					t.Errorf("cluster identity not kept: uid %q rv %q status %v", web.UID, web.ResourceVersion, web.Status)
				}
				if v, _ := web.Annotation(AnnDNSLabelName); v != "from-manifest" {
					t.Errorf("annotation = %q, want the manifest's", v)
				}
				if web.Spec.Ports[0].NodePort != 30080 || web.Spec.Ports[1].NodePort != 0 || web.Spec.ClusterIP != "10.0.0.10" {
					t.Errorf("allocated values: ports %+v clusterIP %q", web.Spec.Ports, web.Spec.ClusterIP)
				}
				if !strings.HasSuffix(web.Source.File, "web.yaml") {
					t.Errorf("an overridden Service is positioned in its manifest, got %s", web.Source)
				}
			},
		},
		{
			name:      "manifest-only Service keeps its own identity, after the cluster's",
			cluster:   []corev1.Service{clusterSvc("prod", "api", "2")},
			manifests: strings.Replace(manifestWeb, "  name: web\n", "  name: new\n", 1),
			scope:     ClusterScope{Namespace: "prod"},
			wantKeys:  []string{"prod/api", "prod/new"},
		},
		{
			name:      "manifest turning the Service into ClusterIP hides the cluster copy",
			cluster:   []corev1.Service{clusterSvc("prod", "web", "1"), clusterSvc("prod", "api", "2")},
			manifests: strings.Replace(manifestWeb, "type: LoadBalancer", "type: ClusterIP", 1),
			scope:     ClusterScope{Namespace: "prod"},
			wantKeys:  []string{"prod/api"},
		},
		{
			name:      "manifest outside the namespace read is an error",
			cluster:   []corev1.Service{clusterSvc("prod", "web", "1")},
			manifests: strings.Replace(manifestWeb, "  name: web\n", "  name: web\n  namespace: staging\n", 1),
			scope:     ClusterScope{Namespace: "prod"},
			wantKeys:  []string{"prod/web"},
			wantDiag:  "deploy/web.yaml:5:14: AZSVC0009 Service staging/web is in namespace staging, but only namespace prod was read",
		},
		{
			name:      "all namespaces: a manifest without namespace takes the default one",
			cluster:   []corev1.Service{clusterSvc("team", "web", "1"), clusterSvc("prod", "web", "2")},
			manifests: manifestWeb,
			scope:     ClusterScope{Namespace: "team", AllNamespaces: true},
			wantKeys:  []string{"team/web", "prod/web"},
			check: func(t *testing.T, merged []*Service) {
				if v, _ := merged[0].Annotation(AnnDNSLabelName); v != "from-manifest" {
					t.Errorf("team/web not overridden")
				}
				if v, _ := merged[1].Annotation(AnnDNSLabelName); v != "from-cluster" {
					t.Errorf("prod/web overridden")
				}
			},
		},
		{
			name:      "the same Service with and without the namespace",
			cluster:   []corev1.Service{clusterSvc("prod", "web", "1")},
			manifests: manifestWeb + "---\n" + strings.Replace(manifestWeb, "  name: web\n", "  name: web\n  namespace: prod\n", 1),
			scope:     ClusterScope{Namespace: "prod"},
			wantKeys:  []string{"prod/web"},
			wantDiag:  "deploy/web.yaml:18:9: AZSVC0004 Service prod/web is defined twice; the first definition is at deploy/web.yaml:1:1",
		},
		{
			name:      "manifest not selected by -l is left out",
			cluster:   []corev1.Service{clusterSvc("prod", "web", "1")},
			manifests: manifestWeb,
			scope:     ClusterScope{Namespace: "prod", Selects: func(l map[string]string) bool { return l["app"] == "web" }},
			wantKeys:  []string{"prod/web"},
			check: func(t *testing.T, merged []*Service) {
				if v, _ := merged[0].Annotation(AnnDNSLabelName); v != "from-cluster" {
					t.Errorf("an unselected manifest replaced the cluster's Service")
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cluster, _ := FromClusterList(tt.cluster)
			merged, diags := Overlay(cluster, Decode("deploy/web.yaml", []byte(tt.manifests)), tt.scope)
			var keys []string
			for _, s := range merged {
				keys = append(keys, s.Key())
			}
			if diff := cmp.Diff(tt.wantKeys, keys); diff != "" {
				t.Errorf("keys (-want +got):\n%s", diff)
			}
			var got []string
			for _, d := range diags {
				got = append(got, d.Pos.String()+": "+d.Code+" "+d.Message)
			}
			switch {
			case tt.wantDiag == "" && len(got) > 0:
				t.Errorf("unexpected diagnostics: %q", got)
			case tt.wantDiag != "" && (len(got) != 1 || !strings.HasPrefix(got[0], tt.wantDiag)):
				t.Errorf("diagnostics = %q, want %q", got, tt.wantDiag)
			}
			if tt.check != nil {
				tt.check(t, merged)
			}
		})
	}
}

func TestPatchAllocatedNodePorts(t *testing.T) {
	off := false
	tests := []struct {
		name string
		old  corev1.ServiceSpec
		spec corev1.ServiceSpec
		want []int32
		hc   int32
	}{
		{
			name: "ports by name; a nodePort the manifest already uses is not copied",
			old: corev1.ServiceSpec{Type: corev1.ServiceTypeLoadBalancer, Ports: []corev1.ServicePort{
				{Name: "a", NodePort: 30001}, {Name: "b", NodePort: 30002}}},
			spec: corev1.ServiceSpec{Type: corev1.ServiceTypeLoadBalancer, Ports: []corev1.ServicePort{
				{Name: "a", NodePort: 30002}, {Name: "b"}, {Name: "c"}}},
			want: []int32{30002, 0, 0},
		},
		{
			name: "allocateLoadBalancerNodePorts false: nothing copied",
			old:  corev1.ServiceSpec{Type: corev1.ServiceTypeLoadBalancer, Ports: []corev1.ServicePort{{Name: "a", NodePort: 30001}}},
			spec: corev1.ServiceSpec{Type: corev1.ServiceTypeLoadBalancer, AllocateLoadBalancerNodePorts: &off, Ports: []corev1.ServicePort{{Name: "a"}}},
			want: []int32{0},
		},
		{
			name: "healthCheckNodePort kept while both are ETP Local",
			old: corev1.ServiceSpec{Type: corev1.ServiceTypeLoadBalancer, ExternalTrafficPolicy: corev1.ServiceExternalTrafficPolicyLocal,
				HealthCheckNodePort: 32000, Ports: []corev1.ServicePort{{Name: "a", NodePort: 30001}}},
			spec: corev1.ServiceSpec{Type: corev1.ServiceTypeLoadBalancer, ExternalTrafficPolicy: corev1.ServiceExternalTrafficPolicyLocal,
				Ports: []corev1.ServicePort{{Name: "a"}}},
			want: []int32{30001},
			hc:   32000,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			patchAllocated(&tt.spec, &tt.old)
			var got []int32
			for _, p := range tt.spec.Ports {
				got = append(got, p.NodePort)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("nodePorts (-want +got):\n%s", diff)
			}
			if tt.spec.HealthCheckNodePort != tt.hc {
				t.Errorf("healthCheckNodePort = %d, want %d", tt.spec.HealthCheckNodePort, tt.hc)
			}
		})
	}
}
