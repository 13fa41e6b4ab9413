package cluster

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const base = `"resourceGroup":"rg","location":"l","securityGroupName":"n"`

// TestParseAuth reads CCM's credential and cloud keys into Auth, with the
// cloud aliases CCM accepts (pkg/azclient cloud.go).
func TestParseAuth(t *testing.T) {
	tests := []struct {
		name, keys string
		want       Auth
		cloud      string
	}{
		{"no keys: public cloud", ``, Auth{}, CloudPublic},
		{"managed identity", `"cloud":"AzureCloud","useManagedIdentityExtension":true,"userAssignedIdentityID":"id-1"`,
			Auth{Cloud: "AzureCloud", UseManagedIdentity: true, UserAssignedIdentityID: "id-1"}, CloudPublic},
		{"client secret", `"cloud":"AZURECHINACLOUD","tenantId":"t","aadClientId":"c","aadClientSecret":"s3cret"`,
			Auth{Cloud: "AZURECHINACLOUD", TenantID: "t", ClientID: "c", ClientSecret: "s3cret"}, CloudChina},
		{"workload identity", `"cloud":"AzureUSGovernment","aadFederatedTokenFile":"/var/run/token","useFederatedWorkloadIdentityExtension":true`,
			Auth{Cloud: "AzureUSGovernment", FederatedTokenFile: "/var/run/token", UseWorkloadIdentity: true}, CloudUSGovernment},
		{"azure stack", `"cloud":"AzureStackCloud","resourceManagerEndpoint":"https://management.local.azurestack.external/"`,
			Auth{Cloud: "AzureStackCloud", ResourceManagerEndpoint: "https://management.local.azurestack.external/"}, "AzureStackCloud"},
		{"loopback endpoint over http", `"resourceManagerEndpoint":"http://127.0.0.1:8443"`,
			Auth{ResourceManagerEndpoint: "http://127.0.0.1:8443"}, "custom cloud"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, notes, err := Parse([]byte(`{` + base + sep(tt.keys) + tt.keys + `}`))
			if err != nil {
				t.Fatal(err)
			}
			if len(notes) != 0 {
				t.Errorf("notes %v: the auth keys are known", notes)
			}
			if d := cmp.Diff(tt.want, cfg.Auth); d != "" {
				t.Errorf("auth (-want +got):\n%s", d)
			}
			if got := cfg.CloudName(); got != tt.cloud {
				t.Errorf("CloudName() = %q, want %q", got, tt.cloud)
			}
		})
	}
}

func sep(keys string) string {
	if keys == "" {
		return ""
	}
	return ","
}

func TestParseAuthErrors(t *testing.T) {
	tests := []struct{ name, keys, wantErr string }{
		{"unknown cloud", `"cloud":"AzureGermanCloud"`, `"cloud": invalid value "AzureGermanCloud"`},
		{"endpoint not a URL", `"resourceManagerEndpoint":"management.local"`, `"resourceManagerEndpoint": "management.local" is not an http(s) URL`},
		{"plain http off loopback", `"resourceManagerEndpoint":"http://arm.example.com"`, `must use https`},
		{"wrong type", `"useManagedIdentityExtension":"yes"`, `key "useManagedIdentityExtension"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := Parse([]byte(`{` + base + `,` + tt.keys + `}`))
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("err = %v, want it to contain %q", err, tt.wantErr)
			}
		})
	}
}

// TestSecretsNeverPrint: a Config printed or encoded in any usual way
// shows no secret, so no plan, log line or error can leak one.
func TestSecretsNeverPrint(t *testing.T) {
	cfg, _, err := Parse([]byte(`{` + base + `,"aadClientSecret":"s3cret-1","aadClientCertPassword":"s3cret-2"}`))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.ClientSecret.Reveal() != "s3cret-1" || cfg.ClientCertPassword.Reveal() != "s3cret-2" {
		t.Fatalf("secrets not read: %q %q", cfg.ClientSecret.Reveal(), cfg.ClientCertPassword.Reveal())
	}
	js, err := json.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, out := range []string{
		fmt.Sprint(cfg), fmt.Sprintf("%v %+v %#v %s %q", *cfg, *cfg, *cfg, cfg.ClientSecret, cfg.ClientSecret), string(js),
	} {
		if strings.Contains(out, "s3cret") {
			t.Errorf("a secret leaked: %s", out)
		}
	}
	if !strings.Contains(string(js), `"aadClientSecret":"[redacted]"`) {
		t.Errorf("JSON does not show the secret as redacted: %s", js)
	}
}

func TestFederatedTokenFileWithoutFlagNoted(t *testing.T) {
	_, notes, err := Parse([]byte(`{` + base + `,"aadFederatedTokenFile":"/var/run/token"}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(notes) != 1 || !strings.Contains(notes[0], `"aadFederatedTokenFile" is ignored without "useFederatedWorkloadIdentityExtension"`) {
		t.Errorf("notes = %q", notes)
	}
}

func TestIsLoopbackHost(t *testing.T) {
	for host, want := range map[string]bool{
		"localhost": true, "LOCALHOST": true, "127.0.0.1": true, "127.8.9.1": true, "::1": true, "[::1]": true,
		"evil.example": false, "10.0.0.1": false, "0.0.0.0": false, "localhost.evil.example": false, "": false,
	} {
		if got := IsLoopbackHost(host); got != want {
			t.Errorf("IsLoopbackHost(%q) = %v, want %v", host, got, want)
		}
	}
}

func TestCheckEndpoint(t *testing.T) {
	for _, tt := range []struct {
		raw, wantErr string
	}{
		{"https://management.example.com", ""},
		{"http://127.0.0.1:8443", ""},
		{"http://[::1]:8443/", ""},
		{"http://10.0.0.1:8443", "must use https"},
		{"https://user:s3cretpw@arm.example.com", "user info"},
		{"https://arm.example.com/?api=1", "query or fragment"},
		{"https://arm.example.com/#frag", "query or fragment"},
		{"ftp://arm.example.com", "not an http(s) URL"},
		{"https://user:s3cretpw@%zz", "not an http(s) URL"},
	} {
		err := CheckEndpoint(tt.raw)
		switch {
		case tt.wantErr == "" && err != nil:
			t.Errorf("%s: %v", tt.raw, err)
		case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
			t.Errorf("%s: %v, want %q", tt.raw, err, tt.wantErr)
		case err != nil && strings.Contains(err.Error(), "s3cretpw"):
			t.Errorf("%s: the error shows the password: %v", tt.raw, err)
		}
	}
}
