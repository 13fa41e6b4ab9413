package service

import (
	"fmt"
	"sort"

	corev1 "k8s.io/api/core/v1"
)

// ClusterPrefix starts the Source file of a Service read from a live
// cluster: "cluster:namespace/name".
const ClusterPrefix = "cluster:"

// FromCluster wraps a Service read from a live cluster. It has no file
// positions: every diagnostic points at "cluster:namespace/name".
func FromCluster(svc *corev1.Service) *Service {
	s := New(svc)
	s.Source = Position{File: ClusterPrefix + s.Key()}
	return s
}

// FromClusterList wraps the cluster's Services that CCM would reconcile and
// counts the others per reason, as Load does for manifests.
func FromClusterList(svcs []corev1.Service) (wanted []*Service, skipped map[SkipReason]int) {
	skipped = map[SkipReason]int{}
	for i := range svcs {
		if reason := SkipReasonOf(&svcs[i]); reason != "" {
			skipped[reason]++
			continue
		}
		wanted = append(wanted, FromCluster(&svcs[i]))
	}
	return wanted, skipped
}

// ClusterScope is what a live-cluster read covered, so manifests given
// with it are read the way kubectl would apply them there.
type ClusterScope struct {
	// Namespace is the namespace read, or with AllNamespaces the default
	// namespace of manifests that name none (kubectl's -n or the context's
	// namespace).
	Namespace     string
	AllNamespaces bool
	// Selects reports whether a Service's labels match -l; nil selects all.
	Selects func(labels map[string]string) bool
}

// Overlay merges manifests over the cluster's Services: a manifest replaces
// the cluster's Service of the same namespace/name (spec, annotations and
// labels), keeping the cluster's UID, resourceVersion and status, and the
// values the API server allocated that the manifest leaves unset, as the
// API server does when the manifest is applied (patchAllocatedValues in
// kubernetes pkg/registry/core/service/storage/storage.go). A manifest that
// makes the Service something CCM does not reconcile hides the cluster's
// copy. Services only in the cluster or only in the manifests are kept.
//
// Manifests without a namespace take scope.Namespace, as kubectl apply -n
// does; a manifest outside the scope read, or not selected by -l, cannot be
// matched with its cluster copy: the first is an error diagnostic, the
// second is left out, as kubectl apply -l leaves it out. The result lists
// the cluster's Services in their order, then the manifest-only ones in
// input order.
func Overlay(cluster []*Service, manifests *Input, scope ClusterScope) (merged []*Service, diags []Diagnostic) {
	byKey := map[string]*Service{}
	var order []string
	for _, m := range manifests.Services {
		if m.Namespace == "" && scope.Namespace != "" {
			m.Namespace = scope.Namespace
		}
		if !scope.AllNamespaces && m.Namespace != scope.Namespace {
			diags = append(diags, m.diag(CodeOutsideScope, "metadata.namespace",
				fmt.Sprintf("Service %s is in namespace %s, but only namespace %s was read from the cluster, so its UID and status are unknown", m.Key(), m.Namespace, scope.Namespace),
				fmt.Sprintf("pass -n %s or -A, or leave the manifest out of -f", m.Namespace)))
			continue
		}
		if scope.Selects != nil && !scope.Selects(m.Labels) {
			continue
		}
		if prev, dup := byKey[m.Key()]; dup {
			// One without a namespace and one naming -n's: Load could not
			// tell they are the same Service.
			diags = append(diags, m.diag(CodeDuplicateService, "metadata.name",
				fmt.Sprintf("Service %s is defined twice; the first definition is at %s", m.Key(), prev.Source),
				"remove the duplicate; the second definition is ignored"))
			continue
		}
		byKey[m.Key()] = m
		order = append(order, m.Key())
	}
	hidden := hiddenKeys(manifests, scope.Namespace)
	used := map[string]bool{}
	for _, c := range cluster {
		key := c.Key()
		if m, ok := byKey[key]; ok {
			merged = append(merged, overlayOne(c, m))
			used[key] = true
			continue
		}
		if !hidden[key] {
			merged = append(merged, c)
		}
	}
	for _, key := range order {
		if !used[key] {
			merged = append(merged, byKey[key])
		}
	}
	SortDiagnostics(diags)
	return merged, diags
}

// hiddenKeys are the keys of manifests that are not load-balanced Services,
// with the default namespace applied as Overlay applies it.
func hiddenKeys(in *Input, defaultNS string) map[string]bool {
	out := make(map[string]bool, len(in.NotLoadBalanced))
	for _, s := range in.NotLoadBalanced {
		ns := s.Namespace
		if ns == "" {
			ns = defaultNS
		}
		if ns == "" {
			ns = "default"
		}
		out[ns+"/"+s.Name] = true
	}
	return out
}

// overlayOne is the manifest m with what only the cluster's copy c knows.
func overlayOne(c, m *Service) *Service {
	svc := m.Service
	svc.UID = c.UID
	svc.ResourceVersion = c.ResourceVersion
	svc.Status = *c.Status.DeepCopy()
	patchAllocated(&svc.Spec, &c.Spec)
	return m
}

// patchAllocated copies the values the API server allocated into spec where
// spec leaves them unset, as patchAllocatedValues does on update.
func patchAllocated(spec, old *corev1.ServiceSpec) {
	if spec.Type != corev1.ServiceTypeExternalName && old.Type != corev1.ServiceTypeExternalName {
		if spec.ClusterIP == "" {
			spec.ClusterIP = old.ClusterIP
		}
		if len(spec.ClusterIPs) == 0 && len(old.ClusterIPs) > 0 {
			spec.ClusterIPs = append([]string(nil), old.ClusterIPs...)
		}
	}
	if needsNodePort(old) && needsNodePort(spec) {
		used := map[int32]bool{}
		inOld := map[int32]bool{}
		byName := map[string]int32{}
		for _, p := range old.Ports {
			if p.NodePort != 0 {
				inOld[p.NodePort] = true
			}
			byName[p.Name] = p.NodePort
		}
		for _, p := range spec.Ports {
			if p.NodePort != 0 && inOld[p.NodePort] {
				used[p.NodePort] = true
			}
		}
		for i := range spec.Ports {
			p := &spec.Ports[i]
			if v := byName[p.Name]; p.NodePort == 0 && !used[v] {
				p.NodePort = v
			}
		}
	}
	if needsHealthCheckNodePort(old) && needsHealthCheckNodePort(spec) && spec.HealthCheckNodePort == 0 {
		spec.HealthCheckNodePort = old.HealthCheckNodePort
	}
}

func needsNodePort(s *corev1.ServiceSpec) bool {
	return s.Type == corev1.ServiceTypeNodePort ||
		s.Type == corev1.ServiceTypeLoadBalancer && (s.AllocateLoadBalancerNodePorts == nil || *s.AllocateLoadBalancerNodePorts)
}

func needsHealthCheckNodePort(s *corev1.ServiceSpec) bool {
	return s.Type == corev1.ServiceTypeLoadBalancer && s.ExternalTrafficPolicy == corev1.ServiceExternalTrafficPolicyLocal
}

// SortByKey orders Services by namespace/name, the order a cluster lists
// them in.
func SortByKey(svcs []*Service) {
	sort.SliceStable(svcs, func(i, j int) bool { return svcs[i].Key() < svcs[j].Key() })
}
