package engine

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/azsvc/azsvc/plan/cluster"
	"github.com/azsvc/azsvc/providers/azure"
)

var (
	fromFile = Origin{Rank: RankFile, Where: "azsvc.yaml (target)"}
	fromEnv  = Origin{Rank: RankEnv, Where: "env AZSVC_ARM_ENDPOINT"}
)

// TestChooseTarget is TargetRule, case by case.
func TestChooseTarget(t *testing.T) {
	tests := []struct {
		name    string
		s       Settings
		sub     bool
		want    TargetKind
		wantErr string
	}{
		{"no subscription: emulator", Settings{}, false, KindEmulator, ""},
		{"a subscription: Azure", Settings{}, true, KindAzure, ""},
		{"auto is the rule", Settings{Target: "auto"}, true, KindAzure, ""},
		{"--target emulator beats a subscription", Settings{Target: "emulator"}, true, KindEmulator, ""},
		{"--state beats a subscription", Settings{StatePath: "s.json"}, true, KindEmulator, ""},
		{"target: emulator in azsvc.yaml beats a subscription", Settings{Target: "emulator", Origins: map[string]Origin{"target": fromFile}}, true, KindEmulator, ""},
		{"--target azure", Settings{Target: "azure"}, true, KindAzure, ""},
		{"--target azure beats state from azsvc.yaml", Settings{Target: "azure", StatePath: "s.json", Origins: map[string]Origin{"state": fromFile}}, true, KindAzure, ""},
		{"--arm-endpoint beats target: emulator in azsvc.yaml", Settings{Target: "emulator", ARMEndpoint: "http://127.0.0.1:1", ARMToken: "t",
			Origins: map[string]Origin{"target": fromFile, "state": fromFile}, StatePath: "s.json"}, true, KindEndpoint, ""},
		{"AZSVC_ARM_ENDPOINT beats azsvc.yaml", Settings{Target: "emulator", ARMEndpoint: "http://127.0.0.1:1", ARMToken: "t",
			Origins: map[string]Origin{"target": fromFile, "arm-endpoint": fromEnv, "arm-token": fromEnv}}, false, KindEndpoint, ""},
		{"--target emulator beats AZSVC_ARM_ENDPOINT and its token", Settings{Target: "emulator", ARMEndpoint: "http://127.0.0.1:1", ARMToken: "t",
			Origins: map[string]Origin{"arm-endpoint": fromEnv, "arm-token": fromEnv}}, false, KindEmulator, ""},
		{"--target azure and --state conflict", Settings{Target: "azure", StatePath: "s.json"}, true, 0, "--target azure and --state s.json choose different targets"},
		{"--arm-endpoint and --target emulator conflict", Settings{Target: "emulator", ARMEndpoint: "http://127.0.0.1:1", ARMToken: "t"}, false, 0, "choose different targets"},
		{"conflict in one file names the file", Settings{Target: "azure", StatePath: "s.json",
			Origins: map[string]Origin{"target": fromFile, "state": {Rank: RankFile, Where: "azsvc.yaml (state)"}}}, true, 0, "--target azure (azsvc.yaml (target)) and --state s.json (azsvc.yaml (state))"},
		{"--target azure without a subscription", Settings{Target: "azure"}, false, 0, "--target azure needs a subscription"},
		{"--arm-endpoint without a token", Settings{ARMEndpoint: "http://127.0.0.1:1"}, false, 0, "needs --arm-token"},
		{"--arm-token without an endpoint", Settings{ARMToken: "t"}, true, 0, "only sent to an --arm-endpoint"},
		{"unknown --target", Settings{Target: "cloud"}, true, 0, `--target "cloud"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ChooseTarget(tt.s, tt.sub)
			if tt.wantErr != "" {
				var te *TargetError
				if err == nil || !errors.As(err, &te) || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want a TargetError with %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.Kind != tt.want {
				t.Errorf("kind %d (%s), want %d", got.Kind, got.Why, tt.want)
			}
		})
	}
}

// TestChooseTargetNeverEchoesToken: errors name --arm-token, not its value.
func TestChooseTargetNeverEchoesToken(t *testing.T) {
	_, err := ChooseTarget(Settings{ARMToken: "s3cret-token", Origins: map[string]Origin{"arm-token": {Rank: RankEnv, Where: "env AZSVC_ARM_TOKEN"}}}, false)
	if err == nil || strings.Contains(err.Error(), "s3cret-token") || !strings.Contains(err.Error(), "env AZSVC_ARM_TOKEN") {
		t.Errorf("err = %v", err)
	}
}

// TestCredentialsFromAzureJSON: every credential key reaches the provider.
func TestCredentialsFromAzureJSON(t *testing.T) {
	cfg, _, err := cluster.Parse([]byte(`{"resourceGroup":"rg","location":"l","securityGroupName":"n","tenantId":"t",
		"aadClientId":"c","aadClientSecret":"s","aadClientCertPath":"/c.pem","aadClientCertPassword":"p",
		"useManagedIdentityExtension":true,"userAssignedIdentityID":"u","aadFederatedTokenFile":"/f","useFederatedWorkloadIdentityExtension":true}`))
	if err != nil {
		t.Fatal(err)
	}
	want := azure.Credentials{TenantID: "t", ClientID: "c", ClientSecret: "s", ClientCertPath: "/c.pem", ClientCertPassword: "p",
		UseManagedIdentity: true, UserAssignedIdentityID: "u", FederatedTokenFile: "/f", UseWorkloadIdentity: true}
	if d := cmp.Diff(want, credentials(cfg.Auth)); d != "" {
		t.Errorf("credentials (-want +got):\n%s", d)
	}
}
