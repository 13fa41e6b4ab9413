package plantest

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/preflight"
)

func TestLimits(t *testing.T) {
	tests := []struct {
		name     string
		existing int // managed-looking but unowned rules already in the NSG
		wantWarn string
		wantErr  string // the refusal, as refusals writes it
	}{
		{name: "well below", existing: 10},
		{name: "above 80%", existing: 850, wantWarn: "nsg_rules nsg/aks-agentpool-nsg 851/1000"},
		{name: "over", existing: 1000, wantErr: "limit_exceeded nsg/aks-agentpool-nsg nsg_rules 1001/1000"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			observed := plan.NewState()
			observed.Put(&plan.Resource{ID: nsgID()})
			for i := 0; i < tt.existing; i++ {
				observed.Put(nsgRule(fmt.Sprintf("team-%04d", i), float64(100+i%400), "Allow"))
			}
			desired := plan.NewState()
			desired.Put(&plan.Resource{ID: nsgID()})
			w := nsgRule("k8s-azure-lb_allow_IPv4_new", 0, "Allow")
			w.Services = []string{"web/a"}
			desired.Put(w)
			p, err := diffOf(desired, observed, plan.Scope{Cluster: tCluster})
			if tt.wantErr != "" {
				if !errors.Is(err, preflight.ErrRefused) || refusals(p) != tt.wantErr {
					t.Fatalf("err = %v, refused %q, want %q", err, refusals(p), tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, l := range p.Limits {
				got = append(got, fmt.Sprintf("%s %s %d/%d", l.Name, l.Scope, l.Used, l.Max))
			}
			if strings.Join(got, ";") != tt.wantWarn {
				t.Errorf("limits = %v, want %q", got, tt.wantWarn)
			}
		})
	}
}

func TestPLSLimits(t *testing.T) {
	var svcs []svc
	for i := 0; i < 9; i++ {
		svcs = append(svcs, svc{name: fmt.Sprintf("web/p%d", i), uid: uid(100 + i), ports: []int{80}, internal: true, pls: true})
	}
	p, err := diffOf(world(svcs...), plan.NewState(), scopeOf(false, svcs...))
	if want := "limit_exceeded lb/kubernetes-internal pls_per_lb 9/8"; !errors.Is(err, preflight.ErrRefused) || refusals(p) != want {
		t.Fatalf("err = %v, refused %q, want %q", err, refusals(p), want)
	}
	desired := world(svcs[0])
	pls, _ := desired.Get(plan.NewID(tSub, tRG, plan.KindPrivateLinkService, "pls-"+svcs[0].prefix()).Key())
	var ips []any
	for i := 0; i < 9; i++ {
		ips = append(ips, map[string]any{"name": fmt.Sprint(i)})
	}
	pls.Properties["ipConfigurations"] = ips
	p, err = diffOf(desired, plan.NewState(), scopeOf(false, svcs[0]))
	if want := "limit_exceeded pls/pls-" + svcs[0].prefix() + " pls_nat_ips 9/8"; !errors.Is(err, preflight.ErrRefused) || refusals(p) != want {
		t.Fatalf("err = %v, refused %q, want %q", err, refusals(p), want)
	}
}

// refusals lists a plan's refusals as "code address [limit used/max]".
func refusals(p *plan.Plan) string {
	if p == nil {
		return ""
	}
	var out []string
	for _, r := range p.Refused {
		s := r.Code.String() + " " + r.Address
		if r.Limit != nil {
			s += fmt.Sprintf(" %s %d/%d", r.Limit.Name, r.Limit.Used, r.Limit.Max)
		}
		out = append(out, s)
	}
	return strings.Join(out, "; ")
}
