package graph

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/azsvc/azsvc/plan"
)

// writesOf renders a schedule as "label+label | label" per write.
func writesOf(g *Graph, writes [][]int) string {
	var out []string
	for _, w := range writes {
		var names []string
		for _, i := range w {
			names = append(names, string(g.nodes[i].Key))
		}
		out = append(out, strings.Join(names, "+"))
	}
	return strings.Join(out, " | ")
}

func TestScheduleSmallGraphs(t *testing.T) {
	type edge struct {
		a, b   string
		strict bool
	}
	tests := []struct {
		name  string
		nodes []Node
		edges []edge
		want  string
	}{
		{
			name:  "independent writes by class, rank, key",
			nodes: []Node{{Key: "c", Rank: 1}, {Key: "b", Rank: 2}, {Key: "a", Rank: 2, Delete: true}},
			want:  "c | b | a",
		},
		{
			name: "a group waits for all its operations, then is one write",
			nodes: []Node{{Key: "pip", Rank: 10},
				{Key: "lb/fe", Rank: 21, Group: "lb", GroupRank: 20},
				{Key: "lb/rule", Rank: 24, Group: "lb", GroupRank: 20}},
			edges: []edge{{"pip", "lb/fe", false}, {"lb/fe", "lb/rule", false}},
			want:  "pip | lb/fe+lb/rule",
		},
		{
			name: "a group in a cycle with an outside write is written in parts",
			nodes: []Node{{Key: "pip", Rank: 10, Delete: true},
				{Key: "pip2", Rank: 10},
				{Key: "lb/fe", Rank: 21, Group: "lb", GroupRank: 20, Delete: true},
				{Key: "lb/fe2", Rank: 21, Group: "lb", GroupRank: 20}},
			edges: []edge{{"lb/fe", "pip", false}, {"pip", "pip2", true}, {"pip2", "lb/fe2", false}},
			want:  "lb/fe | pip | pip2 | lb/fe2",
		},
		{
			name: "weak edges order the operations inside one write",
			nodes: []Node{{Key: "lb/probe", Rank: 23, Group: "lb", Delete: true},
				{Key: "lb/rule", Rank: 24, Group: "lb", Delete: true}},
			edges: []edge{{"lb/rule", "lb/probe", false}},
			want:  "lb/rule+lb/probe",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for run := 0; run < 5; run++ { // deterministic whatever map order
				g := New()
				idx := map[plan.Key]int{}
				for _, n := range tt.nodes {
					idx[n.Key] = g.Add(n)
				}
				for _, e := range tt.edges {
					g.Connect(idx[plan.Key(e.a)], idx[plan.Key(e.b)], e.strict)
				}
				writes, err := g.Schedule()
				if err != nil {
					t.Fatal(err)
				}
				if got := writesOf(g, writes); got != tt.want {
					t.Fatalf("got  %s\nwant %s", got, tt.want)
				}
			}
		})
	}
}

func TestScheduleNamesCycle(t *testing.T) {
	g := New()
	labels := []string{"create pe/pe-a", "create pls/pls-b"}
	g.Name = func(i int) string { return labels[i] }
	a := g.Add(Node{Key: "a"})
	b := g.Add(Node{Key: "b"})
	g.Connect(a, b, false)
	g.Connect(b, a, false)
	_, err := g.Schedule()
	if err == nil || !strings.Contains(err.Error(), "dependency cycle") ||
		!strings.Contains(err.Error(), "create pe/pe-a") || !strings.Contains(err.Error(), "create pls/pls-b") {
		t.Fatalf("err = %v, want a cycle naming both", err)
	}
}

// TestScheduleWeakCycleInOneGroup is two operations of one write that
// must each come before the other: no order of the write holds, so
// Schedule must name the cycle instead of retrying the write forever.
func TestScheduleWeakCycleInOneGroup(t *testing.T) {
	tests := []struct {
		name  string
		nodes []Node
		edges [][2]string
	}{
		{"two nodes", []Node{{Key: "lb/a", Group: "lb"}, {Key: "lb/b", Group: "lb"}}, [][2]string{{"lb/a", "lb/b"}, {"lb/b", "lb/a"}}},
		{"a cycle beside an orderable node", []Node{{Key: "lb/a", Group: "lb"}, {Key: "lb/b", Group: "lb"}, {Key: "lb/c", Group: "lb"}},
			[][2]string{{"lb/c", "lb/a"}, {"lb/a", "lb/b"}, {"lb/b", "lb/a"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := New()
			idx := map[string]int{}
			for _, n := range tt.nodes {
				idx[string(n.Key)] = g.Add(n)
			}
			for _, e := range tt.edges {
				g.Connect(idx[e[0]], idx[e[1]], false)
			}
			done := make(chan error, 1)
			go func() {
				_, err := g.Schedule()
				done <- err
			}()
			select {
			case err := <-done:
				if err == nil || !strings.Contains(err.Error(), "dependency cycle") ||
					!strings.Contains(err.Error(), "lb/a") || !strings.Contains(err.Error(), "lb/b") {
					t.Fatalf("err = %v, want a cycle naming lb/a and lb/b", err)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("Schedule did not return: it loops on the weak cycle")
			}
		})
	}
}

// fakeInput is a hand-made Input: changes and an empty observed world.
type fakeInput struct {
	changes  []*plan.Change
	observed map[plan.Key]*plan.Resource
}

func (f fakeInput) Changes() []*plan.Change            { return f.changes }
func (f fakeInput) Blocked() []plan.Blocked            { return nil }
func (f fakeInput) Awaiting() []plan.Awaiting          { return nil }
func (f fakeInput) NoOp() int                          { return 0 }
func (f fakeInput) Referrers(plan.Key) []plan.Key      { return nil }
func (f fakeInput) Children(plan.Key) []*plan.Resource { return nil }
func (f fakeInput) Observed(k plan.Key) (*plan.Resource, bool) {
	r, ok := f.observed[k]
	return r, ok
}
func (f fakeInput) Desired(plan.Key) (*plan.Resource, bool)   { return nil, false }
func (f fakeInput) DesiredChildren(plan.Key) []*plan.Resource { return nil }

// TestScheduleCreatesOneWritePerParent builds the steps of a new load
// balancer, its children and the public IP its frontend references: the
// IP first, then one PUT of the LB carrying every child, referenced first.
func TestScheduleCreatesOneWritePerParent(t *testing.T) {
	lb := plan.NewID("s", "rg", plan.KindLoadBalancer, "kubernetes")
	pip := plan.NewID("s", "rg", plan.KindPublicIP, "kubernetes-a1")
	fe := plan.ChildID(lb, plan.KindFrontend, "a1")
	probe := plan.ChildID(lb, plan.KindProbe, "a1-TCP-80")
	rule := plan.ChildID(lb, plan.KindRule, "a1-TCP-80")
	create := func(id plan.ID, props map[string]any) *plan.Change {
		return &plan.Change{Actions: []plan.Action{plan.ActionCreate}, After: &plan.Resource{ID: id, Properties: props}}
	}
	in := fakeInput{changes: []*plan.Change{
		create(rule, map[string]any{"frontendIPConfiguration": plan.Ref(fe), "probe": plan.Ref(probe)}),
		create(lb, nil), create(fe, map[string]any{"publicIPAddress": plan.Ref(pip)}), create(pip, nil), create(probe, nil),
	}}
	p, err := Schedule(in)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, st := range p.Steps {
		var kids []string
		for _, c := range st.Changes {
			kids = append(kids, c.ID().Address())
		}
		got = append(got, fmt.Sprintf("%s %s [%s]", st.Op, st.Target.Address(), strings.Join(kids, " ")))
	}
	want := []string{
		"put pip/kubernetes-a1 [pip/kubernetes-a1]",
		"put lb/kubernetes [lb/kubernetes lb/kubernetes/frontend/a1 lb/kubernetes/probe/a1-TCP-80 lb/kubernetes/rule/a1-TCP-80]",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("steps:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if deps := p.Changes[len(p.Changes)-1].DependsOn; len(deps) != 3 {
		t.Errorf("rule depends on %v, want its load balancer, frontend and probe", deps)
	}
}
