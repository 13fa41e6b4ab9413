package service

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/azsvc/azsvc/internal/cputime"
	"go.yaml.in/yaml/v3"
)

// generateServices writes n varied Services as one multi-document YAML
// stream: public and internal, PLS, probes, source ranges, dual-stack.
func generateServices(n int) []byte {
	var b bytes.Buffer
	for i := range n {
		fmt.Fprintf(&b, "---\napiVersion: v1\nkind: Service\nmetadata:\n  name: svc-%05d\n  namespace: team-%02d\n  uid: 00000000-0000-4000-8000-%012d\n  annotations:\n", i, i%40, i)
		switch i % 5 {
		case 0:
			fmt.Fprintf(&b, "    %s: \"true\"\n    %s: ilb-subnet\n", AnnInternal, AnnInternalSubnet)
		case 1:
			fmt.Fprintf(&b, "    %s: \"true\"\n    %s: \"true\"\n    %s: pls-subnet\n    %s: \"2\"\n", AnnInternal, AnnPLSCreate, AnnPLSIPConfigurationSubnet, AnnPLSIPConfigurationIPCount)
		case 2:
			fmt.Fprintf(&b, "    %s: Http\n    %s: /healthz\n    %s: \"10\"\n    %s: \"5\"\n", AnnProbeProtocol, AnnProbeRequestPath, AnnProbeInterval, PortKey(443, PortProbeInterval))
		case 3:
			fmt.Fprintf(&b, "    %s: shop-%d\n    %s: \"15\"\n    %s: owner=team-%d,env=prod\n", AnnDNSLabelName, i, AnnIdleTimeout, AnnPIPTags, i%40)
		default:
			fmt.Fprintf(&b, "    %s: 10.0.%d.0/24,192.0.2.0/24\n    %s: \"true\"\n", AnnAllowedIPRanges, i%250, AnnDenyAllExceptSourceRanges)
		}
		b.WriteString("spec:\n  type: LoadBalancer\n")
		if i%7 == 0 {
			b.WriteString("  ipFamilyPolicy: RequireDualStack\n  ipFamilies:\n  - IPv4\n  - IPv6\n")
		}
		fmt.Fprintf(&b, "  selector:\n    app: svc-%05d\n  ports:\n  - name: http\n    protocol: TCP\n    port: 80\n    targetPort: 8080\n    nodePort: %d\n  - name: https\n    protocol: TCP\n    port: 443\n    targetPort: 8443\n    nodePort: %d\n", i, 30000+i%2000, 32000+i%700)
	}
	return b.Bytes()
}

// BenchmarkValidate5000 measures decode + validate of 5,000 Services in one
// multi-document file. It also reports the process CPU time per operation
// (cpu-ns/op), which stays meaningful on a busy shared machine where
// wall-clock ns/op does not.
func BenchmarkValidate5000(b *testing.B) {
	data := generateServices(5000)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	defer cputime.Report(b)()
	for b.Loop() {
		in := Decode("bench.yaml", data)
		if len(in.Services) != 5000 {
			b.Fatalf("decoded %d Services, want 5000", len(in.Services))
		}
		if d := Validate(in.Services); len(d) != 0 {
			b.Fatalf("unexpected diagnostics: %v", d[0])
		}
	}
}

// BenchmarkValidateOnly5000 measures Validate alone.
func BenchmarkValidateOnly5000(b *testing.B) {
	in := Decode("bench.yaml", generateServices(5000))
	b.ReportAllocs()
	for b.Loop() {
		Validate(in.Services)
	}
}

// BenchmarkYAMLFloor5000 is the floor for BenchmarkValidate5000: parsing
// the same stream into yaml.v3 nodes, single-threaded, and nothing else.
func BenchmarkYAMLFloor5000(b *testing.B) {
	data := generateServices(5000)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	defer cputime.Report(b)()
	for b.Loop() {
		dec := yaml.NewDecoder(bytes.NewReader(data))
		for {
			var n yaml.Node
			if err := dec.Decode(&n); err != nil {
				break
			}
		}
	}
}
