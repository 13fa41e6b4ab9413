package apply

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/planfile"
	"github.com/azsvc/azsvc/plan/plantest"
)

// freshFixture plans one in-place update of a Service's public IP and one
// public IP creation, through the planner, so the preconditions are its
// own.
func freshFixture(t *testing.T) (*planfile.Plan, func() *plan.State) {
	t.Helper()
	scope := plan.Scope{Cluster: "kubernetes", Services: []plan.ServiceRef{{Name: "web/frontend", Prefix: "a1"}}}
	tags := map[string]string{plan.TagService: "web/frontend", plan.TagClusterName: "kubernetes"}
	pip := func(name string, idle int) *plan.Resource {
		return &plan.Resource{ID: plan.NewID("sub", "rg", plan.KindPublicIP, name), Location: "westeurope", Tags: tags,
			Properties: map[string]any{"publicIPAllocationMethod": "Static", "idleTimeoutInMinutes": idle}, Owned: true,
			Services: []string{"web/frontend"}}
	}
	desired := plan.NewState()
	desired.Put(pip("kubernetes-a1", 4))
	desired.Put(pip("kubernetes-a2", 4))
	observed := func() *plan.State {
		s := plan.NewState()
		r := pip("kubernetes-a1", 10)
		r.Etag, r.Properties["ipAddress"] = `W/"1"`, "20.1.2.3"
		s.Put(r)
		return s
	}
	p, res, err := plantest.Plan(desired, observed(), scope)
	if err != nil {
		t.Fatalf("plan: %v", err)
	}
	pre := planfile.Preconditions(p, res.Observed, res.Managed)
	if len(p.Steps) != 2 || len(pre) != 2 {
		t.Fatalf("fixture: %d steps, %d preconditions; want 2 and 2", len(p.Steps), len(pre))
	}
	return planfile.New(p, "test", nil, scope, pre), observed
}

func TestCheckFresh(t *testing.T) {
	a1 := plan.NewID("sub", "rg", plan.KindPublicIP, "kubernetes-a1").Key()
	a2 := plan.NewID("sub", "rg", plan.KindPublicIP, "kubernetes-a2")
	tests := []struct {
		name  string
		edit  func(*plan.State)
		stale []string // addresses, nil: fresh
	}{
		{"unchanged", func(*plan.State) {}, nil},
		{"etag moved, content same", func(s *plan.State) {
			r, _ := s.Get(a1)
			r.Etag = `W/"2"`
		}, nil},
		{"owned content changed", func(s *plan.State) {
			r, _ := s.Get(a1)
			r.Etag, r.Properties["idleTimeoutInMinutes"] = `W/"2"`, 30
		}, []string{"pip/kubernetes-a1"}},
		{"deleted", func(s *plan.State) { s.Delete(a1) }, []string{"pip/kubernetes-a1"}},
		{"created by someone else", func(s *plan.State) {
			s.Put(&plan.Resource{ID: a2, Etag: `W/"9"`, Properties: map[string]any{}})
		}, []string{"pip/kubernetes-a2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			saved, observed := freshFixture(t)
			cur := observed()
			tt.edit(cur)
			err := CheckFresh(saved, cur)
			if tt.stale == nil {
				if err != nil {
					t.Fatalf("CheckFresh: %v", err)
				}
				return
			}
			var stale *StaleError
			if !errors.As(err, &stale) || !errors.Is(err, ErrStale) {
				t.Fatalf("err = %v, want a StaleError", err)
			}
			var got []string
			for _, d := range stale.Changed {
				got = append(got, d.Address)
				if d.Detail == "" {
					t.Errorf("%s: no detail", d.Address)
				}
			}
			if !cmp.Equal(got, tt.stale) {
				t.Errorf("stale %v, want %v", got, tt.stale)
			}
		})
	}
}

func TestCheckFreshRefusesPlanWithoutPreconditions(t *testing.T) {
	saved, observed := freshFixture(t)
	saved.Preconditions = nil
	if err := CheckFresh(saved, observed()); !errors.Is(err, ErrStale) {
		t.Errorf("err = %v, want ErrStale", err)
	}
}

func TestStaleErrorMessage(t *testing.T) {
	err := &StaleError{Changed: []Drift{{"lb/kubernetes", `changed since the plan was made (etag W/"1", now W/"2")`}, {"pip/x", "deleted since the plan was made"}}}
	want := "the plan is stale: 2 resources changed since it was planned; run azsvc plan again\n" +
		"  lb/kubernetes: changed since the plan was made (etag W/\"1\", now W/\"2\")\n  pip/x: deleted since the plan was made"
	if err.Error() != want {
		t.Errorf("got:\n%s\nwant:\n%s", err, want)
	}
}
