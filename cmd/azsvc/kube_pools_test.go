package main

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
)

const annNoFloatingIP = "service.beta.kubernetes.io/azure-disable-load-balancer-floating-ip"

// nodeIPConfig writes examples/azure.json with IP-based backend pools
// (loadBalancerBackendPoolConfigurationType nodeIP) into dir.
func nodeIPConfig(t *testing.T, dir string) string {
	return exampleConfig(t, dir, "azure-nodeip.json", func(cfg map[string]any) {
		cfg["loadBalancerBackendPoolConfigurationType"] = "nodeIP"
	})
}

// poolView is what a JSON plan says of the cluster pool and the NSG rule
// of a Service with floating IP disabled.
type poolView struct {
	added, removed []string // "name=ip"
	destinations   []string
}

func viewPools(t *testing.T, js string) poolView {
	t.Helper()
	var doc struct {
		Changes []struct {
			Address       string `json:"address"`
			MemberChanges []struct {
				Added, Removed []struct {
					Name string `json:"name"`
					IP   string `json:"ip_address"`
				}
			} `json:"member_changes"`
			After *struct {
				Properties map[string]any `json:"properties"`
			} `json:"after"`
		} `json:"changes"`
	}
	if err := json.Unmarshal([]byte(js), &doc); err != nil {
		t.Fatal(err)
	}
	var v poolView
	for _, c := range doc.Changes {
		for _, m := range c.MemberChanges {
			for _, a := range m.Added {
				v.added = append(v.added, a.Name+"="+a.IP)
			}
			for _, r := range m.Removed {
				v.removed = append(v.removed, r.Name+"="+r.IP)
			}
		}
		if strings.HasPrefix(c.Address, "nsg/") && c.After != nil {
			for _, d := range c.After.Properties["destinationAddressPrefixes"].([]any) {
				v.destinations = append(v.destinations, d.(string))
			}
		}
	}
	slices.Sort(v.added)
	slices.Sort(v.removed)
	return v
}

// agentNodes are the API server's Nodes but the control-plane ones, as
// "name=ip" sorted by name, and their addresses sorted as NSG rules list
// them. (The scale test leaves 500 more on a reused API server.)
func (k *kubeEnv) agentNodes(t *testing.T) (members, ips []string) {
	t.Helper()
	var list corev1.NodeList
	k.must(t, http.MethodGet, "/api/v1/nodes", nil, &list)
	for _, n := range list.Items {
		if _, cp := n.Labels["node-role.kubernetes.io/control-plane"]; cp {
			continue
		}
		for _, a := range n.Status.Addresses {
			if a.Type == corev1.NodeInternalIP {
				members = append(members, n.Name+"="+a.Address)
				ips = append(ips, a.Address)
				break
			}
		}
	}
	slices.Sort(members)
	slices.Sort(ips)
	return members, ips
}

// testNodeIPPools: with IP-based pools, the Nodes the API server holds
// are the pools' members (the control-plane node left out) and the NSG
// destinations of a Service with floating IP disabled; a second plan is
// empty; a node that joins and leaves again is added and drained.
func (k *kubeEnv) testNodeIPPools(t *testing.T) {
	ns := k.ns("pools")
	k.namespace(t, ns)
	svc := lbService(ns, "sip", 5061, map[string]string{annNoFloatingIP: "true"})
	k.createAll(t, 1, func(int) string { return "/api/v1/namespaces/" + ns + "/services" }, func(int) any { return svc })
	c := newCLI(t)
	c.emulator = newEmulator(t)
	plan := func(extra ...string) []string {
		return k.args("plan", ns, append([]string{"--config", nodeIPConfig(t, c.dir)}, extra...)...)
	}
	apply := func() {
		t.Helper()
		if res := c.run(k.args("apply", ns, "--config", nodeIPConfig(t, c.dir), "--auto-approve")...); res.code != exitOK {
			t.Fatalf("apply: exit %d\n%s", res.code, res.stderr)
		}
	}
	empty := func(what string) {
		t.Helper()
		if res := c.run(plan("--detailed-exitcode")...); res.code != exitOK || !strings.Contains(res.stdout, "No changes.") {
			t.Fatalf("%s: plan is not empty: exit %d\n%s\n%s", what, res.code, res.stdout, res.stderr)
		}
	}

	_, js := planSummary(t, c, plan()...)
	got := viewPools(t, js)
	members, ips := k.agentNodes(t)
	if !slices.Equal(got.added, members) || !slices.Equal(got.destinations, ips) || !slices.Contains(members, "aks-nodepool1-0=10.224.0.4") {
		t.Fatalf("first plan: members %v, NSG destinations %v; want every node but the control plane's: %v", got.added, got.destinations, members)
	}
	apply()
	empty("applied")

	joined := node("aks-nodepool1-9", "10.224.0.13", nil)
	if code, out := k.do(t, http.MethodPost, "/api/v1/nodes", joined); code != http.StatusCreated {
		t.Fatalf("create node: %d %s", code, out)
	}
	_, js = planSummary(t, c, plan()...)
	if got := viewPools(t, js); !slices.Equal(got.added, []string{"aks-nodepool1-9=10.224.0.13"}) || len(got.removed) != 0 {
		t.Errorf("a node joined: added %v removed %v", got.added, got.removed)
	}
	apply()
	empty("joined")

	if code, out := k.do(t, http.MethodDelete, "/api/v1/nodes/aks-nodepool1-9", nil); code != http.StatusOK {
		t.Fatalf("delete node: %d %s", code, out)
	}
	_, js = planSummary(t, c, plan()...)
	got = viewPools(t, js)
	if !slices.Equal(got.removed, []string{"aks-nodepool1-9=10.224.0.13"}) || slices.Contains(got.destinations, "10.224.0.13") {
		t.Errorf("a node left: removed %v, NSG destinations %v", got.removed, got.destinations)
	}
	apply()
	empty("drained")
}
