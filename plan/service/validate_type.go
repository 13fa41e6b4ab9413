package service

import (
	"fmt"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"

	"github.com/azsvc/azsvc/plan/quote"
)

// notLoadBalancer checks a Service CCM skips because its type is not
// LoadBalancer (§7.2). A type one edit or a case away from LoadBalancer is
// a typo the API server refuses, and skipping the Service would make
// --prune delete its load balancer resources; Azure annotations on any
// other type say the author expects a load balancer CCM will never build.
// Both are errors, as misspelt kinds are (AZSVC0010).
func notLoadBalancer(s *Service) []Diagnostic {
	t := string(s.Spec.Type)
	if t != "" && editDistance(strings.ToLower(t), strings.ToLower(string(corev1.ServiceTypeLoadBalancer))) <= 1 {
		return []Diagnostic{s.diag(CodeMisspeltType, "spec.type",
			fmt.Sprintf("spec.type %s is not a Service type (the API server refuses it), and Service %s would be left out of the plan: with --prune, azsvc would delete its load balancer resources",
				quote.Value(t), quote.Text(s.Key())),
			"did you mean type: LoadBalancer?")}
	}
	var keys []string
	for k := range s.Annotations {
		if isAzureKey(k) {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return nil
	}
	slices.SortFunc(keys, func(a, b string) int { return comparePositions(s.Pos(AnnotationPath(a)), s.Pos(AnnotationPath(b))) })
	shown := make([]string, 0, 3)
	for _, k := range keys[:min(len(keys), 3)] {
		shown = append(shown, shownKey(strings.TrimPrefix(k, Prefix)))
	}
	if len(keys) > len(shown) {
		shown = append(shown, fmt.Sprintf("and %d more", len(keys)-len(shown)))
	}
	if t == "" {
		t = string(corev1.ServiceTypeClusterIP) + " (the default)"
	}
	return []Diagnostic{s.annDiag(CodeAzureOnNonLB, keys[0],
		fmt.Sprintf("Service %s is of type %s, so the cloud provider builds no load balancer for it and ignores its Azure annotations (%s)",
			quote.Text(s.Key()), quote.Text(t), strings.Join(shown, ", ")),
		"set spec.type: LoadBalancer if it should have one; otherwise remove the service.beta.kubernetes.io/azure-* annotations")}
}

func comparePositions(a, b Position) int {
	if a.Line != b.Line {
		return a.Line - b.Line
	}
	return a.Column - b.Column
}
