package desired

import (
	"fmt"

	"github.com/azsvc/azsvc/plan/quote"
	"github.com/azsvc/azsvc/plan/service"
)

// Diagnostic codes for the reconcile errors that make CCM refuse a Service
// (its EnsureLoadBalancer fails and nothing is changed for it). The
// AZSVC3xxx range belongs to the desired-state builder.
const (
	CodeUnsupportedProtocol = "AZSVC3001" // §3 protocol
	CodeSCTP                = "AZSVC3002" // §3 SCTP guard
	CodeInvalidInteger      = "AZSVC3003" // §1.2 integer annotations, §1.3 #10
	CodeProbeConfig         = "AZSVC3004" // §4 interval, threshold, probe port
	CodeSourceRanges        = "AZSVC3005" // §5.2 both range groups set
	CodeLoadBalancerIP      = "AZSVC3006" // §1.3 #22/#23 external pinned IP
	CodePrivateLink         = "AZSVC3007" // §8 preconditions and NAT IPs
	CodeAdditionalIPs       = "AZSVC3008" // §1.3 #19
	CodeNoSubnet            = "AZSVC3009" // internal Service without a subnet
	CodeLBSelection         = "AZSVC3010" // §7.6 multi-SLB
	CodePortConflict        = "AZSVC3011" // §3 checkLoadBalancerResourcesConflicts
)

// refusal collects the errors of one Service.
type refusal struct {
	svc   *service.Service
	diags []service.Diagnostic
}

// maxMessage bounds a refusal's message: CCM's error texts quote values
// raw, and a value may be megabytes long.
const maxMessage = 1000

func (r *refusal) add(code, field, hint, format string, args ...any) {
	pos := r.svc.Source
	if field != "" {
		pos = r.svc.Pos(field)
	}
	r.diags = append(r.diags, service.Diagnostic{
		Code:     code,
		Severity: service.SeverityError,
		Service:  r.svc.Key(),
		Pos:      pos,
		Field:    field,
		Message:  quote.Cut(fmt.Sprintf(format, args...), maxMessage),
		Hint:     hint,
	})
}

// annField is the diagnostic field path of an annotation key.
func annField(key string) string { return service.AnnotationPath(key) }
