package kube

import (
	"context"
	"fmt"
	"os"
	"os/user"
	"strconv"
	"strings"
	"sync"
	"time"

	coordinationv1 "k8s.io/api/coordination/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// CCM's lock (ccm-semantics §7.1, cloud-provider-azure azure_lock.go): the
// Lease it takes before every ensure and delete. A holder other than CCM
// makes CCM drop its load balancer and VM caches when it next acquires the
// lease, which is what azsvc wants after changing load balancers.
const (
	LeaseNamespace = "kube-system"
	LeaseName      = "aks-managed-resource-locker"
	LeaseDuration  = 900 * time.Second
	// previousHolderAnnotation is set on release; CCM compares it with its
	// own holder name to decide whether its caches are stale.
	previousHolderAnnotation = "aks-managed-resource-locker-previous-holder"
)

// Holder is azsvc's holder identity: "azsvc-<user>@<host>". A user
// without a passwd entry (common in containers) is $USER, else its uid.
func Holder() string {
	name := os.Getenv("USER")
	if u, err := user.Current(); err == nil && u.Username != "" {
		name = u.Username
	}
	if name == "" {
		name = "uid" + strconv.Itoa(os.Getuid())
	}
	host, err := os.Hostname()
	if err != nil || host == "" {
		host = "unknown"
	}
	return "azsvc-" + name + "@" + host
}

// Lease is CCM's lock taken by azsvc. It satisfies apply.Lock.
type Lease struct {
	c      *Client
	holder string
	now    func() time.Time

	mu   sync.Mutex
	held *coordinationv1.Lease // as last written by us; nil when not held
}

// Lease returns the lock for holder (see Holder).
func (c *Client) Lease(holder string) *Lease {
	return &Lease{c: c, holder: holder, now: time.Now}
}

// Name is "kube-system/aks-managed-resource-locker".
func (l *Lease) Name() string { return LeaseNamespace + "/" + LeaseName }

// HeldError is a lease someone else holds and that has not expired.
type HeldError struct {
	Lease string
	By    string
	Until time.Time
	Self  bool // the holder has azsvc's own identity: another azsvc of this user on this host
}

func (e *HeldError) Error() string {
	msg := fmt.Sprintf("the lease %s is held by %q until %s (%s from now): "+
		"the cloud controller manager or another apply is changing Azure; try again later, or pass --no-lock to apply anyway",
		e.Lease, e.By, e.Until.UTC().Format(time.RFC3339), time.Until(e.Until).Round(time.Second))
	if e.Self {
		msg += " (that is this user on this host: another azsvc apply is running, or one was killed before it released the lease)"
	}
	return msg
}

// Holder is who holds the lease.
func (e *HeldError) Holder() string { return e.By }

// Expires is when the lease expires unless renewed.
func (e *HeldError) Expires() time.Time { return e.Until }

// Acquire takes the lease, creating it when it does not exist. A lease held
// by anyone, azsvc's own identity included, and not expired is a
// *HeldError: unlike CCM, which takes its own name back to recover from a
// failed release, two azsvc runs of one user on one host must not both
// write.
func (l *Lease) Acquire(ctx context.Context) error {
	leases := l.c.cs.CoordinationV1().Leases(LeaseNamespace)
	for attempt := 0; ; attempt++ {
		cur, err := leases.Get(ctx, LeaseName, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			created, err := leases.Create(ctx, l.take(&coordinationv1.Lease{
				ObjectMeta: metav1.ObjectMeta{Name: LeaseName, Namespace: LeaseNamespace},
			}), metav1.CreateOptions{})
			if apierrors.IsAlreadyExists(err) && attempt == 0 {
				continue // created by someone else meanwhile: look again
			}
			if err != nil {
				return l.c.explain(err, "create", "leases", "coordination.k8s.io", LeaseNamespace)
			}
			l.setHeld(created)
			return nil
		}
		if err != nil {
			return l.c.explain(err, "get", "leases", "coordination.k8s.io", LeaseNamespace)
		}
		if until, held := l.heldUntil(cur); held {
			return &HeldError{Lease: l.Name(), By: holderOf(cur), Until: until, Self: strings.EqualFold(holderOf(cur), l.holder)}
		}
		updated, err := leases.Update(ctx, l.take(cur.DeepCopy()), metav1.UpdateOptions{})
		if apierrors.IsConflict(err) && attempt == 0 {
			continue // changed since read: someone may have taken it
		}
		if err != nil {
			return l.c.explain(err, "update", "leases", "coordination.k8s.io", LeaseNamespace)
		}
		l.setHeld(updated)
		return nil
	}
}

// Peek reads the lease without taking it: the *HeldError Acquire would
// return when someone holds it and it has not expired, else nil. apply
// --no-lock warns with it.
func (l *Lease) Peek(ctx context.Context) (*HeldError, error) {
	cur, err := l.c.cs.CoordinationV1().Leases(LeaseNamespace).Get(ctx, LeaseName, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, l.c.explain(err, "get", "leases", "coordination.k8s.io", LeaseNamespace)
	}
	if until, held := l.heldUntil(cur); held {
		return &HeldError{Lease: l.Name(), By: holderOf(cur), Until: until, Self: strings.EqualFold(holderOf(cur), l.holder)}, nil
	}
	return nil, nil
}

// take makes lease ours: holder, duration, acquire and renew times.
func (l *Lease) take(lease *coordinationv1.Lease) *coordinationv1.Lease {
	now := metav1.NewMicroTime(l.now())
	secs := int32(LeaseDuration / time.Second)
	if holderOf(lease) != l.holder && lease.Spec.AcquireTime != nil {
		n := int32(1)
		if lease.Spec.LeaseTransitions != nil {
			n = *lease.Spec.LeaseTransitions + 1
		}
		lease.Spec.LeaseTransitions = &n
	}
	holder := l.holder
	lease.Spec.HolderIdentity = &holder
	lease.Spec.LeaseDurationSeconds = &secs
	lease.Spec.AcquireTime = &now
	lease.Spec.RenewTime = &now
	return lease
}

// heldUntil is CCM's hasExpired turned around: a lease with a holder is
// held until renewTime + leaseDurationSeconds.
func (l *Lease) heldUntil(lease *coordinationv1.Lease) (time.Time, bool) {
	if holderOf(lease) == "" || lease.Spec.RenewTime == nil {
		return time.Time{}, false
	}
	var secs int32
	if lease.Spec.LeaseDurationSeconds != nil {
		secs = *lease.Spec.LeaseDurationSeconds
	}
	until := lease.Spec.RenewTime.Add(time.Duration(secs) * time.Second)
	return until, l.now().Before(until)
}

func holderOf(lease *coordinationv1.Lease) string {
	if lease.Spec.HolderIdentity == nil {
		return ""
	}
	return *lease.Spec.HolderIdentity
}

func (l *Lease) setHeld(lease *coordinationv1.Lease) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.held = lease
}

func (l *Lease) current() *coordinationv1.Lease {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.held == nil {
		return nil
	}
	return l.held.DeepCopy()
}

// Renew moves renewTime to now. It fails when the lease is no longer ours.
func (l *Lease) Renew(ctx context.Context) error {
	cur := l.current()
	if cur == nil {
		return fmt.Errorf("the lease %s is not held", l.Name())
	}
	now := metav1.NewMicroTime(l.now())
	cur.Spec.RenewTime = &now
	updated, err := l.c.cs.CoordinationV1().Leases(LeaseNamespace).Update(ctx, cur, metav1.UpdateOptions{})
	if apierrors.IsConflict(err) {
		// Changed by someone else: only a takeover after expiry does that.
		return fmt.Errorf("the lease %s was changed by another writer", l.Name())
	}
	if err != nil {
		return l.c.explain(err, "update", "leases", "coordination.k8s.io", LeaseNamespace)
	}
	l.setHeld(updated)
	return nil
}

// Release clears the holder and records azsvc as the previous holder, so
// CCM refreshes its caches (azure_lock.go releaseLease, acquireLease). A
// lease taken over meanwhile is left alone.
func (l *Lease) Release(ctx context.Context) error {
	cur := l.current()
	if cur == nil {
		return nil
	}
	leases := l.c.cs.CoordinationV1().Leases(LeaseNamespace)
	for attempt := 0; ; attempt++ {
		empty := ""
		cur.Spec.HolderIdentity = &empty
		if cur.Annotations == nil {
			cur.Annotations = map[string]string{}
		}
		cur.Annotations[previousHolderAnnotation] = l.holder
		_, err := leases.Update(ctx, cur, metav1.UpdateOptions{})
		if apierrors.IsConflict(err) && attempt == 0 {
			if cur, err = leases.Get(ctx, LeaseName, metav1.GetOptions{}); err != nil {
				return l.c.explain(err, "get", "leases", "coordination.k8s.io", LeaseNamespace)
			}
			if holderOf(cur) != l.holder {
				l.setHeld(nil)
				return nil
			}
			continue
		}
		if err != nil {
			return l.c.explain(err, "update", "leases", "coordination.k8s.io", LeaseNamespace)
		}
		l.setHeld(nil)
		return nil
	}
}
