package service

import (
	"strings"
	"testing"
)

func TestHelmTemplate(t *testing.T) {
	tests := []struct{ name, doc, want string }{
		{"helm's form", "---\n# Source: shop/templates/service.yaml\napiVersion: v1\n", "shop/templates/service.yaml"},
		{"first document without ---", "# Source: shop/templates/a.yaml\nkind: Service\n", "shop/templates/a.yaml"},
		{"subchart", "---\n# Source: shop/charts/redis/templates/svc.yaml\nkind: Service\n", "shop/charts/redis/templates/svc.yaml"},
		{"after other comments and blank lines", "---\n\n# rendered\n  # indented\n# Source: c/templates/x.yaml \r\nkind: Service\n", "c/templates/x.yaml"},
		{"CRLF", "---\r\n# Source: c/templates/x.yaml\r\nkind: Service\r\n", "c/templates/x.yaml"},
		{"after content is not the document's", "---\nkind: Service\n# Source: c/templates/x.yaml\n", ""},
		{"indented is not helm's", "---\n  # Source: c/templates/x.yaml\nkind: Service\n", ""},
		{"empty name", "---\n# Source: \nkind: Service\n", ""},
		{"control character", "---\n# Source: c/\x1b[31mx.yaml\nkind: Service\n", ""},
		{"too long", "---\n# Source: " + strings.Repeat("a", maxTemplateName+1) + "\nkind: Service\n", ""},
		{"none", "---\napiVersion: v1\n", ""},
		{"only the comment", "---\n# Source: c/templates/empty.yaml\n", "c/templates/empty.yaml"},
	}
	for _, tt := range tests {
		if got := helmTemplate([]byte(tt.doc)); got != tt.want {
			t.Errorf("%s: helmTemplate = %q, want %q", tt.name, got, tt.want)
		}
	}
}

// helmStream is helm template's output shape: every document after "---"
// and its Source comment, a template rendering two documents, documents
// that are not Services, and two that only yaml.v3 reads (an anchor and a
// block scalar) one after the other, so they are decoded as one stream.
const helmStream = `---
# Source: shop/templates/serviceaccount.yaml
apiVersion: v1
kind: ServiceAccount
metadata:
  name: shop
---
# Source: shop/templates/services.yaml
apiVersion: v1
kind: Service
metadata:
  name: web
  annotations:
    service.beta.kubernetes.io/azure-load-balancer-interal: "true"
spec:
  type: LoadBalancer
  ports: [{port: 80, nodePort: 30080}]
---
# Source: shop/templates/services.yaml
apiVersion: v1
kind: Service
metadata:
  name: api
  annotations:
    service.beta.kubernetes.io/azure-load-balancer-tcp-idle-timeout: &t "2"
spec:
  type: LoadBalancer
  ports: [{port: 443, nodePort: 30443}]
---
# Source: shop/templates/extra.yaml
apiVersion: v1
kind: Service
metadata:
  name: extra
  annotations:
    service.beta.kubernetes.io/azure-pls-fqdns: |
      a.example.com
spec:
  type: LoadBalancer
  ports: [{port: 8080, nodePort: 30880}]
---
apiVersion: v1
kind: Service
metadata:
  name: plain
  annotations: {service.beta.kubernetes.io/azure-dns-label-name: "-bad"}
spec:
  type: LoadBalancer
  ports: [{port: 81, nodePort: 30081}]
`

// TestHelmSourcesDecoded: each Service, and every position and finding
// in it, names the template its document came from, on the fast path and
// through yaml.v3 alike; a document without a Source comment names none.
func TestHelmSourcesDecoded(t *testing.T) {
	checkFastDecode(t, "<stdin>", []byte(helmStream))
	in := Decode(StdinName, []byte(helmStream))
	want := map[string]string{"shop/web": "shop/templates/services.yaml", "shop/api": "shop/templates/services.yaml",
		"shop/extra": "shop/templates/extra.yaml", "default/plain": ""}
	for _, s := range in.Services {
		s.Namespace = "shop"
		if s.Name == "plain" {
			s.Namespace = ""
		}
		tmpl, ok := want[s.Key()]
		if !ok {
			t.Fatalf("unexpected Service %s", s.Key())
		}
		if s.Source.Template != tmpl || s.Pos("spec.ports[0].port").Template != tmpl {
			t.Errorf("%s: Source %+v, port at %+v; want template %q", s.Key(), s.Source, s.Pos("spec.ports[0].port"), tmpl)
		}
		if s.Source.File != StdinName || s.Source.Line == 0 {
			t.Errorf("%s: Source %+v: the position stays in helm's output", s.Key(), s.Source)
		}
	}
	if len(in.Services) != 4 {
		t.Fatalf("%d Services, want 4", len(in.Services))
	}
	diags := in.Validate()
	found := map[string]Position{}
	for _, d := range diags {
		found[d.Code] = d.Pos
	}
	for code, want := range map[string]Position{
		CodeUnknownAnnotation: {File: StdinName, Line: 14, Column: 5, Template: "shop/templates/services.yaml"},
		CodeIdleTimeoutRange:  {File: StdinName, Line: 25, Column: 70, Template: "shop/templates/services.yaml"},
		CodeDNSLabel:          {File: StdinName, Line: 46, Column: 66},
	} {
		if found[code] != want {
			t.Errorf("%s at %+v, want %+v", code, found[code], want)
		}
	}
	if got := found[CodeUnknownAnnotation].String(); got != "shop/templates/services.yaml (from <stdin>:14:5)" {
		t.Errorf("String() = %q", got)
	}
}
