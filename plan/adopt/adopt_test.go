package adopt

import (
	"strings"
	"testing"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/service"
)

const (
	sub     = "00000000-0000-0000-0000-000000000000"
	rg      = "mc_rg"
	cluster = "kubernetes"
	prefixA = "a0123456789abcdef0123456789abcde"
	prefixB = "afedcba9876543210fedcba987654321" // the prefix of UID fedcba98-7654-3210-fedc-ba9876543210
)

func lbChild(kind plan.Kind, lb, name string, props map[string]any) *plan.Resource {
	parent := plan.NewID(sub, rg, plan.KindLoadBalancer, lb)
	return &plan.Resource{ID: plan.ChildID(parent, kind, name), Properties: props}
}

func ref(id plan.ID) map[string]any { return map[string]any{"id": id.String()} }

func pip(name, addr string, tags map[string]string) *plan.Resource {
	return &plan.Resource{ID: plan.NewID(sub, rg, plan.KindPublicIP, name), Tags: tags,
		Properties: map[string]any{"ipAddress": addr}}
}

func publicFrontend(lb, name string, p *plan.Resource) *plan.Resource {
	return lbChild(plan.KindFrontend, lb, name, map[string]any{"publicIPAddress": ref(p.ID)})
}

func privateFrontend(lb, name, addr string) *plan.Resource {
	return lbChild(plan.KindFrontend, lb, name, map[string]any{"privateIPAddress": addr})
}

func rule(fe *plan.Resource, name string) *plan.Resource {
	return lbChild(plan.KindRule, fe.ID.Names[0], name, map[string]any{"frontendIPConfiguration": ref(fe.ID)})
}

const webYAML = `apiVersion: v1
kind: Service
metadata: {name: web, namespace: shop}
spec: {type: LoadBalancer, ports: [{port: 80, nodePort: 30080}]}
`

func state(rs ...*plan.Resource) *plan.State {
	s := plan.NewState()
	for _, r := range rs {
		s.Put(r)
	}
	return s
}

func TestFind(t *testing.T) {
	tagged := pip("kubernetes-"+prefixA, "20.1.1.1", map[string]string{plan.TagService: "shop/web", plan.TagClusterName: cluster})
	feA := publicFrontend("kubernetes", prefixA, tagged)
	other := pip("kubernetes-"+prefixB, "20.1.1.2", map[string]string{"k8s-azure-service": "shop/web"})
	feB := publicFrontend("kubernetes", prefixB, other)
	internal := privateFrontend("kubernetes-internal", prefixB+"-subnet", "10.0.0.9")
	pls := &plan.Resource{ID: plan.NewID(sub, rg, plan.KindPrivateLinkService, "pls-"+prefixB),
		Tags:       map[string]string{plan.TagOwnerService: "shop/web", plan.TagClusterName: " Kubernetes "},
		Properties: map[string]any{"loadBalancerFrontendIpConfigurations": []any{ref(internal.ID)}}}
	status := strings.Replace(webYAML, "spec:", "status: {loadBalancer: {ingress: [{ip: 10.0.0.9}]}}\nspec:", 1)
	tests := []struct {
		name     string
		yaml     string
		observed *plan.State
		want     string // adopted prefix, "" for none
		conflict string // a substring of the conflict message
	}{
		{"tagged public IP and its rule", webYAML, state(tagged, feA, rule(feA, prefixA+"-TCP-80")), prefixA, ""},
		{"rule of another port is not evidence, the exclusive frontend is", webYAML, state(tagged, feA, rule(feA, prefixB+"-TCP-443")), prefixA, ""},
		{"legacy service tag", webYAML, state(pip("x", "20.1.1.9", map[string]string{"service": "shop/web"}), publicFrontend("kubernetes", prefixA, pip("x", "", nil))), prefixA, ""},
		{"another cluster's public IP", webYAML, state(pip("kubernetes-"+prefixA, "20.1.1.1", map[string]string{plan.TagService: "shop/web", plan.TagClusterName: "other"}), feA), "", ""},
		{"public IP left without a frontend", webYAML, state(tagged), prefixA, ""},
		{"status address of an internal frontend", status, state(internal, rule(internal, prefixB+"-subnet-TCP-80-IPv6")), prefixB, ""},
		{"status address without a rule for the port", status, state(internal), "", ""},
		{"PLS owner", webYAML, state(internal, pls), prefixB, ""},
		{"two tagged public IPs, two prefixes", webYAML, state(tagged, feA, rule(feA, prefixA+"-TCP-80"), other, feB, rule(feB, prefixB+"-TCP-80")), "", prefixB},
		{"a Service with a UID owns its prefix", webYAML + "---\n" + strings.Replace(webYAML, "name: web", "name: api, uid: fedcba98-7654-3210-fedc-ba9876543210", 1),
			state(tagged, feA, rule(feA, prefixA+"-TCP-80"), other, feB, rule(feB, prefixB+"-TCP-80")), prefixA, ""},
		{"nothing in ARM", webYAML, state(), "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := service.Decode("svc.yaml", []byte(tt.yaml))
			res := Find(in.Services, tt.observed, cluster)
			if got := res.Prefixes["shop/web"]; got != tt.want {
				t.Errorf("prefix %q, want %q (adopted %+v, conflicts %+v)", got, tt.want, res.Adopted, res.Diagnostics)
			}
			if tt.conflict == "" && len(res.Diagnostics) > 0 || tt.conflict != "" && (len(res.Diagnostics) != 1 || !strings.Contains(res.Diagnostics[0].Message, tt.conflict)) {
				t.Errorf("conflicts %+v, want one naming %q", res.Diagnostics, tt.conflict)
			}
			if tt.conflict != "" && !res.Refused["shop/web"] {
				t.Errorf("conflicting Service not refused")
			}
		})
	}
}

// Two Services without UIDs that ARM ties to one prefix are both refused.
func TestFindSharedPrefix(t *testing.T) {
	tagged := pip("kubernetes-"+prefixA, "20.1.1.1", map[string]string{plan.TagService: "shop/web,shop/web2"})
	fe := publicFrontend("kubernetes", prefixA, tagged)
	two := webYAML + "---\n" + strings.Replace(webYAML, "name: web,", "name: web2,", 1)
	in := service.Decode("svc.yaml", []byte(two))
	res := Find(in.Services, state(tagged, fe, rule(fe, prefixA+"-TCP-80")), cluster)
	if len(res.Diagnostics) != 2 || !res.Refused["shop/web"] || !res.Refused["shop/web2"] || len(res.Prefixes) != 0 {
		t.Fatalf("conflicts %+v refused %v prefixes %v, want both refused", res.Diagnostics, res.Refused, res.Prefixes)
	}
	if !strings.Contains(res.Diagnostics[0].Message, "shop/web and shop/web2") {
		t.Errorf("conflict %q does not name both Services", res.Diagnostics[0].Message)
	}
}

func TestNames(t *testing.T) {
	for _, tt := range []struct {
		name, prefix, proto, port string
	}{
		{prefixA, prefixA, "", ""},
		{prefixA + "-TCP-80", prefixA, "tcp", "80"},
		{strings.ToUpper(prefixA[:1]) + prefixA[1:] + "-subnet-x-UDP-53-IPv6", prefixA, "udp", "53"},
		{prefixA + "x-TCP-80", "", "", ""},
		{"cluster-service-shared-health-probe", "", "", ""},
		{"a0123", "", "", ""},
	} {
		p, ok := prefixOf(tt.name)
		if p != tt.prefix || ok != (tt.prefix != "") {
			t.Errorf("prefixOf(%q) = %q, %v; want %q", tt.name, p, ok, tt.prefix)
		}
		if !ok {
			continue
		}
		proto, port, ok := portOfRule(tt.name)
		if proto != tt.proto || port != tt.port || ok != (tt.port != "") {
			t.Errorf("portOfRule(%q) = %q %q %v; want %q %q", tt.name, proto, port, ok, tt.proto, tt.port)
		}
	}
	if p, ok := pipPrefix("Kubernetes-"+prefixA+"-IPv6", "kubernetes"); !ok || p != prefixA {
		t.Errorf("pipPrefix = %q, %v", p, ok)
	}
}

// An internal Service without UID, pinned address or status cannot be tied
// to a frontend; azsvc warns when untied internal frontends exist.
func TestFindWarnsAboutUntiedInternalServices(t *testing.T) {
	internal := strings.Replace(webYAML, "metadata: {name: web, namespace: shop}",
		"metadata: {name: web, namespace: shop, annotations: {service.beta.kubernetes.io/azure-load-balancer-internal: \"true\"}}", 1)
	untied := privateFrontend("kubernetes-internal", prefixA, "10.0.0.7")
	public := publicFrontend("kubernetes", prefixB, pip("p", "20.1.1.1", nil))
	for _, tt := range []struct {
		name     string
		yaml     string
		observed *plan.State
		warn     bool
	}{
		{"untied internal frontend", internal, state(untied), true},
		{"only public frontends", internal, state(public), false},
		{"external Service", webYAML, state(untied), false},
		{"nothing in ARM", internal, state(), false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			in := service.Decode("svc.yaml", []byte(tt.yaml))
			res := Find(in.Services, tt.observed, cluster)
			warned := len(res.Diagnostics) == 1 && res.Diagnostics[0].Code == service.CodeUIDUntied &&
				res.Diagnostics[0].Severity == service.SeverityWarning && strings.Contains(res.Diagnostics[0].Message, "lb/kubernetes-internal/frontend/"+prefixA)
			if warned != tt.warn || len(res.Refused) > 0 {
				t.Errorf("diagnostics %+v refused %v, want warning %v", res.Diagnostics, res.Refused, tt.warn)
			}
		})
	}
}
