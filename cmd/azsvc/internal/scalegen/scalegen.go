// Package scalegen generates the Service sets azsvc's scale benchmarks use
// (issue 15): n Services spread over a multi-SLB cluster of LBs load
// balancers, as manifests and the azure.json that goes with them. The same
// generator feeds the engine's scale tests and `azsvc bench-fixture`, so the
// table scripts/bench.sh prints is reproducible from the CLI.
package scalegen

import (
	"encoding/json"
	"fmt"
	"strings"
)

// LBs is how many standard LBs the configuration spreads Services over:
// 10,000 Services need at least 17 (600 frontends per LB, arm-rules §2.4),
// public and internal Services each getting their own.
const LBs = 20

// ClusterName is the cluster the configuration's first LB is named after.
const ClusterName = "aks-prod-weu"

// AzureJSON turns a cluster's azure.json into the multi-SLB one the
// generated Services are planned with (ccm-semantics §7.6): nodeIP backend
// pools and LBs configurations, the first named after the cluster.
func AzureJSON(base []byte) ([]byte, error) {
	var raw map[string]any
	if err := json.Unmarshal(base, &raw); err != nil {
		return nil, fmt.Errorf("azure.json: %w", err)
	}
	raw["loadBalancerBackendPoolConfigurationType"] = "nodeIP"
	configs := []any{map[string]any{"name": ClusterName, "primaryVMSet": "aks-nodepool1-vmss"}}
	for i := 1; i < LBs; i++ {
		configs = append(configs, map[string]any{"name": fmt.Sprintf("slb-%02d", i), "primaryVMSet": fmt.Sprintf("aks-pool%02d-vmss", i)})
	}
	raw["multipleStandardLoadBalancerConfigurations"] = configs
	return json.MarshalIndent(raw, "", "  ")
}

// Manifests renders n Services: one in four public, one port each (ports
// vary, so NSG rules are shared by up to n/50 Services), and only three in
// ten with NSG rules: a cluster NSG holds at most 4,000 destination
// prefixes (arm-rules §2.4), the rest set
// azure-disable-load-balancer-nsg-rule as such clusters must.
//
// changedEvery > 0 changes the port of every changedEvery-th Service
// (changedEvery 100 is "1% changed"): its LB rule, probe and, when it has
// one, its NSG rule change.
func Manifests(n, changedEvery int) []byte {
	docs := make([]string, n)
	for i := range docs {
		port := 8000 + i%50
		if changedEvery > 0 && i%changedEvery == changedEvery-1 {
			port += 1000
		}
		docs[i] = service(i, port, i%4 != 0, i%10 < 3)
	}
	return []byte(strings.Join(docs, "---\n"))
}

// Reviewed renders the Services of Manifests(n, 0) as a pull request
// edits them, for the tests of plans made for review (issue 16): every
// 50th Service, from the first, moves to another port (its LB rule and
// probe are re-created, which is disruptive, and the NSG rules its old and
// new port share with other Services change), and every 100th, from the
// 8th, gets an idle-timeout annotation (an update in place).
func Reviewed(n int) []byte {
	docs := make([]string, n)
	for i := range docs {
		port := 8000 + i%50
		if i%50 == 0 {
			port += 1000
		}
		var extra []string
		if i%100 == 7 {
			extra = append(extra, "service.beta.kubernetes.io/azure-load-balancer-tcp-idle-timeout: \"10\"")
		}
		docs[i] = service(i, port, i%4 != 0, i%10 < 3, extra...)
	}
	return []byte(strings.Join(docs, "---\n"))
}

// service is Service i, with extra annotations. Node ports repeat past the
// Kubernetes range's 2,768 ports; nothing in a plan depends on them being
// unique.
func service(i, port int, internal, nsgRule bool, annotations ...string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "apiVersion: v1\nkind: Service\nmetadata:\n  name: svc-%05d\n  namespace: ns-%d\n  uid: %08x-0000-4000-8000-%012x\n  annotations:\n",
		i, i%40, i, i)
	b.WriteString("    example.com/generated: \"true\"\n")
	if internal {
		b.WriteString("    service.beta.kubernetes.io/azure-load-balancer-internal: \"true\"\n")
	}
	if !nsgRule {
		b.WriteString("    service.beta.kubernetes.io/azure-disable-load-balancer-nsg-rule: \"true\"\n")
	}
	for _, a := range annotations {
		b.WriteString("    " + a + "\n")
	}
	fmt.Fprintf(&b, "spec:\n  type: LoadBalancer\n  selector:\n    app: svc-%05d\n  ports:\n    - name: web\n      protocol: TCP\n      port: %d\n      targetPort: 8080\n      nodePort: %d\n",
		i, port, 30000+i%2767)
	return b.String()
}

// Nodes renders n Nodes spread evenly over the scale sets that are the
// configurations' primaryVMSets (AzureJSON), so multi-SLB placement puts
// n/LBs nodes on each configuration's two load balancers. Addresses are
// 10.224.x.y from 10.224.0.4, in the node subnet of azsvc's emulator.
func Nodes(n int) []byte {
	docs := make([]string, n)
	for i := range docs {
		docs[i] = node(i)
	}
	return []byte(strings.Join(docs, "---\n"))
}

func node(i int) string {
	vmss := "aks-nodepool1-vmss"
	if lb := i % LBs; lb > 0 {
		vmss = fmt.Sprintf("aks-pool%02d-vmss", lb)
	}
	return fmt.Sprintf("apiVersion: v1\nkind: Node\nmetadata:\n  name: %s-%06d\n  labels: {kubernetes.io/os: linux}\nspec:\n"+
		"  providerID: azure:///subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/mc_aks-prod-weu/providers/Microsoft.Compute/virtualMachineScaleSets/%s/virtualMachines/%d\n"+
		"status:\n  addresses:\n  - {type: InternalIP, address: 10.224.%d.%d}\n  - {type: Hostname, address: %s-%06d}\n",
		vmss, i, vmss, i/LBs, i/250, 4+i%250, vmss, i)
}
