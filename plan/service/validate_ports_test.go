package service

import "testing"

// TestPlanningGaps: values only the API server assigns, missing from the
// manifest, refuse planning (not validation) unless shared probe mode makes
// them unnecessary (ccm-semantics §3, §4).
func TestPlanningGaps(t *testing.T) {
	const head = "apiVersion: v1\nkind: Service\nmetadata:\n  name: t\n  namespace: gaps\n"
	tests := []struct {
		name        string
		doc         string
		sharedProbe bool
		want        []string // codes
	}{
		{"nodePort assigned by the API server", head + "spec:\n  type: LoadBalancer\n  ports:\n  - {port: 443}\n", false, []string{CodeNodePortUnknown}},
		{"shared probe mode needs no nodePort", head + "spec:\n  type: LoadBalancer\n  ports:\n  - {port: 443}\n", true, nil},
		{"UDP port has no probe", head + "spec:\n  type: LoadBalancer\n  ports:\n  - {port: 53, protocol: UDP}\n", false, nil},
		{"floating IP disabled needs it even in shared mode",
			head + "  annotations:\n    service.beta.kubernetes.io/azure-disable-load-balancer-floating-ip: \"true\"\nspec:\n  type: LoadBalancer\n  ports:\n  - {port: 443}\n",
			true, []string{CodeNodePortUnknown}},
		{"ETP Local without healthCheckNodePort", head + "spec:\n  type: LoadBalancer\n  externalTrafficPolicy: Local\n  ports:\n  - {port: 443, nodePort: 31443}\n", false, []string{CodeHealthCheckPort}},
		{"ETP Local with healthCheckNodePort", head + "spec:\n  type: LoadBalancer\n  externalTrafficPolicy: Local\n  healthCheckNodePort: 32000\n  ports:\n  - {port: 443}\n", false, nil},
		{"nodePort given", head + "spec:\n  type: LoadBalancer\n  ports:\n  - {port: 443, nodePort: 31443}\n", false, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := Decode("gaps.yaml", []byte(tt.doc))
			if len(in.Services) != 1 || len(in.Diagnostics) > 0 {
				t.Fatalf("decode: %d Services, %v", len(in.Services), in.Diagnostics)
			}
			var got []string
			for _, d := range in.Services[0].PlanningGaps(tt.sharedProbe) {
				got = append(got, d.Code)
				if d.Severity != SeverityError || d.Pos.Line == 0 {
					t.Errorf("diagnostic %+v: want an error with a position", d)
				}
			}
			if len(got) != len(tt.want) || (len(got) > 0 && got[0] != tt.want[0]) {
				t.Errorf("PlanningGaps = %v, want %v", got, tt.want)
			}
		})
	}
}
