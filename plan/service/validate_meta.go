package service

import (
	"fmt"
	"strings"

	"github.com/azsvc/azsvc/plan/quote"
)

// MaxAnnotationsSize is the API server's limit on all of an object's
// annotation keys and values together (apimachinery's
// TotalAnnotationSizeLimitB, 256 KiB).
const MaxAnnotationsSize = 256 << 10

// metadata applies the API server's rules on annotations that matter here:
// a key that is not a qualified name, or annotations over 256 KiB, make
// kubectl apply fail, so the manifest never reaches CCM as written.
func (c keyRules) metadata() {
	total := 0
	for k, v := range c.s.Annotations {
		total += len(k) + len(v)
		if p := qualifiedNameProblem(k); p != "" {
			c.add(c.s.annDiag(CodeAnnotationKey, k, fmt.Sprintf("annotation key %s %s: the API server refuses it", quote.Value(k), p),
				"write keys as an optional DNS prefix, \"/\", and a name of letters, digits, -, _ and ."))
		}
	}
	if total > MaxAnnotationsSize {
		c.add(c.s.diag(CodeAnnotationsSize, "metadata.annotations",
			fmt.Sprintf("the annotations take %d bytes: the API server refuses more than %d", total, MaxAnnotationsSize),
			"remove or shorten annotations"))
	}
}

// qualifiedNameProblem is apimachinery's IsQualifiedName: an optional DNS
// subdomain prefix (at most 253 characters) and "/", then a name of at
// most 63 characters of letters, digits, "-", "_" and ".", starting and
// ending with a letter or digit.
func qualifiedNameProblem(key string) string {
	prefix, name, hasPrefix := strings.Cut(key, "/")
	if !hasPrefix {
		name = key
	}
	alnum := func(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' }
	if hasPrefix {
		if prefix == "" || len(prefix) > 253 {
			return "has a prefix that is empty or longer than 253 characters"
		}
		if p := charProblem(prefix, func(c byte) bool { return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '.' }); p != "" {
			return "has a prefix that " + p
		}
	}
	switch {
	case name == "" || len(name) > 63:
		return fmt.Sprintf("has a name of %d characters; it must have 1 to 63", len(name))
	case !alnum(name[0]) || !alnum(name[len(name)-1]):
		return "has a name that does not start and end with a letter or digit"
	}
	return charProblem(name, func(c byte) bool { return alnum(c) || c == '-' || c == '_' || c == '.' })
}

// noPorts: a LoadBalancer Service needs at least one port; the API server
// refuses it otherwise, and CCM would have no rule to build (§3, §9).
func (c keyRules) noPorts() {
	if len(c.s.Spec.Ports) > 0 {
		return
	}
	c.add(c.s.diag(CodeNoPorts, "spec.ports", "a type: LoadBalancer Service has no ports: the API server refuses it and CCM would build no rule",
		"add spec.ports, e.g. - {port: 443, protocol: TCP}"))
}
