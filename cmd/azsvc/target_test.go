package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// netnsChild marks the copy of the test binary that runs inside a network
// namespace of its own (see inSandbox).
const netnsChild = "AZSVC_TEST_IN_NETNS"

// inSandbox runs the calling test again in a fresh network namespace with
// only a down loopback, no PATH (so no az, azd or pwsh) and an empty HOME:
// whatever the Azure SDK tries (the instance metadata address, login
// hosts, developer tools) fails at once and reaches nothing. It reports
// whether the caller is that copy; the parent only checks that the copy
// passed.
func inSandbox(t *testing.T) bool {
	t.Helper()
	return inNamespace(t, []string{"-n"}, "PATH="+t.TempDir())
}

// inNetns is inSandbox in a user namespace too (unshare -rn), keeping
// PATH: for what needs git and no network.
func inNetns(t *testing.T) bool {
	t.Helper()
	return inNamespace(t, []string{"-rn"}, "PATH="+os.Getenv("PATH"))
}

func inNamespace(t *testing.T, flags []string, path string) bool {
	t.Helper()
	if os.Getenv(netnsChild) == t.Name() {
		return true
	}
	if err := exec.Command("unshare", append(flags, "true")...).Run(); err != nil {
		t.Skipf("unshare %v is not available (%v): this test must not reach the network", flags, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	args := append(append([]string(nil), flags...), os.Args[0], "-test.run=^"+t.Name()+"$", "-test.v", "-test.count=1")
	cmd := exec.CommandContext(ctx, "unshare", args...)
	cmd.Env = []string{netnsChild + "=" + t.Name(), path, "HOME=" + t.TempDir()}
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: "+t.Name()) {
		t.Fatalf("in a network namespace: %v\n%s", err, out)
	}
	return false
}

// TestAzureWithoutCredentials: a subscription in azure.json makes Azure
// the target; with no credentials anywhere, plan and apply exit 1 naming
// every credential source tried, and never fall back to the emulator. With
// --target emulator the same configuration plans against the emulator.
func TestAzureWithoutCredentials(t *testing.T) {
	if !inSandbox(t) {
		return
	}
	c := newCLI(t)
	examples, err := filepath.Abs("../../examples")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(c.dir) // the default state file, if anything created it, would land here
	cfg := filepath.Join(c.dir, "azure.json")
	writeFile(t, cfg, `{"resourceGroup":"mc_rg","location":"westeurope","vnetName":"aks-vnet","subnetName":"aks-subnet",
		"securityGroupName":"aks-agentpool-nsg","subscriptionId":"11111111-2222-3333-4444-555555555555"}`)
	svc := filepath.Join(examples, "public-basic")
	sources := []string{"Azure (AzurePublicCloud, subscription 11111111-2222-3333-4444-555555555555): no usable Azure credentials",
		"EnvironmentCredential", "WorkloadIdentityCredential", "ManagedIdentityCredential", "AzureCLICredential", "--target emulator"}
	for _, args := range [][]string{
		{"plan", "-f", svc, "--config", cfg},
		{"plan", "-f", svc, "--config", cfg, "--target", "azure"},
		{"apply", "-f", svc, "--config", cfg, "--auto-approve"},
	} {
		res := c.run(args...)
		if res.code != exitRuntime || res.stdout != "" {
			t.Errorf("%v: exit %d, stdout %q; want exit 1 and nothing planned\n%s", args, res.code, res.stdout, res.stderr)
		}
		for _, want := range sources {
			if !strings.Contains(res.stderr, want) {
				t.Errorf("%v: stderr does not name %q:\n%s", args, want, res.stderr)
			}
		}
	}
	if _, err := os.Stat(filepath.Join(c.dir, ".azsvc")); !os.IsNotExist(err) {
		t.Errorf("an emulator state was created for an Azure target: %v", err)
	}
	res := c.run("plan", "-f", svc, "--config", cfg, "--target", "emulator", "--detailed-exitcode")
	if res.code != exitChanges || !strings.HasPrefix(res.stdout, "Target:         local emulator (state .azsvc/state.json)\n") {
		t.Errorf("--target emulator: exit %d\n%s\n%s", res.code, res.stdout, res.stderr)
	}
	// A managed identity azure.json (an AKS node's) fails just as plainly.
	writeFile(t, cfg, `{"resourceGroup":"mc_rg","location":"westeurope","securityGroupName":"nsg","subscriptionId":"s","useManagedIdentityExtension":true}`)
	res = c.run("plan", "-f", svc, "--config", cfg)
	if res.code != exitRuntime || !strings.Contains(res.stderr, "managed identity (system-assigned)") || !strings.Contains(res.stderr, "only on an Azure host") {
		t.Errorf("managed identity: exit %d\n%s", res.code, res.stderr)
	}
}

// TestTargetSelectionErrors: contradictory or incomplete target settings
// are usage errors, reported before anything is read.
func TestTargetSelectionErrors(t *testing.T) {
	noSub := filepath.Join(t.TempDir(), "azure.json")
	writeFile(t, noSub, `{"resourceGroup":"rg","location":"westeurope","securityGroupName":"nsg"}`)
	svc := "../../examples/public-basic"
	tests := []struct {
		name string
		args []string
		env  map[string]string
		want string
	}{
		{"unknown target", []string{"--target", "cloud"}, nil, `--target "cloud": want auto, azure or emulator`},
		{"azure without a subscription", []string{"--target", "azure"}, nil, "--target azure needs a subscription"},
		{"two targets on the command line", []string{"--target", "azure", "--subscription", "11111111-2222-3333-4444-555555555555", "--state", "x.json"}, nil, "choose different targets"},
		{"endpoint without a token", []string{"--arm-endpoint", "http://127.0.0.1:1"}, nil, "needs --arm-token"},
		{"token without an endpoint", nil, map[string]string{"AZSVC_ARM_TOKEN": "s3cret"}, "--arm-token (env AZSVC_ARM_TOKEN) is only sent to an --arm-endpoint"},
		{"endpoint off loopback in clear text", []string{"--arm-endpoint", "http://arm.example.com", "--arm-token", "t"}, nil, "must use https"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newCLI(t)
			for k, v := range tt.env {
				t.Setenv(k, v)
			}
			res := c.run(append([]string{"-v", "plan", "-f", svc, "--config", noSub}, tt.args...)...)
			if res.code != exitUsage || !strings.Contains(res.stderr, tt.want) {
				t.Errorf("exit %d, want %d with %q:\n%s", res.code, exitUsage, tt.want, res.stderr)
			}
			if strings.Contains(res.stderr, "s3cret") {
				t.Errorf("the token was echoed (-v names sources, not values):\n%s", res.stderr)
			}
		})
	}
}
