package engine

import (
	"fmt"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/labels"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/service"
)

// Focus narrows what a plan changes to some Services of the input
// (--service, -n, -l without --from-cluster): every Service is still read
// and built, since Services share load balancers and NSG rules, but only
// the changes serving a focused Service are planned.
type Focus struct {
	// Services are namespace/name keys (a bare name means "default/").
	Services []string
	// Namespace and Selector focus on a namespace and on labels.
	Namespace string
	Selector  string
}

// Set reports whether any focus was asked for.
func (f Focus) Set() bool { return len(f.Services) > 0 || f.Namespace != "" || f.Selector != "" }

// FocusError is a focus that matches no Service of the input: a usage
// error, since a plan of nothing would pass CI while reviewing nothing.
type FocusError struct{ msg string }

func (e *FocusError) Error() string { return e.msg }

// focusOf returns the sorted keys of the Services f selects (all of the
// criteria given must match), and the owners (plan.EndpointOwner) of the
// PrivateEndpoints it selects: those named by --service or in -n's
// namespace, and those connecting to a selected Service. nil when f is not
// set.
func focusOf(in *service.Input, f Focus) ([]string, error) {
	if !f.Set() {
		return nil, nil
	}
	sel, err := labels.Parse(f.Selector)
	if err != nil {
		return nil, &FocusError{msg: fmt.Sprintf("-l %q: %v", f.Selector, err)}
	}
	want := map[string]bool{}
	for _, k := range f.Services {
		if key, isEndpoint := plan.EndpointOf(k); isEndpoint { // a saved plan's focus
			k = key
		}
		if !strings.Contains(k, "/") {
			k = "default/" + k
		}
		want[k] = true
	}
	inNamespace := func(k string) bool { return f.Namespace == "" || strings.HasPrefix(k, f.Namespace+"/") }
	var keys []string
	found := map[string]bool{} // Services and endpoints selected, by key
	for _, s := range in.Services {
		k := s.Key()
		if len(want) > 0 && !want[k] || !inNamespace(k) || !sel.Matches(labels.Set(s.Labels)) {
			continue
		}
		keys = append(keys, k)
		found[k] = true
	}
	for _, ep := range in.Endpoints {
		k := ep.Key()
		byName := inNamespace(k) && (want[k] || len(want) == 0 && f.Selector == "")
		if !byName && !found[ep.ServiceKey()] {
			continue
		}
		keys = append(keys, plan.EndpointOwner(k))
		if byName {
			found[k] = true
		}
	}
	var missing []string
	for k := range want {
		if !found[k] {
			missing = append(missing, k)
		}
	}
	if len(missing) > 0 {
		slices.Sort(missing)
		return nil, &FocusError{msg: fmt.Sprintf("--service %s: no such Service or PrivateEndpoint in the input", strings.Join(missing, ", "))}
	}
	if len(keys) == 0 {
		return nil, &FocusError{msg: fmt.Sprintf("no Service of the input matches %s", f)}
	}
	slices.Sort(keys)
	return slices.Compact(keys), nil
}

// String says what f asks for, as the flags spell it.
func (f Focus) String() string {
	var parts []string
	for _, k := range f.Services {
		parts = append(parts, "--service "+k)
	}
	if f.Namespace != "" {
		parts = append(parts, "-n "+f.Namespace)
	}
	if f.Selector != "" {
		parts = append(parts, "-l "+f.Selector)
	}
	return strings.Join(parts, " ")
}
