package kube

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite examples/rbac/clusterrole.yaml from rbac.yaml")

const kubeconfig = `apiVersion: v1
kind: Config
clusters:
- name: prod
  cluster: {server: "https://prod.example:6443"}
- name: dev
  cluster: {server: "https://dev.example:6443"}
users:
- name: u
  user: {token: t}
contexts:
- name: prod
  context: {cluster: prod, user: u, namespace: payments}
- name: dev
  context: {cluster: dev, user: u}
current-context: prod
`

func TestConnect(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "config")
	if err := os.WriteFile(path, []byte(kubeconfig), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		env       string // KUBECONFIG
		opts      Options
		wantNS    string
		wantWhere string
		wantScope string
	}{
		{name: "--kubeconfig, current context and its namespace", opts: Options{Kubeconfig: path},
			wantNS: "payments", wantWhere: `context "prod" (https://prod.example:6443)`, wantScope: `namespace "payments"`},
		{name: "KUBECONFIG", env: path, wantNS: "payments", wantWhere: `context "prod"`},
		{name: "--context without a namespace", opts: Options{Kubeconfig: path, Context: "dev"},
			wantNS: "default", wantWhere: `context "dev" (https://dev.example:6443)`},
		{name: "-n wins", opts: Options{Kubeconfig: path, Namespace: "web"}, wantNS: "web"},
		{name: "-A", opts: Options{Kubeconfig: path, AllNamespaces: true}, wantNS: "payments", wantScope: "all namespaces"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("KUBECONFIG", tt.env)
			t.Setenv("HOME", dir)
			c, err := Connect(tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			if c.Namespace() != tt.wantNS {
				t.Errorf("namespace = %q, want %q", c.Namespace(), tt.wantNS)
			}
			if !strings.Contains(c.Where(), tt.wantWhere) {
				t.Errorf("Where() = %q, want %q", c.Where(), tt.wantWhere)
			}
			if tt.wantScope != "" && c.Scope() != tt.wantScope {
				t.Errorf("Scope() = %q, want %q", c.Scope(), tt.wantScope)
			}
		})
	}
}

func TestConnectErrors(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "config")
	if err := os.WriteFile(path, []byte(kubeconfig), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", dir)
	t.Setenv("KUBECONFIG", "")
	t.Setenv("KUBERNETES_SERVICE_HOST", "")
	tests := []struct {
		name string
		opts Options
		want string
	}{
		{"nothing configured", Options{}, "no Kubernetes configuration: pass --kubeconfig, set KUBECONFIG"},
		{"missing file", Options{Kubeconfig: filepath.Join(dir, "nosuch")}, "nosuch"},
		{"unknown context", Options{Kubeconfig: path, Context: "staging"}, `"staging"`},
		{"bad selector", Options{Kubeconfig: path, Selector: "a in ("}, "invalid selector"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Connect(tt.opts)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want %q", err, tt.want)
			}
		})
	}
}

// TestRBACExample keeps examples/rbac/clusterrole.yaml and `azsvc help
// rbac` (this package's RBAC) the same text.
func TestRBACExample(t *testing.T) {
	const example = "../../examples/rbac/clusterrole.yaml"
	if *update {
		if err := os.WriteFile(example, []byte(RBAC), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(example)
	if err != nil {
		t.Fatal(err)
	}
	if string(data) != RBAC {
		t.Errorf("%s differs from providers/kube/rbac.yaml; edit rbac.yaml and run go test ./providers/kube -update", example)
	}
	for _, want := range []string{"resources: [services, nodes]", "resources: [endpointslices]", "resources: [services/status]",
		"resourceNames: [aks-managed-resource-locker]", "verbs: [get, update]", "verbs: [create]", "namespace: kube-system"} {
		if !strings.Contains(RBAC, want) {
			t.Errorf("RBAC lacks %q", want)
		}
	}
}
