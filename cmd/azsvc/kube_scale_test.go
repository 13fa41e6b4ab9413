package main

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/azsvc/azsvc/providers/kube"
)

const (
	scaleServices = 5000
	scaleNodes    = 500
	scaleLBs      = 20
)

// testScale measures, on the API server, the requests one plan makes to
// read 5,000 Services, 500 Nodes and 5,000 EndpointSlices: one paged list
// per kind, so ceil(n/500) LIST requests each and nothing per object.
func (k *kubeEnv) testScale(t *testing.T) {
	ns := k.ns("scale")
	k.namespace(t, ns)
	start := time.Now()
	k.createAll(t, scaleNodes, func(int) string { return "/api/v1/nodes" }, func(i int) any {
		return node(fmt.Sprintf("aks-pool-%04d", i), fmt.Sprintf("10.224.%d.%d", 1+i/250, 4+i%250), nil)
	})
	k.createAll(t, scaleServices, func(int) string { return "/api/v1/namespaces/" + ns + "/services" }, func(i int) any {
		return scaleService(ns, i)
	})
	k.createAll(t, scaleServices, func(int) string { return "/apis/discovery.k8s.io/v1/namespaces/" + ns + "/endpointslices" }, func(i int) any {
		return endpointSlice(ns, fmt.Sprintf("svc-%05d", i), fmt.Sprintf("10.244.%d.%d", i/250, 2+i%250))
	})
	t.Logf("created %d Services, %d Nodes and %d EndpointSlices in %s", scaleServices, scaleNodes, scaleServices, time.Since(start).Round(time.Millisecond))

	var nodes struct{ Items []corev1.Node }
	k.must(t, "GET", "/api/v1/nodes", nil, &nodes)
	c := newCLI(t)
	c.emulator = newEmulator(t)
	before := k.listRequests(t)
	start = time.Now()
	res := c.run("plan", "--config", scaleAzureJSON(t, c.dir), "--cluster-name", "aks-prod-weu", "--from-cluster", "-n", ns,
		"--kubeconfig", k.kubeconfig, "--context", "azsvc", "-v", "-o", "json")
	elapsed := time.Since(start)
	after := k.listRequests(t)
	if res.code != exitOK {
		t.Fatalf("plan: exit %d\n%s", res.code, tail(res.stderr, 40))
	}
	var doc struct{ Summary map[string]any }
	if err := json.Unmarshal([]byte(res.stdout), &doc); err != nil || doc.Summary["create"].(float64) == 0 {
		t.Fatalf("plan -o json: %v, summary %v", err, doc.Summary)
	}
	pages := func(n int) int { return (n + kube.DefaultPageSize - 1) / kube.DefaultPageSize }
	want := map[string]int{"services": pages(scaleServices), "nodes": pages(len(nodes.Items)), "endpointslices": pages(scaleServices)}
	total, wantTotal := 0, 0
	for res, n := range want {
		got := after[res] - before[res]
		total += got
		wantTotal += n
		if got != n {
			t.Errorf("LIST %s: %d requests, want %d (one per page of %d)", res, got, n, kube.DefaultPageSize)
		}
	}
	client := clientLists(res.stderr)
	if client != wantTotal {
		t.Errorf("azsvc counted %d list requests, the API server %d", client, total)
	}
	arm := c.emulator.Counters()
	t.Logf("plan --from-cluster: %d Services, %d Nodes, %d EndpointSlices: %d LIST requests on the API server (%v), %d ARM reads, %s",
		scaleServices, len(nodes.Items), scaleServices, total, diffCounts(before, after), arm.Reads(""), elapsed.Round(time.Millisecond))
}

// scaleService is Service i of the scale test, spread like the engine's
// scale test: three in four internal, seven in ten without NSG rules.
func scaleService(ns string, i int) corev1.Service {
	ann := map[string]string{}
	if i%4 != 0 {
		ann[annInternal] = "true"
	}
	if i%10 >= 3 {
		ann["service.beta.kubernetes.io/azure-disable-load-balancer-nsg-rule"] = "true"
	}
	return lbService(ns, fmt.Sprintf("svc-%05d", i), int32(8000+i%50), ann)
}

// scaleAzureJSON is the example cluster with nodeIP pools and 20 standard
// load balancers, so 5,000 Services stay within ARM's per-LB limits.
func scaleAzureJSON(t *testing.T, dir string) string {
	return exampleConfig(t, dir, "azure.json", func(raw map[string]any) {
		raw["loadBalancerBackendPoolConfigurationType"] = "nodeIP"
		configs := []any{map[string]any{"name": "aks-prod-weu", "primaryVMSet": "aks-nodepool1-vmss"}}
		for i := 1; i < scaleLBs; i++ {
			configs = append(configs, map[string]any{"name": fmt.Sprintf("slb-%02d", i), "primaryVMSet": fmt.Sprintf("aks-pool%02d-vmss", i)})
		}
		raw["multipleStandardLoadBalancerConfigurations"] = configs
	})
}

var listsRe = regexp.MustCompile(`in (\d+) list requests`)

// clientLists is the list count azsvc -v reports.
func clientLists(stderr string) int {
	m := listsRe.FindStringSubmatch(stderr)
	if m == nil {
		return -1
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

func diffCounts(before, after map[string]int) map[string]int {
	out := map[string]int{}
	for k, v := range after {
		if d := v - before[k]; d != 0 {
			out[k] = d
		}
	}
	return out
}

func tail(s string, lines int) string {
	l := strings.Split(s, "\n")
	return strings.Join(l[max(0, len(l)-lines):], "\n")
}
