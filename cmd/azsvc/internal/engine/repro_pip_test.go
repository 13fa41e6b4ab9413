package engine

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/azsvc/azsvc/apply"
	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/providers/azure/emulator"
)

// soloService is one external Service with the given extra annotation lines.
func soloService(name, annotations string, port, nodePort int) string {
	return `apiVersion: v1
kind: Service
metadata:
  name: ` + name + `
  namespace: web
  annotations:
` + annotations + `spec:
  type: LoadBalancer
  selector:
    app: ` + name + `
  ports:
    - name: http
      protocol: TCP
      port: ` + strconv.Itoa(port) + `
      targetPort: 8080
      nodePort: ` + strconv.Itoa(nodePort) + `
`
}

// applyThen applies first, then plans and applies second, and requires the
// third plan to be empty.
func applyThen(t *testing.T, first, second string) {
	t.Helper()
	cfg := exampleConfig(t)
	in := mustInputs(t, cfg, []byte(first), true)
	tg := newMemTarget(t, in, emulator.Options{InstantOperations: true})
	if _, err := apply.Run(context.Background(), mustPlan(t, in, tg), tg.Provider, apply.Options{}); err != nil {
		t.Fatalf("first apply: %v", err)
	}
	after := mustInputs(t, cfg, []byte(second), true)
	retarget(tg, after)
	p := mustPlan(t, after, tg)
	if _, err := apply.Run(context.Background(), p, tg.Provider, apply.Options{}); err != nil {
		t.Fatalf("second apply: %v\nplan:\n%s", err, planLines(p))
	}
	requireEmptyPlan(t, after, tg, "after the change")
}

func TestReplacingPIPOfServiceAloneOnLB(t *testing.T) {
	const tag = "    service.beta.kubernetes.io/azure-pip-ip-tags: "
	applyThen(t, soloService("web", tag+"RoutingPreference=Internet\n", 80, 30080),
		soloService("web", tag+"FirstPartyUsage=/Unprivileged\n", 80, 30080))
}

// applyAll applies each manifest in turn; after each apply the next plan
// must be empty. It returns the target and the last inputs.
func applyAll(t *testing.T, docs ...string) (*Target, *Inputs) {
	t.Helper()
	cfg := exampleConfig(t)
	var tg *Target
	var in *Inputs
	for i, doc := range docs {
		in = mustInputs(t, cfg, []byte(doc), true)
		if tg == nil {
			tg = newMemTarget(t, in, emulator.Options{InstantOperations: true})
		}
		retarget(tg, in)
		p := mustPlan(t, in, tg)
		if i > 0 && len(p.Steps) == 0 {
			t.Fatalf("manifest %d: no change planned", i+1)
		}
		if _, err := apply.Run(context.Background(), p, tg.Provider, apply.Options{}); err != nil {
			t.Fatalf("manifest %d: apply: %v\nplan:\n%s", i+1, err, planLines(p))
		}
		requireEmptyPlan(t, in, tg, "after manifest "+strconv.Itoa(i+1))
	}
	return tg, in
}

// pipBody is the body of the only public IP of the desired state.
func pipBody(t *testing.T, tg *Target, in *Inputs) string {
	t.Helper()
	for _, r := range in.Desired.Resources() {
		if r.ID.Kind == plan.KindPublicIP {
			body, ok := getBody(t, tg.Emulator, r.ID.String())
			if !ok {
				t.Fatalf("%s does not exist", r.ID.Address())
			}
			return body
		}
	}
	t.Fatal("no public IP desired")
	return ""
}

// TestEmptyDNSLabelRemovesDNSSettings: azure-dns-label-name "" removes the
// public IP's DNS label, while an absent annotation leaves it alone
// (ccm-semantics §1.3 #4).
func TestEmptyDNSLabelRemovesDNSSettings(t *testing.T) {
	const ann = "    service.beta.kubernetes.io/azure-dns-label-name: "
	labelled := soloService("web", ann+"shop-web\n", 80, 30080)
	t.Run("empty removes", func(t *testing.T) {
		tg, in := applyAll(t, labelled, soloService("web", ann+`""`+"\n", 80, 30080))
		if body := pipBody(t, tg, in); strings.Contains(body, "dnsSettings") || strings.Contains(body, "shop-web") {
			t.Fatalf("DNS label kept: %s", body)
		} else if !strings.Contains(body, `"k8s-azure-dns-label-service":"web/web"`) {
			// CCM's reconcileDNSSettings clears dnsSettings only; the tag
			// goes when the Service is unbound (ccm-semantics §2.3).
			t.Fatalf("DNS tag dropped: %s", body)
		}
	})
	t.Run("absent keeps", func(t *testing.T) {
		cfg := exampleConfig(t)
		tg, _ := applyAll(t, labelled)
		in := mustInputs(t, cfg, []byte(soloService("web", "    unrelated: x\n", 80, 30080)), true)
		retarget(tg, in)
		requireEmptyPlan(t, in, tg, "annotation removed")
		if body := pipBody(t, tg, in); !strings.Contains(body, `"domainNameLabel":"shop-web"`) {
			t.Fatalf("DNS label lost: %s", body)
		}
	})
}

// TestDNSLabelOnUserAssignedPIP: azure-dns-label-name applies to a public IP
// named by azure-pip-name too, without the DNS tag (ccm-semantics §6 "DNS
// label"); azsvc updates that one field and nothing else of the user's IP.
func TestDNSLabelOnUserAssignedPIP(t *testing.T) {
	const byoID = "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg-prod-network/providers/Microsoft.Network/publicIPAddresses/byo-web-pip"
	manifest, err := os.ReadFile(filepath.Join(examples, "byo-pip-name", "service.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	withLabel := func(label string) []byte {
		return []byte(strings.Replace(string(manifest), "  annotations:\n",
			"  annotations:\n    service.beta.kubernetes.io/azure-dns-label-name: "+label+"\n", 1))
	}
	cfg := exampleConfig(t)
	in := inputsFrom(cfg, "service.yaml", withLabel("mysite"), true)
	tg := newExampleTarget(t, in, emulator.Options{InstantOperations: true})
	before, _ := getBody(t, tg.Emulator, byoID)

	p := mustPlan(t, in, tg)
	var pipChange *plan.Change
	for _, c := range p.Changes {
		if strings.EqualFold(c.ID().String(), byoID) {
			pipChange = c
		}
	}
	if pipChange == nil || len(pipChange.Actions) != 1 || pipChange.Actions[0] != plan.ActionUpdate ||
		len(pipChange.Attributes) != 1 || !strings.HasPrefix(strings.Join(pipChange.Attributes[0].Path, "."), "properties.dnsSettings") {
		t.Fatalf("want one update of the DNS label of the user's public IP, got %+v\nplan:\n%s", pipChange, planLines(p))
	}
	mustApply(t, p, tg)
	requireEmptyPlan(t, in, tg, "label set")
	after, _ := getBody(t, tg.Emulator, byoID)
	if userFields(t, after) != userFields(t, before) || !strings.Contains(after, `"dnsSettings":{"domainNameLabel":"mysite"}`) {
		t.Fatalf("want the user public IP unchanged but for its DNS label:\nbefore %s\nafter  %s", before, after)
	}

	empty := inputsFrom(cfg, "service.yaml", withLabel(`""`), true)
	retarget(tg, empty)
	mustApply(t, mustPlan(t, empty, tg), tg)
	requireEmptyPlan(t, empty, tg, "label removed")
	if got, _ := getBody(t, tg.Emulator, byoID); userFields(t, got) != userFields(t, before) || strings.Contains(got, "dnsSettings") {
		t.Fatalf("removing the label did not restore the user's public IP:\nbefore %s\nafter  %s", before, got)
	}

	// The read scope stays that of the Service's resource groups, so the
	// plan sees the user's public IP and could (wrongly) delete it.
	gone := inputsFrom(cfg, "service.yaml", nil, true)
	mustApply(t, mustPlan(t, gone, tg), tg)
	if _, ok := getBody(t, tg.Emulator, byoID); !ok {
		t.Fatal("removing the Service deleted the user-assigned public IP")
	}
}

// userFields is a public IP body without its DNS settings and the fields
// the emulator fills in on a write (the seed bypasses them).
func userFields(t *testing.T, body string) string {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(body), &m); err != nil {
		t.Fatal(err)
	}
	props, _ := m["properties"].(map[string]any)
	for _, k := range []string{"dnsSettings", "ddosSettings", "ipTags", "resourceGuid", "ipConfiguration", "provisioningState"} {
		delete(props, k)
	}
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}
