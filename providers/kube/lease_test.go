package kube

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	coordinationv1 "k8s.io/api/coordination/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/fake"
)

var t0 = time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)

func lease(holder string, renewed time.Time, annotations map[string]string) *coordinationv1.Lease {
	secs := int32(900)
	rt := metav1.NewMicroTime(renewed)
	return &coordinationv1.Lease{
		ObjectMeta: metav1.ObjectMeta{Namespace: LeaseNamespace, Name: LeaseName, Annotations: annotations},
		Spec:       coordinationv1.LeaseSpec{HolderIdentity: &holder, LeaseDurationSeconds: &secs, RenewTime: &rt, AcquireTime: &rt},
	}
}

func newLease(t *testing.T, cs kubernetes.Interface, holder string, now time.Time) *Lease {
	t.Helper()
	c, err := NewForClientset(cs, "default", "ctx", Options{})
	if err != nil {
		t.Fatal(err)
	}
	l := c.Lease(holder)
	l.now = func() time.Time { return now }
	return l
}

func getLease(t *testing.T, cs kubernetes.Interface) *coordinationv1.Lease {
	t.Helper()
	got, err := cs.CoordinationV1().Leases(LeaseNamespace).Get(context.Background(), LeaseName, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func TestLeaseAcquire(t *testing.T) {
	tests := []struct {
		name       string
		existing   *coordinationv1.Lease
		wantHeldBy string // "" means acquired
		wantSelf   bool
	}{
		{name: "no lease yet: created"},
		{name: "released by CCM", existing: lease("", t0.Add(-time.Minute), nil)},
		{name: "expired", existing: lease("cloud-controller-manager", t0.Add(-901*time.Second), nil)},
		{name: "held by CCM", existing: lease("cloud-controller-manager", t0.Add(-time.Minute), nil), wantHeldBy: "cloud-controller-manager"},
		{name: "held by another azsvc of this user", existing: lease("azsvc-me@host", t0, nil), wantHeldBy: "azsvc-me@host", wantSelf: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cs := fake.NewClientset()
			if tt.existing != nil {
				cs = fake.NewClientset(tt.existing)
			}
			l := newLease(t, cs, "azsvc-me@host", t0)
			err := l.Acquire(context.Background())
			if tt.wantHeldBy != "" {
				var held *HeldError
				if !errors.As(err, &held) || held.Holder() != tt.wantHeldBy || held.Self != tt.wantSelf {
					t.Fatalf("err = %v, want held by %s (self %v)", err, tt.wantHeldBy, tt.wantSelf)
				}
				if !strings.Contains(err.Error(), tt.wantHeldBy) || !strings.Contains(err.Error(), "--no-lock") {
					t.Errorf("message %q names neither the holder nor --no-lock", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := getLease(t, cs)
			if holderOf(got) != "azsvc-me@host" || *got.Spec.LeaseDurationSeconds != 900 || !got.Spec.RenewTime.Time.Equal(t0) {
				t.Errorf("lease after acquire: %+v", got.Spec)
			}
		})
	}
}

func TestLeaseRenewRelease(t *testing.T) {
	cs := fake.NewClientset(lease("cloud-controller-manager", t0.Add(-time.Hour), map[string]string{
		previousHolderAnnotation: "cloud-controller-manager", "other": "kept"}))
	l := newLease(t, cs, "azsvc-me@host", t0)
	if err := l.Acquire(context.Background()); err != nil {
		t.Fatal(err)
	}
	if n := getLease(t, cs).Spec.LeaseTransitions; n == nil || *n != 1 {
		t.Errorf("leaseTransitions = %v, want 1", n)
	}
	l.now = func() time.Time { return t0.Add(time.Minute) }
	if err := l.Renew(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := getLease(t, cs).Spec.RenewTime.Time; !got.Equal(t0.Add(time.Minute)) {
		t.Errorf("renewTime = %s", got)
	}
	if err := l.Release(context.Background()); err != nil {
		t.Fatal(err)
	}
	got := getLease(t, cs)
	if holderOf(got) != "" || got.Annotations[previousHolderAnnotation] != "azsvc-me@host" || got.Annotations["other"] != "kept" {
		t.Errorf("lease after release: holder %q annotations %v", holderOf(got), got.Annotations)
	}
	// CCM can take it at once.
	ccm := newLease(t, cs, "cloud-controller-manager", t0.Add(2*time.Minute))
	if err := ccm.Acquire(context.Background()); err != nil {
		t.Errorf("CCM cannot take the released lease: %v", err)
	}
	if err := l.Renew(context.Background()); err == nil {
		t.Error("renewing a released lease succeeds")
	}
	if err := l.Release(context.Background()); err != nil {
		t.Errorf("releasing twice: %v", err)
	}
}

func TestHolder(t *testing.T) {
	h := Holder()
	if !strings.HasPrefix(h, "azsvc-") || !strings.Contains(h, "@") {
		t.Errorf("Holder() = %q, want azsvc-<user>@<host>", h)
	}
}
