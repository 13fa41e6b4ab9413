package cluster

import (
	"strings"
	"testing"
)

func TestRedacted(t *testing.T) {
	in := `{"tenantId": "t", "aadClientId": "c", "AADClientSecret": "s3cret", "aadClientCertPassword": "pw",
	  "resourceGroup": "rg", "location": "eastus"}`
	out, err := Redacted([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(out), "s3cret") || strings.Contains(string(out), `"pw"`) {
		t.Fatalf("secret kept:\n%s", out)
	}
	for _, keep := range []string{`"aadClientId": "c"`, `"resourceGroup": "rg"`, `"tenantId": "t"`} {
		if !strings.Contains(string(out), keep) {
			t.Errorf("lost %s:\n%s", keep, out)
		}
	}
	again, err := Redacted(out)
	if err != nil || string(again) != string(out) {
		t.Errorf("redacting twice changes the text: %v\n%s\n%s", err, out, again)
	}
}
