package desired

import (
	"fmt"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/azsvc/azsvc/plan/service"
)

// generated returns n varied Services: external and internal, single and
// dual stack, source ranges, ETP Local, two ports each.
func generated(n int) []*service.Service {
	out := make([]*service.Service, n)
	for i := range out {
		ann := map[string]string{}
		spec := corev1.ServiceSpec{
			Type: corev1.ServiceTypeLoadBalancer,
			Ports: []corev1.ServicePort{
				{Name: "http", Protocol: corev1.ProtocolTCP, Port: 80, NodePort: int32(30000 + i%2000)},
				{Name: "dns", Protocol: corev1.ProtocolUDP, Port: int32(1000 + i%50), NodePort: int32(31000 + i%2000)},
			},
		}
		switch i % 5 {
		case 1:
			ann[service.AnnInternal] = "true"
		case 2:
			spec.LoadBalancerSourceRanges = []string{fmt.Sprintf("10.%d.0.0/16", i%200), "192.168.0.0/24"}
		case 3:
			spec.IPFamilies = []corev1.IPFamily{corev1.IPv4Protocol, corev1.IPv6Protocol}
		case 4:
			spec.ExternalTrafficPolicy = corev1.ServiceExternalTrafficPolicyLocal
			spec.HealthCheckNodePort = int32(32000 + i%700)
		}
		out[i] = service.New(&corev1.Service{
			ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("svc-%05d", i), Namespace: fmt.Sprintf("ns-%d", i%40), Annotations: ann},
			Spec:       spec,
		})
	}
	return out
}

// BenchmarkBuild10000 measures Build at 10,000 Services (DESIGN: plan must
// fit 1 s and 500 MB at 10k, so desired must be a fraction of that).
func BenchmarkBuild10000(b *testing.B) {
	svcs := generated(10000)
	cfg := testConfig(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		st, scope, diags := Build(svcs, cfg)
		if len(diags) > 0 || len(scope.Services) != 10000 || st.Len() == 0 {
			b.Fatalf("diags %d scope %d resources %d", len(diags), len(scope.Services), st.Len())
		}
	}
}
