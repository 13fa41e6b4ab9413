package service

import (
	"strings"
	"testing"
)

// Input with nothing to check gets one warning saying so, pointing at the
// first file read; input with a LoadBalancer Service or a PrivateEndpoint
// gets none.
func TestNothingChecked(t *testing.T) {
	const lb = "apiVersion: v1\nkind: Service\nmetadata: {name: web}\nspec: {type: LoadBalancer, ports: [{port: 80}]}\n"
	tests := []struct {
		name     string
		files    map[string]string
		wantHint string // "" for no warning
	}{
		{"empty file", map[string]string{"empty.yaml": ""}, "give the manifests of Services with spec.type LoadBalancer"},
		{"comments only", map[string]string{"c.yaml": "# nothing\n---\n"}, "give the manifests"},
		{"only other objects", map[string]string{"cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n---\napiVersion: v1\nkind: Service\nmetadata: {name: y}\nspec: {type: ClusterIP}\n"},
			"2 documents were read and skipped (the summary says why)"},
		{"a LoadBalancer Service", map[string]string{"svc.yaml": lb}, ""},
		{"malformed YAML says it already", map[string]string{"bad.yaml": "{"}, ""},
		{"a PrivateEndpoint alone", map[string]string{"pe.yaml": "apiVersion: azsvc.io/v1alpha1\nkind: PrivateEndpoint\nmetadata: {name: pe, namespace: shop}\nspec:\n  service: web\n" +
			"  subnetID: /subscriptions/9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/v/subnets/s\n"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var names []string
			files := map[string][]byte{}
			for name, body := range tt.files {
				names = append(names, name)
				files[name] = []byte(body)
			}
			got := DecodeFiles(names, files).NothingChecked()
			if tt.wantHint == "" {
				if len(got) != 0 {
					t.Fatalf("want no warning, got %+v", got)
				}
				return
			}
			if len(got) != 1 {
				t.Fatalf("want one warning, got %+v", got)
			}
			d := got[0]
			if d.Code != CodeNothingChecked || d.Severity != SeverityWarning || d.Pos.File != names[0] ||
				d.Message != "no Service of type LoadBalancer in the input: nothing was checked" || !strings.Contains(d.Hint, tt.wantHint) {
				t.Errorf("got %+v, want hint %q", d, tt.wantHint)
			}
		})
	}
}
