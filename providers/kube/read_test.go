package kube

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
)

// pager serves a list of n items in pages of the request's limit, as the
// API server does, and records every request's options.
type pager struct {
	n        int
	requests []metav1.ListOptions
	// expireAt makes the request with this continue token fail with 410.
	expireAt string
	build    func(names []string, cont string) runtime.Object
}

func (p *pager) react(action k8stesting.Action) (bool, runtime.Object, error) {
	opts := action.(k8stesting.ListActionImpl).ListOptions
	p.requests = append(p.requests, opts)
	if opts.Continue != "" && opts.Continue == p.expireAt {
		p.expireAt = ""
		return true, nil, apierrors.NewResourceExpired("the provided continue parameter is too old")
	}
	start := 0
	if opts.Continue != "" {
		start, _ = strconv.Atoi(opts.Continue)
	}
	end := min(p.n, start+int(opts.Limit))
	var names []string
	for i := start; i < end; i++ {
		names = append(names, fmt.Sprintf("obj-%03d", i))
	}
	cont := ""
	if end < p.n {
		cont = strconv.Itoa(end)
	}
	return true, p.build(names, cont), nil
}

func servicePages(names []string, cont string) runtime.Object {
	l := &corev1.ServiceList{ListMeta: metav1.ListMeta{Continue: cont}}
	for _, n := range names {
		l.Items = append(l.Items, corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: "prod", Name: n, Labels: map[string]string{"app": "web"}}})
	}
	return l
}

func nodePages(names []string, cont string) runtime.Object {
	l := &corev1.NodeList{ListMeta: metav1.ListMeta{Continue: cont}}
	for _, n := range names {
		l.Items = append(l.Items, corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: n}})
	}
	return l
}

func slicePages(names []string, cont string) runtime.Object {
	l := &discoveryv1.EndpointSliceList{ListMeta: metav1.ListMeta{Continue: cont}}
	for _, n := range names {
		l.Items = append(l.Items, discoveryv1.EndpointSlice{ObjectMeta: metav1.ObjectMeta{Namespace: "prod", Name: n}})
	}
	return l
}

func TestReadPages(t *testing.T) {
	cs := fake.NewClientset()
	svcs := &pager{n: 5, build: servicePages, expireAt: "4"}
	nodes := &pager{n: 2, build: nodePages}
	slices := &pager{n: 0, build: slicePages}
	cs.PrependReactor("list", "services", svcs.react)
	cs.PrependReactor("list", "nodes", nodes.react)
	cs.PrependReactor("list", "endpointslices", slices.react)
	c, err := NewForClientset(cs, "prod", "test", Options{PageSize: 2, Selector: "app=web"})
	if err != nil {
		t.Fatal(err)
	}
	snap, err := c.Read(context.Background(), Kinds{Nodes: true, EndpointSlices: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(snap.Services) != 5 || len(snap.Nodes) != 2 || len(snap.EndpointSlices) != 0 {
		t.Errorf("read %s", snap)
	}
	// Services: pages at 0, 2, 4 (expired), then 0, 2, 4 again; nodes: one
	// page of 2 with no continue; slices: one empty page.
	if snap.Lists != 6+1+1 {
		t.Errorf("Lists = %d, want 8", snap.Lists)
	}
	var conts []string
	for _, r := range svcs.requests {
		conts = append(conts, r.Continue)
		if r.Limit != 2 || r.LabelSelector != "app=web" || r.FieldSelector != "spec.type=LoadBalancer" {
			t.Errorf("service list options %+v", r)
		}
	}
	if diff := cmp.Diff([]string{"", "2", "4", "", "2", "4"}, conts); diff != "" {
		t.Errorf("continue tokens (-want +got):\n%s", diff)
	}
	if nodes.requests[0].LabelSelector != "" {
		t.Errorf("nodes are read whole, got selector %q", nodes.requests[0].LabelSelector)
	}
}

func TestReadOnlyServices(t *testing.T) {
	cs := fake.NewClientset()
	nodes := &pager{n: 1, build: nodePages}
	cs.PrependReactor("list", "nodes", nodes.react)
	c, _ := NewForClientset(cs, "prod", "test", Options{})
	if _, err := c.Read(context.Background(), Kinds{}); err != nil {
		t.Fatal(err)
	}
	if len(nodes.requests) != 0 {
		t.Errorf("nodes listed without being asked for")
	}
}

func TestReadErrors(t *testing.T) {
	gr := schema.GroupResource{Resource: "endpointslices", Group: "discovery.k8s.io"}
	tests := []struct {
		name     string
		err      error
		resource string
		kind     ErrorKind
		want     string
	}{
		{
			name: "forbidden names the verb and resource", resource: "endpointslices", kind: Forbidden,
			err:  apierrors.NewForbidden(gr, "", errors.New(`User "narrow" cannot list resource "endpointslices"`)),
			want: `RBAC: not allowed to list endpointslices (API group "discovery.k8s.io") in namespace "prod" on ctx`,
		},
		{
			name: "expired credentials", resource: "services", kind: Credentials,
			err:  apierrors.NewUnauthorized("Unauthorized"),
			want: "rejected the credentials (missing, invalid or expired)",
		},
		{
			name: "credential plugin", resource: "services", kind: Credentials,
			err:  errors.New(`Get "https://x": getting credentials: exec: executable kubelogin failed with exit code 1`),
			want: "log in again",
		},
		{
			name: "unreachable", resource: "services", kind: Unreachable,
			err:  &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connection refused")},
			want: "cannot reach the Kubernetes API server of ctx",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cs := fake.NewClientset()
			cs.PrependReactor("list", tt.resource, func(k8stesting.Action) (bool, runtime.Object, error) {
				return true, nil, tt.err
			})
			c, _ := NewForClientset(cs, "prod", "ctx", Options{})
			_, err := c.Read(context.Background(), Kinds{Nodes: true, EndpointSlices: true})
			var ke *Error
			if !errors.As(err, &ke) || ke.Kind != tt.kind {
				t.Fatalf("err = %v, want kind %s", err, tt.kind)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("message %q does not contain %q", err, tt.want)
			}
		})
	}
}

func TestClientScope(t *testing.T) {
	c, err := NewForClientset(fake.NewClientset(), "prod", "ctx", Options{Selector: "app in (web, api)"})
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Scope(); got != `namespace "prod", selector "app in (web, api)"` {
		t.Errorf("Scope() = %q", got)
	}
	if !c.Selects(map[string]string{"app": "api"}) || c.Selects(map[string]string{"app": "db"}) {
		t.Error("Selects does not follow -l")
	}
	if _, err := NewForClientset(fake.NewClientset(), "prod", "ctx", Options{Selector: "app in (web"}); err == nil {
		t.Error("a malformed selector is accepted")
	}
}
