// Package service reads Kubernetes Service manifests, keeping the file, line
// and column of every field, knows every annotation CCM reads, and validates
// Services offline.
package service

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
)

// Position is a place in an input file. Line and Column are 1-based; zero
// means unknown.
type Position struct {
	File   string `json:"file"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
	// Template is the Helm template the document was rendered from, as
	// the "# Source:" comment helm template writes before it names it
	// (helm.go); "" for other input. Line and Column stay in File: a line
	// of helm's output maps to no line of the template.
	Template string `json:"template,omitempty"`
}

// String is file:line:col, or for a rendered Helm template
// "chart/templates/svc.yaml (from <stdin>:12:5)".
func (p Position) String() string {
	if p.Template != "" {
		return p.Template + " (from " + p.InFile() + ")"
	}
	return p.InFile()
}

// InFile is file:line:col, without the template.
func (p Position) InFile() string {
	switch {
	case p.Line == 0:
		return p.File
	case p.Column == 0:
		return fmt.Sprintf("%s:%d", p.File, p.Line)
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Column)
}

// Origin names where an object came from, without a line: its file, or
// its Helm template and the file helm's output was read from
// ("shop/templates/services.yaml from <stdin>").
func (p Position) Origin() string {
	if p.Template != "" {
		return p.Template + " from " + p.File
	}
	return p.File
}

// Service is a decoded Service with the positions of its fields.
type Service struct {
	*corev1.Service
	// Source is where the Service's document starts.
	Source Position
	// positions maps a field path to where its value is written. Paths use
	// dots between fields and [i] for list items; annotation keys are quoted
	// whole: metadata.annotations["service.beta.kubernetes.io/azure-dns-label-name"],
	// spec.ports[0].port. An annotation's path points at its key and
	// path+".value" at its value; a mapping or list field points at its key
	// (see positions.go).
	positions map[string]Position
	// lazy builds positions on first use from the parsed YAML tree: only
	// diagnostics need them, and indexing every field up front costs ~10%
	// of decoding.
	lazy *lazyPositions
}

// Key is "namespace/name", the form CCM uses in tags and messages; an empty
// namespace is "default", as kubectl applies it.
func (s *Service) Key() string {
	ns := s.Namespace
	if ns == "" {
		ns = "default"
	}
	return ns + "/" + s.Name
}

// Pos returns the position of the field at path, falling back to the
// nearest enclosing field that has one, then to the document start.
func (s *Service) Pos(path string) Position {
	s.indexPositions()
	for p := path; p != ""; p = parentPath(p) {
		if pos, ok := s.positions[p]; ok {
			return pos
		}
	}
	return s.Source
}

// AnnotationPath is the field path of an annotation key.
func AnnotationPath(key string) string { return fmt.Sprintf("metadata.annotations[%q]", key) }

func parentPath(p string) string {
	depth := 0
	for i := len(p) - 1; i >= 0; i-- {
		switch p[i] {
		case ']':
			depth++
		case '[':
			depth--
			if depth == 0 {
				return p[:i]
			}
		case '.':
			if depth == 0 {
				return p[:i]
			}
		}
	}
	return ""
}

// Severity of a diagnostic.
type Severity string

const (
	SeverityError   Severity = "error"
	SeverityWarning Severity = "warning"
)

// Diagnostic is one finding about the input.
type Diagnostic struct {
	Code     string   `json:"code"` // stable, e.g. AZSVC1001
	Severity Severity `json:"severity"`
	Service  string   `json:"service,omitempty"` // namespace/name
	Pos      Position `json:"range"`
	// Field is the field path (see Service.positions) or annotation key the
	// finding is about.
	Field   string `json:"field,omitempty"`
	Message string `json:"message"`
	Hint    string `json:"hint,omitempty"`
}

// HasErrors reports whether any of diags is an error.
func HasErrors(diags []Diagnostic) bool {
	for _, d := range diags {
		if d.Severity == SeverityError {
			return true
		}
	}
	return false
}
