package service

import (
	"sort"
	"strings"
)

// Validate checks Services offline against CCM's rules (ccm-semantics §1,
// §3–§5, §8, §9) and returns diagnostics sorted by file, line, column and
// code. The codes are listed by Rules.
func Validate(svcs []*Service) []Diagnostic {
	reg := NewRegistry()
	var out []Diagnostic
	for _, s := range svcs {
		c := &checker{s: s, reg: reg}
		c.run()
		out = append(out, c.out...)
	}
	SortDiagnostics(out)
	return out
}

// checker collects the diagnostics of one Service.
type checker struct {
	s   *Service
	reg *Registry
	out []Diagnostic
}

func (c *checker) add(d Diagnostic) { c.out = append(c.out, d) }

func (c *checker) run() {
	keys := make([]string, 0, len(c.s.Annotations))
	for k := range c.s.Annotations {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	kr, names, values := keyRules{c}, nameRules{c}, valueRules{c}
	for _, k := range keys {
		kr.key(k)
	}
	kr.metadata()
	kr.noPorts()
	names.names()
	values.integers()
	values.probeTiming()
	values.pls()
	values.ranges()
	values.addresses()
	values.ports()
	crossRules{c}.crossField()
	values.portNumbers()
	values.portNames()
	warnRules{c}.warnings()
}

// The rules come in groups, one type each, all writing to one checker.
type (
	keyRules   struct{ *checker } // annotation keys, metadata, ports present
	nameRules  struct{ *checker } // values that become Azure names, tags and URL segments
	valueRules struct{ *checker } // numbers, durations, ranges, addresses, port numbers
	crossRules struct{ *checker } // combinations of settings
	warnRules  struct{ *checker } // settings CCM ignores or reads differently
)

// has reports a present annotation.
func (c *checker) has(key string) bool {
	_, ok := c.s.Annotations[key]
	return ok
}

// hasPort reports whether the Service has a port with that number.
func (c *checker) hasPort(port int32) bool {
	for _, p := range c.s.Spec.Ports {
		if p.Port == port {
			return true
		}
	}
	return false
}

func isAzureKey(key string) bool {
	return strings.HasPrefix(strings.ToLower(key), Prefix+"azure-")
}
