package main

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// TestServiceGatewayRefused (issue 25): CCM's Service Gateway mode is
// refused by every command that reads azure.json, with exit 4 and nothing
// written; before, render planned the shared load balancer as Basic.
func TestServiceGatewayRefused(t *testing.T) {
	c := newCLI(t)
	cfg := exampleConfig(t, c.dir, "sg.json", func(m map[string]any) {
		m["serviceGatewayEnabled"] = true
		m["loadBalancerBackendPoolConfigurationType"] = "podIP"
		m["loadBalancerSku"] = "Service" // CCM compares it case-insensitively
	})
	for _, cmd := range []string{"validate", "render", "plan", "apply"} {
		t.Run(cmd, func(t *testing.T) {
			args := exampleArgs(c, "public-basic", cmd, "--config", cfg)
			switch cmd {
			case "validate", "render":
				args = []string{cmd, "-f", "../../examples/public-basic", "--config", cfg}
			case "apply":
				args = append(args, "--auto-approve")
			}
			res := c.run(args...)
			if res.code != exitInvalid {
				t.Errorf("exit %d, want %d\nstdout: %s\nstderr: %s", res.code, exitInvalid, res.stdout, res.stderr)
			}
			for _, want := range []string{"Service Gateway mode", "not planned by azsvc yet", "one load balancer of SKU Service per Service"} {
				if !strings.Contains(res.stderr, want) {
					t.Errorf("stderr does not say %q:\n%s", want, res.stderr)
				}
			}
			if strings.Contains(res.stdout, "Basic") {
				t.Errorf("stdout shows a Basic load balancer:\n%s", res.stdout)
			}
		})
	}
	if _, err := os.Stat(c.dir + "/state.json"); err == nil {
		t.Error("apply wrote the emulator's state")
	}
	res := c.run("validate", "-f", "../../examples/public-basic", "--config", cfg, "-o", "json")
	var doc struct {
		ExitCode int `json:"exit_code"`
		Error    struct{ Kind string }
	}
	if err := json.Unmarshal([]byte(res.stdout), &doc); err != nil || doc.ExitCode != exitInvalid || doc.Error.Kind != "invalid_input" {
		t.Errorf("validate -o json: %v, %+v\n%s", err, doc, res.stdout)
	}
}

// TestServiceGatewayConfigErrors: a partial Service Gateway configuration
// and an unknown SKU are azure.json errors, for validate as for plan.
func TestServiceGatewayConfigErrors(t *testing.T) {
	tests := []struct {
		name string
		edit func(map[string]any)
		want string
	}{
		{"partial", func(m map[string]any) { m["serviceGatewayEnabled"] = true },
			"serviceGatewayEnabled: true, loadBalancerBackendPoolConfigurationType: podIP and loadBalancerSku: service go together"},
		{"unknown SKU", func(m map[string]any) { m["loadBalancerSku"] = "StandardV2" },
			`"loadBalancerSku": invalid value "StandardV2": want standard or basic`},
		{"blank SKU", func(m map[string]any) { m["loadBalancerSku"] = " " },
			`"loadBalancerSku": invalid value " "`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newCLI(t)
			cfg := exampleConfig(t, c.dir, "azure.json", tt.edit)
			for _, args := range [][]string{
				{"render", "-f", "../../examples/public-basic", "--config", cfg},
				{"validate", "-f", "../../examples/public-basic", "--config", cfg},
			} {
				res := c.run(args...)
				if res.code != exitRuntime || !strings.Contains(res.stderr, tt.want) {
					t.Errorf("%s: exit %d, want %d and %q on stderr:\n%s", args[0], res.code, exitRuntime, tt.want, res.stderr)
				}
			}
		})
	}
}

func TestHelpConfigListsNotModelled(t *testing.T) {
	res := newCLI(t).run("help", "config")
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"serviceGatewayEnabled", "extendedLocationName", "maximumLoadBalancerRuleCount",
		"systemTags", "enableIPTagMutationForExistingPublicIP"} {
		if !strings.Contains(res.stdout, key) {
			t.Errorf("azsvc help config does not list %s", key)
		}
		if !strings.Contains(string(readme), "`"+key+"`") {
			t.Errorf("README does not list %s", key)
		}
	}
}
