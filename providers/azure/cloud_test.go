package azure

import (
	"context"
	"strings"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/cloud"
)

func TestResolvePublicClouds(t *testing.T) {
	for name, want := range map[string]string{
		"": cloud.AzurePublic.ActiveDirectoryAuthorityHost, "AzurePublicCloud": cloud.AzurePublic.ActiveDirectoryAuthorityHost,
		"AzureChinaCloud":        cloud.AzureChina.ActiveDirectoryAuthorityHost,
		"AzureUSGovernmentCloud": cloud.AzureGovernment.ActiveDirectoryAuthorityHost,
	} {
		c, err := resolveCloud(context.Background(), AzureOptions{Cloud: name})
		if err != nil || c.ActiveDirectoryAuthorityHost != want {
			t.Errorf("cloud %q: authority %q, %v; want %q", name, c.ActiveDirectoryAuthorityHost, err, want)
		}
	}
	if _, err := resolveCloud(context.Background(), AzureOptions{Cloud: "AzureGermanCloud"}); err == nil {
		t.Error("an unknown cloud was accepted")
	}
}

// TestPickMetadata reads both answers /metadata/endpoints gives: Azure
// Stack Hub's single object and public ARM's list of clouds.
func TestPickMetadata(t *testing.T) {
	tests := []struct {
		name, body, endpoint string
		login, audience      string
		wantErr              string
	}{
		{"azure stack object", `{"galleryEndpoint":"","authentication":{"loginEndpoint":"https://login.stack/","audiences":["https://management.stack/abc"]}}`,
			"https://management.stack", "https://login.stack/", "https://management.stack/abc", ""},
		{"list, matching entry", `[{"name":"A","resourceManager":"https://a/","authentication":{"loginEndpoint":"https://login.a/","audiences":["https://a"]}},` +
			`{"name":"B","resourceManager":"https://b/","authentication":{"loginEndpoint":"https://login.b/","audiences":["https://b"]}}]`,
			"https://b", "https://login.b/", "https://b", ""},
		{"no login endpoint", `{"authentication":{"audiences":["x"]}}`, "https://x", "", "", "loginEndpoint"},
		{"no audience", `{"authentication":{"loginEndpoint":"https://l/"}}`, "https://x", "", "", "audiences"},
		{"empty list", `[]`, "https://x", "", "", "no cloud"},
		{"not JSON", `<html>`, "https://x", "", "", "not metadata JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			md, err := pickMetadata([]byte(tt.body), tt.endpoint)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || md.Authentication.LoginEndpoint != tt.login || md.Authentication.Audiences[0] != tt.audience {
				t.Errorf("got %+v, %v", md, err)
			}
		})
	}
}

func TestCheckEndpoint(t *testing.T) {
	for endpoint, ok := range map[string]bool{
		"https://management.azure.com": true, "http://127.0.0.1:8443": true, "http://localhost:1": true, "http://[::1]:9": true,
		"http://arm.example.com": false, "ftp://x": false, "127.0.0.1:8443": false, "": false,
	} {
		if err := checkEndpoint(endpoint); (err == nil) != ok {
			t.Errorf("checkEndpoint(%q) = %v, want ok=%v", endpoint, err, ok)
		}
	}
}
