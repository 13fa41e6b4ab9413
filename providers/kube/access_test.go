package kube

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	authorizationv1 "k8s.io/api/authorization/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
)

// reviewer answers SelfSubjectAccessReviews: allowed holds the namespaces
// ("" for cluster-wide) where update services/status is allowed; asked
// records the namespaces asked about.
func reviewer(cs *fake.Clientset, allowed []string, asked *[]string) {
	cs.PrependReactor("create", "selfsubjectaccessreviews", func(a k8stesting.Action) (bool, runtime.Object, error) {
		r := a.(k8stesting.CreateAction).GetObject().(*authorizationv1.SelfSubjectAccessReview)
		at := r.Spec.ResourceAttributes
		*asked = append(*asked, at.Namespace)
		ok := at.Verb == "update" && at.Resource == "services" && at.Subresource == "status" && slices.Contains(allowed, at.Namespace)
		r.Status.Allowed = ok
		return true, r, nil
	})
}

func TestCanUpdateStatus(t *testing.T) {
	tests := []struct {
		name      string
		allowed   []string
		wantErr   string // "" means allowed
		wantAsked []string
	}{
		{name: "cluster-wide", allowed: []string{""}, wantAsked: []string{""}},
		{name: "per namespace", allowed: []string{"prod", "shop"}, wantAsked: []string{"", "prod", "shop"}},
		{name: "one namespace missing", allowed: []string{"prod"}, wantAsked: []string{"", "prod", "shop"},
			wantErr: `RBAC: not allowed to update services/status (API group "") in namespace "shop" on ctx`},
		{name: "none", wantAsked: []string{"", "prod"},
			wantErr: `RBAC: not allowed to update services/status (API group "") in namespace "prod" on ctx`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cs := fake.NewClientset()
			var asked []string
			reviewer(cs, tt.allowed, &asked)
			c, err := NewForClientset(cs, "prod", "ctx", Options{})
			if err != nil {
				t.Fatal(err)
			}
			err = c.CanUpdateStatus(context.Background(), []string{"prod", "shop"})
			var ke *Error
			switch {
			case tt.wantErr == "" && err != nil:
				t.Fatalf("unexpected error: %v", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr) || !errors.As(err, &ke) || ke.Kind != Forbidden):
				t.Fatalf("error %v, want Forbidden containing %q", err, tt.wantErr)
			}
			if !slices.Equal(asked, tt.wantAsked) {
				t.Errorf("asked about %q, want %q", asked, tt.wantAsked)
			}
		})
	}
}

func TestLeasePeek(t *testing.T) {
	tests := []struct {
		name     string
		existing []runtime.Object
		want     string // holder named; "" for none
	}{
		{name: "no lease"},
		{name: "released", existing: []runtime.Object{lease("", t0.Add(-time.Minute), nil)}},
		{name: "expired", existing: []runtime.Object{lease("cloud-controller-manager", t0.Add(-901*time.Second), nil)}},
		{name: "held", existing: []runtime.Object{lease("cloud-controller-manager", t0.Add(-time.Minute), nil)}, want: "cloud-controller-manager"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cs := fake.NewClientset(tt.existing...)
			l := newLease(t, cs, "azsvc-me@host", t0)
			held, err := l.Peek(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case tt.want == "" && held != nil:
				t.Errorf("Peek: held by %q, want not held", held.By)
			case tt.want != "" && (held == nil || held.By != tt.want || !held.Until.Equal(t0.Add(14*time.Minute))):
				t.Errorf("Peek: %+v, want held by %q until %s", held, tt.want, t0.Add(14*time.Minute))
			}
			for _, a := range cs.Actions() {
				if a.GetVerb() != "get" {
					t.Errorf("Peek made a %s request", a.GetVerb())
				}
			}
		})
	}
}
