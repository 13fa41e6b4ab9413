package scalegen

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestManifests(t *testing.T) {
	base := string(Manifests(1000, 0))
	changed := string(Manifests(1000, 100))
	docs, changedDocs := strings.Split(base, "---\n"), strings.Split(changed, "---\n")
	if len(docs) != 1000 || len(changedDocs) != 1000 {
		t.Fatalf("%d and %d documents, want 1000", len(docs), len(changedDocs))
	}
	differ := 0
	for i := range docs {
		if docs[i] != changedDocs[i] {
			differ++
		}
	}
	if differ != 10 {
		t.Errorf("changed-every 100 changed %d of 1,000 Services, want 10 (1%%)", differ)
	}
	if n := strings.Count(base, "azure-load-balancer-internal"); n != 750 {
		t.Errorf("%d internal Services of 1,000, want 750", n)
	}
}

func TestReviewed(t *testing.T) {
	base, reviewed := strings.Split(string(Manifests(500, 0)), "---\n"), strings.Split(string(Reviewed(500)), "---\n")
	if len(reviewed) != 500 {
		t.Fatalf("%d documents, want 500", len(reviewed))
	}
	ports, annotated := 0, 0
	for i := range base {
		switch {
		case base[i] == reviewed[i]:
		case strings.Contains(reviewed[i], "tcp-idle-timeout"):
			annotated++
		case strings.Contains(reviewed[i], "port: 90"):
			ports++
		default:
			t.Errorf("Service %d changed otherwise:\n%s", i, reviewed[i])
		}
	}
	if ports != 10 || annotated != 5 {
		t.Errorf("%d port changes and %d annotation edits of 500, want 10 and 5", ports, annotated)
	}
}

func TestAzureJSON(t *testing.T) {
	out, err := AzureJSON([]byte(`{"resourceGroup":"rg","loadBalancerSku":"standard"}`))
	if err != nil {
		t.Fatal(err)
	}
	var cfg struct {
		ResourceGroup string `json:"resourceGroup"`
		Pools         string `json:"loadBalancerBackendPoolConfigurationType"`
		LBs           []struct{ Name string }
	}
	raw := strings.Replace(string(out), "multipleStandardLoadBalancerConfigurations", "LBs", 1)
	if err := json.Unmarshal([]byte(raw), &cfg); err != nil {
		t.Fatal(err)
	}
	if cfg.ResourceGroup != "rg" || cfg.Pools != "nodeIP" || len(cfg.LBs) != LBs || cfg.LBs[0].Name != ClusterName {
		t.Errorf("AzureJSON = %s", out)
	}
	if _, err := AzureJSON([]byte("{")); err == nil {
		t.Error("a broken azure.json was accepted")
	}
}
