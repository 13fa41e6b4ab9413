package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Answering anything but "yes" at apply's prompt writes nothing and exits
// 1 with "Apply cancelled." on stderr, as Terraform does; `yes` applies.
func TestDeclinedApplyExits1(t *testing.T) {
	for _, answer := range []string{"no\n", "y\n", ""} {
		c := newCLI(t)
		c.tty, c.stdin = true, answer
		res := c.run(exampleArgs(c, "public-basic", "apply")...)
		if res.code != exitRuntime || !strings.Contains(res.stderr, "Enter a value: Apply cancelled.\n") {
			t.Errorf("answer %q: exit %d, want %d with Apply cancelled.:\n%s", answer, res.code, exitRuntime, res.stderr)
		}
		c.tty = false
		if res := c.run(exampleArgs(c, "public-basic", "plan")...); !strings.Contains(res.stdout, "Plan: 7 to create") {
			t.Errorf("answer %q: the declined apply wrote something:\n%s", answer, res.stdout)
		}
	}
	c := newCLI(t)
	c.tty, c.stdin = true, "yes\n"
	if res := c.run(exampleArgs(c, "public-basic", "apply")...); res.code != exitOK || !strings.Contains(res.stderr, "Apply complete!") {
		t.Errorf("answer yes: exit %d\n%s", res.code, res.stderr)
	}
}

// An apply with nothing to do but blocked changes exits 0, as
// `azsvc help exit-codes` says: the plan lists what is blocked. Here the
// NSG rule of a Service with floating IP disabled is not planned: the
// cluster's one Node is excluded from load balancers, so its IP-based pool
// keeps what ARM holds (none), and CCM builds no rule without a
// destination.
func TestApplyOfOnlyBlockedChangesExits0(t *testing.T) {
	c := newCLI(t)
	cfg, err := os.ReadFile("../../examples/azure.json")
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(c.dir, "azure.json"), strings.Replace(string(cfg), `"nodeIPConfiguration"`, `"nodeIP"`, 1))
	writeFile(t, filepath.Join(c.dir, "svc.yaml"), `apiVersion: v1
kind: Service
metadata:
  name: sip
  namespace: tel
  uid: 6f2a9d4c-1e8b-4b53-9c7e-a3d0f5b8e291
  annotations:
    service.beta.kubernetes.io/azure-disable-load-balancer-floating-ip: "true"
spec:
  type: LoadBalancer
  ports: [{port: 5061, nodePort: 31061}]
---
apiVersion: v1
kind: Node
metadata:
  name: n0
  labels: {node.kubernetes.io/exclude-from-external-load-balancers: "true"}
status:
  addresses: [{type: InternalIP, address: 10.224.0.4}]
`)
	args := []string{"apply", "-f", filepath.Join(c.dir, "svc.yaml"), "--config", filepath.Join(c.dir, "azure.json"),
		"--target", "emulator", "--state", filepath.Join(c.dir, "state.json"), "--auto-approve"}
	if res := c.run(args...); res.code != exitOK {
		t.Fatalf("first apply: exit %d\n%s\n%s", res.code, res.stdout, res.stderr)
	}
	res := c.run(args...)
	if res.code != exitOK || !strings.Contains(res.stdout, "No changes can be made: 1 blocked (see above).") {
		t.Errorf("apply of only blocked changes: exit %d\n%s\n%s", res.code, res.stdout, res.stderr)
	}
}

// The exit-codes help says what a declined and an all-blocked apply exit.
func TestExitCodeHelpForApply(t *testing.T) {
	help := strings.Join(strings.Fields(exitCodesHelp()), " ")
	for _, want := range []string{
		"apply: every step applied, or nothing to apply. Blocked changes that only hold something back (a delete of what is still in use, node IPs CCM adds later) do not change the exit code.",
		`apply declined at the prompt ("Apply cancelled."), as in Terraform.`,
	} {
		if !strings.Contains(help, want) {
			t.Errorf("help exit-codes lacks %q:\n%s", want, exitCodesHelp())
		}
	}
}

// The prompt names where apply writes: every subscription, the cluster's
// marked, and their resource groups (issue 22 item 6); the HyperShift
// example writes half its changes into the guest's subscription.
func TestApplyPromptNamesWhereItWrites(t *testing.T) {
	c := newCLI(t)
	seedState(t, c, "hypershift-private-link")
	c.tty, c.stdin = true, "no\n"
	res := c.run(exampleArgs(c, "hypershift-private-link", "apply")...)
	want := "Do you want to perform these actions in subscription 00000000-0000-0000-0000-000000000000 (the cluster's; resource group " +
		"mc_aks-prod-weu) and subscription 5c7d9e1f-2a3b-4c5d-8e9f-0a1b2c3d4e5f (resource group rg-guest-foo)?\n"
	if res.code != exitRuntime || !strings.Contains(res.stderr, want) {
		t.Errorf("exit %d, want the prompt %q:\n%s", res.code, want, res.stderr)
	}
}
