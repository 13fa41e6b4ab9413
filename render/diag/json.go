package diag

import (
	"encoding/json"
	"io"

	"github.com/azsvc/azsvc/plan/service"
)

// FormatVersion is the version of the JSON envelope JSON writes. Consumers
// must ignore unknown keys; a major bump means a breaking change.
const FormatVersion = "1.0"

// jsonReport is Terraform's `validate -json` envelope (ux-anchors §1.8)
// plus azsvc's Service and skip counts.
type jsonReport struct {
	FormatVersion    string           `json:"format_version"`
	Valid            bool             `json:"valid"`
	ErrorCount       int              `json:"error_count"`
	WarningCount     int              `json:"warning_count"`
	ServicesChecked  int              `json:"services_checked"`
	EndpointsChecked int              `json:"endpoints_checked,omitempty"`
	Skipped          []Skip           `json:"skipped"`
	Diagnostics      []jsonDiagnostic `json:"diagnostics"`
}

type jsonDiagnostic struct {
	Severity   service.Severity `json:"severity"`
	Code       string           `json:"code"`
	Summary    string           `json:"summary"`
	Suggestion string           `json:"suggestion,omitempty"`
	Service    string           `json:"service,omitempty"`
	Field      string           `json:"field,omitempty"`
	Range      *jsonRange       `json:"range,omitempty"`
	// Template is the Helm template a document of helm template's output
	// came from; range stays in that output.
	Template string `json:"template,omitempty"`
}

type jsonRange struct {
	Filename string  `json:"filename"`
	Start    jsonPos `json:"start"`
}

type jsonPos struct {
	Line   int  `json:"line"`
	Column int  `json:"column"`
	Byte   *int `json:"byte,omitempty"`
}

// JSON writes the report as one indented JSON document. diagnostics and
// skipped are always arrays, never null, so consumers need no nil checks.
func JSON(w io.Writer, r Report) error {
	errs, warns := r.Counts()
	out := jsonReport{
		FormatVersion:    FormatVersion,
		Valid:            errs == 0,
		ErrorCount:       errs,
		WarningCount:     warns,
		ServicesChecked:  r.Checked,
		EndpointsChecked: r.Endpoints,
		Skipped:          r.Skips(),
		Diagnostics:      []jsonDiagnostic{},
	}
	src := newSourceIndex(r.Sources)
	for _, d := range r.sorted() {
		out.Diagnostics = append(out.Diagnostics, jsonDiagnostic{
			Severity:   d.Severity,
			Code:       d.Code,
			Summary:    d.Message,
			Suggestion: d.Hint,
			Service:    d.Service,
			Field:      d.Field,
			Range:      newJSONRange(d.Pos, src),
			Template:   d.Pos.Template,
		})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(out)
}

func newJSONRange(p service.Position, src *sourceIndex) *jsonRange {
	if p.File == "" {
		return nil
	}
	rng := &jsonRange{Filename: p.File, Start: jsonPos{Line: p.Line, Column: p.Column}}
	if off, ok := src.offset(p.File, p.Line, p.Column); ok {
		rng.Start.Byte = &off
	}
	return rng
}
