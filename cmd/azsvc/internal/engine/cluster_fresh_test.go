package engine

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/azsvc/azsvc/apply"
	"github.com/azsvc/azsvc/providers/kube"
)

func liveSvc(ns, name, uid, rv string) corev1.Service {
	return corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, UID: types.UID(uid), ResourceVersion: rv}}
}

func TestCheckCluster(t *testing.T) {
	planned := []corev1.Service{liveSvc("shop", "web", "u1", "10"), liveSvc("shop", "api", "u2", "11")}
	tests := []struct {
		name string
		now  []corev1.Service
		want []string // drift lines; none means fresh
	}{
		{name: "same", now: []corev1.Service{liveSvc("shop", "api", "u2", "11"), liveSvc("shop", "web", "u1", "10")}},
		{name: "edited", now: []corev1.Service{liveSvc("shop", "web", "u1", "12"), liveSvc("shop", "api", "u2", "11")},
			want: []string{"Service shop/web: changed in the cluster since the plan (resourceVersion 10, now 12)"}},
		{name: "recreated", now: []corev1.Service{liveSvc("shop", "web", "u9", "20"), liveSvc("shop", "api", "u2", "11")},
			want: []string{"Service shop/web: deleted and created again since the plan (uid u1, now u9)"}},
		{name: "added and removed", now: []corev1.Service{liveSvc("shop", "web", "u1", "10"), liveSvc("shop", "cart", "u3", "30")},
			want: []string{"Service shop/api: removed from the cluster", "Service shop/cart: added to the cluster since the plan"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckCluster(&Cluster{Snapshot: &kube.Snapshot{Services: planned}}, tt.now)
			if len(tt.want) == 0 {
				if err != nil {
					t.Fatalf("fresh cluster refused: %v", err)
				}
				return
			}
			if !errors.Is(err, apply.ErrStale) {
				t.Fatalf("got %v, want a stale error", err)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error lacks %q:\n%v", w, err)
				}
			}
		})
	}
	if err := CheckCluster(nil, nil); err != nil {
		t.Errorf("no cluster: %v", err)
	}
}

// TestCheckClusterCapsItsList: a refusal names at most maxStaleServices
// Services and counts the rest.
func TestCheckClusterCapsItsList(t *testing.T) {
	var now []corev1.Service
	for i := range 45 {
		now = append(now, liveSvc("shop", fmt.Sprintf("s%02d", i), "u", "1"))
	}
	err := CheckCluster(&Cluster{Snapshot: &kube.Snapshot{}}, now)
	msg := fmt.Sprint(err)
	if strings.Count(msg, "added to the cluster") != 20 || !strings.Contains(msg, "and 25 more Services") {
		t.Errorf("refusal of 45 added Services:\n%s", msg)
	}
}
