// Package diag renders validation diagnostics: compiler-style text, the
// Terraform validate JSON envelope, and SARIF 2.1.0 for code scanning. Each
// renderer is a pure function of a Report, so all three agree on content and
// order.
package diag

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/azsvc/azsvc/plan/service"
	"github.com/azsvc/azsvc/render/style"
)

// Report is the outcome of one validation run.
type Report struct {
	Diagnostics []service.Diagnostic
	// Sources holds each input file's bytes, keyed by the name diagnostics
	// use in Position.File, so renderers can quote the offending line.
	Sources map[string][]byte
	// Checked counts the Services that were validated.
	Checked int
	// Endpoints counts the PrivateEndpoint objects that were validated.
	Endpoints int
	// Skipped counts documents that were read but not validated, per reason
	// ("not type LoadBalancer", "not a Service").
	Skipped map[string]int
}

// Counts returns the number of error and warning diagnostics.
func (r Report) Counts() (errors, warnings int) {
	for _, d := range r.Diagnostics {
		switch d.Severity {
		case service.SeverityError:
			errors++
		case service.SeverityWarning:
			warnings++
		}
	}
	return errors, warnings
}

// Skip is one skip reason and how many documents it applied to.
type Skip struct {
	Reason string `json:"reason"`
	Count  int    `json:"count"`
}

// Skips returns the skip reasons, most frequent first, then by name, so the
// order is the same on every run.
func (r Report) Skips() []Skip {
	skips := make([]Skip, 0, len(r.Skipped))
	for reason, n := range r.Skipped {
		if n > 0 {
			skips = append(skips, Skip{Reason: reason, Count: n})
		}
	}
	slices.SortFunc(skips, func(a, b Skip) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.Reason, b.Reason))
	})
	return skips
}

// sorted returns the diagnostics ordered by file, line and column; ties
// keep the order the validator produced.
func (r Report) sorted() []service.Diagnostic {
	ds := slices.Clone(r.Diagnostics)
	slices.SortStableFunc(ds, func(a, b service.Diagnostic) int {
		return cmp.Or(
			cmp.Compare(a.Pos.File, b.Pos.File),
			cmp.Compare(a.Pos.Line, b.Pos.Line),
			cmp.Compare(a.Pos.Column, b.Pos.Column),
		)
	})
	return ds
}

// Summary is the one-line account of a run that the CLI prints on stderr,
// e.g. "12 Services checked, 2 errors, 1 warning (3 skipped: 2 not type
// LoadBalancer, 1 not a Service)".
func Summary(r Report, st style.Style) string {
	errs, warns := r.Counts()
	var b strings.Builder
	b.WriteString(plural(r.Checked, "Service"))
	if r.Endpoints > 0 {
		b.WriteString(" and " + plural(r.Endpoints, "private endpoint"))
	}
	b.WriteString(" checked, ")
	errText, warnText := plural(errs, "error"), plural(warns, "warning")
	if errs > 0 {
		errText = st.BoldRed(errText)
	}
	if warns > 0 {
		warnText = st.BoldYellow(warnText)
	}
	b.WriteString(errText + ", " + warnText)
	if skips := r.Skips(); len(skips) > 0 {
		total := 0
		parts := make([]string, len(skips))
		for i, s := range skips {
			total += s.Count
			parts[i] = fmt.Sprintf("%d %s", s.Count, s.Reason)
		}
		fmt.Fprintf(&b, " (%d skipped: %s)", total, strings.Join(parts, ", "))
	}
	return b.String()
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
