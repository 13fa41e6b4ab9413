package service

import (
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8syaml "sigs.k8s.io/yaml"
)

// TestDecodeMatchesKubectl: for well-formed manifests, converting the
// position-keeping YAML tree to JSON gives exactly the Service that
// sigs.k8s.io/yaml (kubectl's decoder) gives.
func TestDecodeMatchesKubectl(t *testing.T) {
	inputs := map[string][]byte{"generated": generateServices(50)}
	for _, f := range validExamples(t) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		inputs[f] = data
	}
	inputs["anchors"] = []byte("apiVersion: v1\nkind: Service\nmetadata:\n  name: m\n  labels: &l {a: b}\n  annotations:\n    <<: *l\n    x: \"0x1F\"\nspec:\n  type: LoadBalancer\n  ports: [{port: 0x1F, nodePort: 3_0080}]\n")
	for name, data := range inputs {
		in := Decode(name, data)
		if len(in.Diagnostics) > 0 {
			t.Errorf("%s: %v", name, in.Diagnostics)
			continue
		}
		docs := splitDocuments(data, false)
		var want []*corev1.Service
		for _, c := range docs {
			var meta metav1.TypeMeta
			if err := k8syaml.Unmarshal(c.data, &meta); err != nil || meta.Kind != "Service" {
				continue
			}
			var svc corev1.Service
			if err := k8syaml.Unmarshal(c.data, &svc); err != nil {
				t.Fatalf("%s: sigs.k8s.io/yaml: %v", name, err)
			}
			if svc.Kind == "Service" && svc.Spec.Type == corev1.ServiceTypeLoadBalancer && svc.Spec.LoadBalancerClass == nil {
				want = append(want, &svc)
			}
		}
		var got []*corev1.Service
		for _, s := range in.Services {
			got = append(got, s.Service)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: decode differs from sigs.k8s.io/yaml (-kubectl +azsvc):\n%s", name, diff)
		}
	}
}
