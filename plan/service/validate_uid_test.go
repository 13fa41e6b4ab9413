package service

import (
	"strings"
	"testing"
)

// TestUIDNotUUIDMessage: a UID that is not a UUID stays an error, and the
// message says CCM would take it and which names it would build from it
// (issue 21 item 6; cloud.go:89 DefaultLoadBalancerName: "a" + the UID
// without dashes, cut to 32).
func TestUIDNotUUIDMessage(t *testing.T) {
	tests := []struct{ uid, prefix string }{
		{"svc-1", `"asvc1"`},
		{"not-a-uuid-but-a-rather-long-identifier-0042", `"anotauuidbutaratherlongidentifie"`},
	}
	for _, tt := range tests {
		manifest := "apiVersion: v1\nkind: Service\nmetadata:\n  name: t\n  namespace: rules\n  uid: " + tt.uid +
			"\nspec:\n  type: LoadBalancer\n  ports:\n  - {name: https, protocol: TCP, port: 443, nodePort: 31443}\n"
		in := Decode("uid.yaml", []byte(manifest))
		ds := Validate(in.Services)
		if len(ds) != 1 || ds[0].Code != CodeUID || ds[0].Severity != SeverityError {
			t.Fatalf("uid %s: want one %s error, got %v", tt.uid, CodeUID, ds)
		}
		for _, part := range []string{"CCM would accept it", "frontend, rules and probes", tt.prefix} {
			if !strings.Contains(ds[0].Message, part) {
				t.Errorf("uid %s: message %q does not say %s", tt.uid, ds[0].Message, part)
			}
		}
	}
}
