package service

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"go.yaml.in/yaml/v3"
	corev1 "k8s.io/api/core/v1"
)

func addExampleSeeds(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(examplesDir, "*", "*.yaml"))
	for _, file := range files {
		if data, err := os.ReadFile(file); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte("apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: Service, metadata: {name: a}, spec: {type: LoadBalancer}}\n"))
	f.Add([]byte("a: &a [x]\nb: [*a, *a]\n<<: {c: d}\n"))
	f.Add([]byte(helmStream))
	f.Add([]byte("apiVersion: v1\nkind: Service\nmetadata:\n  name: d\n  annotations: {a: \"1\", a: \"2\", azure-load-balancer-internal: \"true\"}\nspec: {type: LoadBalancer, ports: []}\n"))
	f.Add([]byte("apiVersion: v1\nkind: Service\nmetadata:\n  name: x\n  creationTimestamp: 2024-01-02T03:04:05Z\n  labels: {v: \"1\"}\nspec:\n  ports: [{port: 80.0, targetPort: http, nodePort: 0x7530}, {port: 81}]\n  ports: [{protocol: UDP}]\n  allocateLoadBalancerNodePorts: false\n  sessionAffinityConfig: {clientIP: {timeoutSeconds: 10800}}\nstatus: {loadBalancer: {ingress: [{ip: 1.2.3.4}]}}\n"))
}

// FuzzLoad: decoding and validating any bytes never panics, and every
// diagnostic is positioned in the file and sorted.
func FuzzLoad(f *testing.F) {
	addExampleSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		in := Decode("fuzz.yaml", data)
		ds := append(in.Diagnostics, Validate(in.Services)...)
		for _, d := range ds {
			if d.Pos.File != "fuzz.yaml" || d.Code == "" || d.Message == "" {
				t.Fatalf("bad diagnostic %+v", d)
			}
			if d.Pos.Template != "" && !bytes.Contains(data, []byte(helmSourcePrefix+d.Pos.Template)) {
				t.Fatalf("diagnostic names template %q, which no Source comment does", d.Pos.Template)
			}
			if len(d.Message)+len(d.Hint) > 4096 {
				t.Fatalf("a %d-byte diagnostic: values must be cut (quote.Value): %.300q", len(d.Message)+len(d.Hint), d.Message)
			}
		}
		sorted := slices.Clone(in.Diagnostics)
		SortDiagnostics(sorted)
		if !slices.Equal(sorted, in.Diagnostics) {
			t.Fatal("input diagnostics are not sorted")
		}
		checkDirectMatchesJSON(t, data)
		for _, s := range in.Services {
			if s.Name == "" || s.Spec.Type != corev1.ServiceTypeLoadBalancer {
				t.Fatalf("kept a Service CCM would not reconcile: %q %q", s.Name, s.Spec.Type)
			}
		}
	})
}

// FuzzAnnotations: any annotation key and value, on any port, goes through
// validation and every accessor without a panic.
func FuzzAnnotations(f *testing.F) {
	for _, a := range Annotations() {
		key := a.Key
		if a.PerPort() {
			key = PortKey(443, a.Param)
		}
		f.Add(key, "true", int32(443))
		f.Add(key, " 10 ", int32(80))
	}
	f.Add(Prefix+"azure-load-balancer-interal", "True", int32(443))
	f.Add(Prefix+"port_abc_no_lb_rule", "1.2.3.4/33,::1", int32(0))
	f.Add(AnnPIPTags, "a=b,=c,d,e=f=g", int32(443))
	f.Add("service.beta.kubernete.io/azure-load-balancer-internal", "true", int32(80))
	f.Add("azure-pip-name", "x/../y", int32(80))
	f.Add(AnnPIPName, strings.Repeat("\x1b[2J", 4000), int32(80))
	f.Add(AnnLoadBalancerResourceGroup, "/../../x", int32(80))
	f.Add(AnnDNSLabelName, "Shöp", int32(80))
	f.Fuzz(func(t *testing.T, key, value string, port int32) {
		s := svcWith(map[string]string{key: value, AnnPLSCreate: "true"}, func(sp *corev1.ServiceSpec) {
			sp.Ports = append(sp.Ports, corev1.ServicePort{Name: value, Port: port, Protocol: corev1.Protocol(value)})
			sp.LoadBalancerSourceRanges = []string{value}
			sp.LoadBalancerIP = value
		})
		for _, d := range Validate([]*Service{s}) {
			if d.Code == "" || d.Message == "" || d.Service != "shop/web" {
				t.Fatalf("bad diagnostic %+v", d)
			}
			if len(d.Message)+len(d.Hint) > 4096 {
				t.Fatalf("a %d-byte diagnostic: values must be cut (quote.Value): %.300q", len(d.Message)+len(d.Hint), d.Message)
			}
		}
		exerciseAccessors(s, port)
	})
}

func exerciseAccessors(s *Service, port int32) {
	s.Bool(AnnDisableFloatingIP)
	s.IdleTimeout()
	s.ProbeTiming(port)
	s.ProbeRequestPath(port)
	for _, p := range s.Spec.Ports {
		s.ProbeProtocol(p)
		s.ProbePort(p)
	}
	s.PIPName(true)
	s.PIPPrefixID(false)
	s.LoadBalancerIP(true)
	s.LoadBalancerMode()
	s.LoadBalancerConfigurations()
	s.PIPTags()
	s.PIPIPTags()
	s.AllowedIPRanges()
	s.SourceRanges()
	s.AdditionalPublicIPs()
	s.PLSSubnet()
	s.PLSIPConfigCount()
	s.PLSStaticIPs()
	s.PLSVisibility()
}

// checkDirectMatchesJSON: the direct decoder gives exactly what
// encoding/json gives for the same tree, success or failure.
func checkDirectMatchesJSON(t *testing.T, data []byte) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for {
		var root yaml.Node
		if err := dec.Decode(&root); err != nil {
			return
		}
		if len(root.Content) == 0 || root.Content[0].Kind != yaml.MappingNode {
			continue
		}
		obj := root.Content[0]
		var direct, viaJSON corev1.Service
		errDirect := newDirectDecoder().decode(obj, reflect.ValueOf(&direct).Elem())
		js, errJSON := toJSON(obj)
		if errJSON == nil {
			errJSON = json.Unmarshal(js, &viaJSON)
		}
		if (errDirect == nil) != (errJSON == nil) {
			t.Fatalf("direct decoder error %v, encoding/json error %v", errDirect, errJSON)
		}
		if errDirect == nil && !reflect.DeepEqual(direct, viaJSON) {
			t.Fatalf("direct decoder differs from encoding/json:\n%s", cmp.Diff(viaJSON, direct))
		}
	}
}
