package emulator

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestParseFaults(t *testing.T) {
	tests := []struct {
		spec    string
		want    []Fault
		wantErr string
	}{
		{"", nil, ""},
		{"429:0.1,500:0.05,lro-fail:0.05,latency:50ms", []Fault{
			{Kind: FaultThrottle, Probability: 0.1}, {Kind: FaultInternalError, Probability: 0.05},
			{Kind: FaultFailOperation, Probability: 0.05}, {Kind: FaultLatency, Latency: 50 * time.Millisecond},
		}, ""},
		{" 503:1 , 409:0.5,LRO-FAIL:1", []Fault{
			{Kind: FaultUnavailable, Probability: 1}, {Kind: FaultConflict, Probability: 0.5}, {Kind: FaultFailOperation, Probability: 1},
		}, ""},
		{"429", nil, "want KIND:VALUE"},
		{"404:0.1", nil, `unknown kind "404"`},
		{"429:0", nil, "0 < p <= 1"},
		{"429:1.5", nil, "0 < p <= 1"},
		{"429:NaN", nil, "0 < p <= 1"},
		{"429:often", nil, "0 < p <= 1"},
		{"latency:fast", nil, "want a duration"},
		{"latency:-5ms", nil, "want a duration"},
		{"latency:2h", nil, "want a duration"},
		{"429:0.1,,500:0.1", nil, "empty item"},
	}
	for _, tt := range tests {
		t.Run(tt.spec, func(t *testing.T) {
			got, err := ParseFaults(tt.spec)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("faults (-want +got):\n%s", d)
			}
		})
	}
}

// FuzzParseFaults: any input either fails with an error or yields faults
// the emulator can use (a known kind, a probability in (0, 1], a positive
// latency): never a panic, never Probability 0, which would mean always.
func FuzzParseFaults(f *testing.F) {
	for _, s := range []string{"429:0.1,500:0.05,lro-fail:0.05,latency:50ms", "409:1", "latency:1s", "", ",", "429:", ":0.1", "429:1e-300"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		faults, err := ParseFaults(spec)
		if err != nil {
			return
		}
		for _, fl := range faults {
			switch {
			case fl.Kind < FaultThrottle || fl.Kind > FaultLatency:
				t.Fatalf("%q: kind %d", spec, fl.Kind)
			case fl.Kind == FaultLatency && (fl.Latency <= 0 || fl.Latency > time.Minute):
				t.Fatalf("%q: latency %v", spec, fl.Latency)
			case fl.Kind != FaultLatency && !(fl.Probability > 0 && fl.Probability <= 1):
				t.Fatalf("%q: probability %v", spec, fl.Probability)
			}
		}
	})
}
