package service

import (
	"strings"
	"testing"
)

// TestMisspeltKinds: an object that misses a kind azsvc reads by a typo, or
// sits in azsvc.io under another version or kind, is an error at the field
// (it would vanish from the input, and --prune would delete what it
// declares); other objects stay skipped.
func TestMisspeltKinds(t *testing.T) {
	tests := []struct {
		name, doc, wantPos, wantHint string
	}{
		{"endpoint in another version", "apiVersion: azsvc.io/v1\nkind: PrivateEndpoint\nmetadata: {name: pe}\n", "in.yaml:1:13", "write apiVersion: azsvc.io/v1alpha1"},
		{"endpoint kind one letter off", "apiVersion: azsvc.io/v1alpha1\nkind: PrivateEndPoint\nmetadata: {name: pe}\n", "in.yaml:2:7", "did you mean kind: PrivateEndpoint"},
		{"endpoint kind in lower case, other version", "apiVersion: azsvc.io/v1beta9\nkind: privateendpoint\nmetadata: {name: pe}\n", "in.yaml:2:7", "did you mean kind: PrivateEndpoint"},
		{"unknown kind of azsvc.io", "apiVersion: azsvc.io/v1alpha1\nkind: Foo\nmetadata: {name: f}\n", "in.yaml:2:7", "azsvc.io has one kind"},
		{"service in lower case", "apiVersion: v1\nkind: service\nmetadata: {name: s}\n", "in.yaml:2:7", "did you mean kind: Service (apiVersion: v1)"},
		{"the resource name for the kind", "apiVersion: discovery.k8s.io/v1\nkind: EndpointSlices\nmetadata: {name: x}\n", "in.yaml:2:7", "did you mean kind: EndpointSlice"},
		{"a Role is not a misspelt Node", "apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata: {name: r}\n", "", ""},
		{"a Knative Service is not azsvc's", "apiVersion: serving.knative.dev/v1\nkind: Service\nmetadata: {name: k}\n", "", ""},
		{"a ServiceAccount", "apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: a}\n", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := Decode("in.yaml", []byte(tt.doc))
			if tt.wantPos == "" {
				if len(in.Diagnostics) != 0 || in.skippedCount() != 1 {
					t.Fatalf("diagnostics %v, %d skipped; want none and the object skipped", in.Diagnostics, in.skippedCount())
				}
				return
			}
			if len(in.Diagnostics) != 1 {
				t.Fatalf("diagnostics %v, want one", in.Diagnostics)
			}
			d := in.Diagnostics[0]
			if d.Code != CodeMisspeltKind || d.Severity != SeverityError || d.Pos.String() != tt.wantPos || !strings.Contains(d.Hint, tt.wantHint) {
				t.Errorf("got %s %s at %s, hint %q; want %s at %s, hint with %q", d.Code, d.Severity, d.Pos, d.Hint, CodeMisspeltKind, tt.wantPos, tt.wantHint)
			}
		})
	}
}
