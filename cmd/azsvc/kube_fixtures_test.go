package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

const annInternal = "service.beta.kubernetes.io/azure-load-balancer-internal"

func (k *kubeEnv) namespace(t *testing.T, name string) {
	t.Helper()
	ns := corev1.Namespace{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Namespace"}, ObjectMeta: metav1.ObjectMeta{Name: name}}
	if code, out := k.do(t, http.MethodPost, "/api/v1/namespaces", ns); code != http.StatusCreated && code != http.StatusConflict {
		t.Fatalf("create namespace %s: %d %s", name, code, out)
	}
}

func node(name, ip string, labels map[string]string) corev1.Node {
	return corev1.Node{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "Node"},
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: labels},
		Status: corev1.NodeStatus{
			Addresses:  []corev1.NodeAddress{{Type: corev1.NodeInternalIP, Address: ip}},
			Conditions: []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue}},
		},
	}
}

func lbService(ns, name string, port int32, ann map[string]string) corev1.Service {
	return corev1.Service{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "Service"},
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, Annotations: ann, Labels: map[string]string{"app": name}},
		Spec: corev1.ServiceSpec{
			Type:     corev1.ServiceTypeLoadBalancer,
			Selector: map[string]string{"app": name},
			Ports:    []corev1.ServicePort{{Name: "web", Protocol: corev1.ProtocolTCP, Port: port, TargetPort: intstr.FromInt32(8080)}},
		},
	}
}

func endpointSlice(ns, svc string, ips ...string) discoveryv1.EndpointSlice {
	ready := true
	name, port, proto := "web", int32(8080), corev1.ProtocolTCP
	s := discoveryv1.EndpointSlice{
		TypeMeta:    metav1.TypeMeta{APIVersion: "discovery.k8s.io/v1", Kind: "EndpointSlice"},
		ObjectMeta:  metav1.ObjectMeta{Namespace: ns, Name: svc + "-abc", Labels: map[string]string{discoveryv1.LabelServiceName: svc}},
		AddressType: discoveryv1.AddressTypeIPv4,
		Ports:       []discoveryv1.EndpointPort{{Name: &name, Port: &port, Protocol: &proto}},
	}
	for _, ip := range ips {
		s.Endpoints = append(s.Endpoints, discoveryv1.Endpoint{Addresses: []string{ip}, Conditions: discoveryv1.EndpointConditions{Ready: &ready}})
	}
	return s
}

// shopFixtures creates namespace ns with two LoadBalancer Services (public
// and internal), one CCM leaves alone (loadBalancerClass), one ClusterIP
// Service, their EndpointSlices; the Nodes are shared by every namespace.
func (k *kubeEnv) shopFixtures(t *testing.T, ns string) {
	t.Helper()
	k.namespace(t, ns)
	class := "example.com/other"
	classy := lbService(ns, "classy", 81, nil)
	classy.Spec.LoadBalancerClass = &class
	plain := lbService(ns, "plain", 82, nil)
	plain.Spec.Type = corev1.ServiceTypeClusterIP
	svcs := []corev1.Service{
		lbService(ns, "web", 80, nil),
		lbService(ns, "api", 8443, map[string]string{annInternal: "true"}),
		classy, plain,
	}
	k.createAll(t, len(svcs), func(int) string { return "/api/v1/namespaces/" + ns + "/services" }, func(i int) any { return svcs[i] })
	slices := []discoveryv1.EndpointSlice{endpointSlice(ns, "web", "10.244.0.5", "10.244.1.5"), endpointSlice(ns, "api", "10.244.0.6")}
	k.createAll(t, len(slices), func(int) string { return "/apis/discovery.k8s.io/v1/namespaces/" + ns + "/endpointslices" },
		func(i int) any { return slices[i] })
}

// nodes creates the cluster's Nodes once: two agents, one control plane.
func (k *kubeEnv) nodes(t *testing.T) {
	t.Helper()
	nodes := []corev1.Node{
		node("aks-nodepool1-0", "10.224.0.4", nil),
		node("aks-nodepool1-1", "10.224.0.5", nil),
		node("cp-0", "10.224.0.10", map[string]string{"node-role.kubernetes.io/control-plane": ""}),
	}
	for _, n := range nodes {
		if code, out := k.do(t, http.MethodPost, "/api/v1/nodes", n); code != http.StatusCreated && code != http.StatusConflict {
			t.Fatalf("create node %s: %d %s", n.Name, code, out)
		}
	}
}

// serviceUID is the UID the API server gave ns/name.
func (k *kubeEnv) serviceUID(t *testing.T, ns, name string) string {
	t.Helper()
	var s corev1.Service
	k.must(t, http.MethodGet, "/api/v1/namespaces/"+ns+"/services/"+name, nil, &s)
	return string(s.UID)
}

// ingress is the status.loadBalancer.ingress of ns/name, as IPs.
func (k *kubeEnv) ingress(t *testing.T, ns, name string) []string {
	t.Helper()
	var s corev1.Service
	k.must(t, http.MethodGet, "/api/v1/namespaces/"+ns+"/services/"+name, nil, &s)
	var ips []string
	for _, in := range s.Status.LoadBalancer.Ingress {
		ips = append(ips, in.IP)
	}
	return ips
}

// planSummary runs plan -o json and returns its summary and the raw JSON.
func planSummary(t *testing.T, c *cli, args ...string) (map[string]any, string) {
	t.Helper()
	res := c.run(append(args, "-o", "json")...)
	if res.code != exitOK {
		t.Fatalf("plan -o json: exit %d\n%s", res.code, res.stderr)
	}
	var doc struct {
		Summary map[string]any `json:"summary"`
	}
	if err := json.Unmarshal([]byte(res.stdout), &doc); err != nil {
		t.Fatalf("plan -o json: %v\n%s", err, res.stdout)
	}
	return doc.Summary, res.stdout
}

// writeKubeconfig writes a kubeconfig with one context, for the error cases.
func writeKubeconfig(t *testing.T, server, ca, token string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "kubeconfig")
	cfg := fmt.Sprintf(`apiVersion: v1
kind: Config
clusters:
- name: c
  cluster: {server: %q, certificate-authority: %q}
users:
- name: u
  user: {token: %q}
contexts:
- name: c
  context: {cluster: c, user: u}
current-context: c
`, server, ca, token)
	if err := os.WriteFile(path, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}
