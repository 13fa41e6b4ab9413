package desired

import (
	"fmt"

	"github.com/azsvc/azsvc/plan/quote"
	"github.com/azsvc/azsvc/plan/service"
)

// Diagnostic codes for the reconcile errors that make CCM refuse a Service
// (its EnsureLoadBalancer fails and nothing is changed for it). They are
// registered with the other codes in plan/service (AZSVC4xxx).
const (
	CodeUnsupportedProtocol = service.CodeRefuseProtocol
	CodeSCTP                = service.CodeRefuseSCTP
	CodeInvalidInteger      = service.CodeRefuseInteger
	CodeProbeConfig         = service.CodeRefuseProbe
	CodeSourceRanges        = service.CodeRefuseSourceRanges
	CodeLoadBalancerIP      = service.CodeRefuseLoadBalancer
	CodePrivateLink         = service.CodeRefusePrivateLink
	CodeAdditionalIPs       = service.CodeRefuseAdditionalIPs
	CodeNoSubnet            = service.CodeRefuseNoSubnet
	CodeLBSelection         = service.CodeRefuseLBSelection
	CodePortConflict        = service.CodeRefusePortConflict
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
