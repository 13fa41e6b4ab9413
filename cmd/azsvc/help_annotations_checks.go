package main

import (
	"slices"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/azsvc/azsvc/plan/service"
)

// badValues are values of each annotation type that validate should fault:
// `azsvc help annotations` learns what validate checks for a key by giving
// it these, so the list cannot claim a check validate does not make.
func badValues() map[service.ValueType][]string {
	return map[service.ValueType][]string{
		service.TypeBool:        {"maybe"},
		service.TypeInt:         {"x", "1000", "-1"},
		service.TypeString:      {"bad value?", "-"},
		service.TypeEnum:        {"Udp"},
		service.TypeIP:          {"not-an-ip", "10.0.0.1", "2001:db8::1"},
		service.TypeIPList:      {"not-an-ip"},
		service.TypeCIDRList:    {"10.0.0.1/8"},
		service.TypeCommaList:   {"bad value?"},
		service.TypeSpaceList:   {"bad,value?"},
		service.TypeIPSpaceList: {"not-an-ip", "2001:db8::1"},
		service.TypeTagPairs:    {"novalue", "a=b=c"},
		service.TypeARMID:       {"bad"},
		service.TypePortRef:     {"nosuchport", "70000"},
	}
}

// probeContexts are the annotations a probe Service carries besides the
// one probed, so that checks that apply only to internal Services, to
// Private Link Services or to external ones all run.
func probeContexts() []map[string]string {
	return []map[string]string{
		{},
		{service.AnnInternal: "true", service.AnnPLSCreate: "true"},
	}
}

// validateChecks returns, for each registry key (the template for per-port
// keys), the diagnostic codes validate reports about its value or key when
// it holds a faulty value, sorted. A key with none is one validate only
// recognises (a misspelling of it is still reported).
func validateChecks(reg []service.Annotation) map[string][]string {
	out := make(map[string][]string, len(reg))
	bad, contexts := badValues(), probeContexts()
	for _, a := range reg {
		key := a.Key
		if a.PerPort() {
			key = service.PortKey(80, a.Param)
		}
		var codes []string
		for _, ctx := range contexts {
			for _, v := range bad[a.Type] {
				for _, d := range service.Validate([]*service.Service{probeService(ctx, key, v)}) {
					if d.Field == service.AnnotationPath(key) && !slices.Contains(codes, d.Code) {
						codes = append(codes, d.Code)
					}
				}
			}
		}
		slices.Sort(codes)
		out[a.Key] = codes
	}
	return out
}

func probeService(ctx map[string]string, key, value string) *service.Service {
	ann := map[string]string{key: value}
	for k, v := range ctx {
		if k != key {
			ann[k] = v
		}
	}
	return service.FromCluster(&corev1.Service{
		TypeMeta:   metav1.TypeMeta{Kind: "Service", APIVersion: "v1"},
		ObjectMeta: metav1.ObjectMeta{Name: "probe", Namespace: "default", UID: "00000000-0000-0000-0000-000000000001", Annotations: ann},
		Spec: corev1.ServiceSpec{
			Type:  corev1.ServiceTypeLoadBalancer,
			Ports: []corev1.ServicePort{{Name: "http", Port: 80, Protocol: corev1.ProtocolTCP, NodePort: 30080}},
		},
	})
}
