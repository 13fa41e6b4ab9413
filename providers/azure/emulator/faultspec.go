package emulator

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// faultKinds are the fault names `azsvc emulator serve --faults` accepts.
var faultKinds = map[string]FaultKind{
	"429":      FaultThrottle,
	"500":      FaultInternalError,
	"503":      FaultUnavailable,
	"409":      FaultConflict,
	"lro-fail": FaultFailOperation,
	"latency":  FaultLatency,
}

// FaultSpecHelp describes ParseFaults' syntax, for the command's help.
const FaultSpecHelp = `comma-separated KIND:VALUE faults, each matched against every request:
429, 500, 503 and 409 (AnotherOperationInProgress) answer that error, and
lro-fail ends a write's long-running operation Failed, each with the given
probability (0 < p <= 1); latency:DURATION delays every request. Example:
429:0.1,500:0.05,lro-fail:0.05,latency:50ms`

// ParseFaults reads a fault specification such as
// "429:0.1,500:0.05,lro-fail:0.05,latency:50ms" (FaultSpecHelp). An empty
// spec is no faults.
func ParseFaults(spec string) ([]Fault, error) {
	var out []Fault
	if strings.TrimSpace(spec) == "" {
		return nil, nil
	}
	for _, item := range strings.Split(spec, ",") {
		item = strings.TrimSpace(item)
		name, value, ok := strings.Cut(item, ":")
		kind, known := faultKinds[strings.ToLower(strings.TrimSpace(name))]
		switch {
		case item == "":
			return nil, fmt.Errorf("faults %q: empty item", spec)
		case !ok:
			return nil, fmt.Errorf("faults: %q: want KIND:VALUE, e.g. 429:0.1 or latency:50ms", item)
		case !known:
			return nil, fmt.Errorf("faults: %q: unknown kind %q (want 429, 500, 503, 409, lro-fail or latency)", item, name)
		}
		f, err := parseFault(kind, strings.TrimSpace(value))
		if err != nil {
			return nil, fmt.Errorf("faults: %q: %w", item, err)
		}
		out = append(out, f)
	}
	return out, nil
}

func parseFault(kind FaultKind, value string) (Fault, error) {
	if kind == FaultLatency {
		d, err := time.ParseDuration(value)
		if err != nil || d <= 0 || d > time.Minute {
			return Fault{}, fmt.Errorf("latency %q: want a duration between 0 and 1m, e.g. 50ms", value)
		}
		return Fault{Kind: kind, Latency: d}, nil
	}
	p, err := strconv.ParseFloat(value, 64)
	// A zero Probability means "always" in Fault, so 0 cannot be passed on;
	// NaN fails both comparisons.
	if err != nil || !(p > 0 && p <= 1) {
		return Fault{}, fmt.Errorf("probability %q: want a number with 0 < p <= 1, e.g. 0.1", value)
	}
	return Fault{Kind: kind, Probability: p}, nil
}
