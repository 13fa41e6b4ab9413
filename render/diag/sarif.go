package diag

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/azsvc/azsvc/plan/service"
)

// Tool names the program in a SARIF log.
type Tool struct {
	Name           string
	Version        string
	InformationURI string
}

// Rule describes one diagnostic code for SARIF consumers; GitHub shows
// Summary at the top of an alert.
type Rule struct {
	ID      string
	Name    string
	Summary string
	HelpURI string
	Level   service.Severity
}

// SARIFOptions carries what the SARIF log needs beyond the report.
type SARIFOptions struct {
	Tool Tool
	// Rules lists known codes. Codes that appear in the report but not
	// here get a rule derived from their first diagnostic.
	Rules []Rule
	// BaseDir is the directory URIs are made relative to (the repository
	// root in CI); GitHub needs repo-relative paths (ux-anchors §5.1).
	BaseDir string
}

const sarifSchema = "https://json.schemastore.org/sarif-2.1.0.json"

// SARIF writes a SARIF 2.1.0 log with one run, in the shape GitHub code
// scanning accepts (ux-anchors §5.1): stable rule ids, repo-relative URIs
// with forward slashes, a region on every result, and partialFingerprints
// so re-uploads do not duplicate alerts.
func SARIF(w io.Writer, r Report, opts SARIFOptions) error {
	diags := r.sorted()
	rules := sarifRules(opts.Rules, diags)
	index := make(map[string]int, len(rules))
	for i, rule := range rules {
		index[rule.ID] = i
	}
	results := make([]sarifResult, 0, len(diags))
	for _, d := range diags {
		results = append(results, newSARIFResult(d, index[d.Code], opts.BaseDir))
	}
	log := sarifLog{
		Schema:  sarifSchema,
		Version: "2.1.0",
		Runs: []sarifRun{{
			Tool: sarifTool{Driver: sarifDriver{
				Name:           opts.Tool.Name,
				Version:        opts.Tool.Version,
				InformationURI: opts.Tool.InformationURI,
				Rules:          rules,
			}},
			AutomationDetails: sarifAutomation{ID: "azsvc/validate/"},
			Invocations:       []sarifInvocation{{ExecutionSuccessful: true}},
			ColumnKind:        "unicodeCodePoints",
			Results:           results,
		}},
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(log)
}

// sarifRules returns every known rule, plus one derived rule for each code
// the report uses that is not known, sorted by id so ruleIndex is stable.
func sarifRules(known []Rule, diags []service.Diagnostic) []sarifRule {
	byID := make(map[string]Rule, len(known))
	for _, r := range known {
		byID[r.ID] = r
	}
	for _, d := range diags {
		if _, ok := byID[d.Code]; !ok {
			byID[d.Code] = Rule{ID: d.Code, Summary: d.Message, Level: d.Severity}
		}
	}
	out := make([]sarifRule, 0, len(byID))
	for _, r := range byID {
		out = append(out, sarifRule{
			ID:                   r.ID,
			Name:                 r.Name,
			ShortDescription:     sarifText{Text: r.Summary},
			HelpURI:              r.HelpURI,
			DefaultConfiguration: sarifConfig{Level: sarifLevel(r.Level)},
		})
	}
	slices.SortFunc(out, func(a, b sarifRule) int { return strings.Compare(a.ID, b.ID) })
	return out
}

func newSARIFResult(d service.Diagnostic, ruleIndex int, baseDir string) sarifResult {
	uri := sarifURI(d.Pos.File, baseDir)
	loc := sarifLocation{PhysicalLocation: sarifPhysical{
		ArtifactLocation: sarifArtifact{URI: uri},
		// GitHub rejects results without a region (GH1003); a finding
		// about a whole file points at its first line.
		Region: sarifRegion{StartLine: max(d.Pos.Line, 1), StartColumn: max(d.Pos.Column, 1)},
	}}
	if !strings.Contains(uri, ":") && !strings.HasPrefix(uri, "/") {
		loc.PhysicalLocation.ArtifactLocation.URIBaseID = "%SRCROOT%"
	}
	text := d.Message
	if d.Hint != "" {
		text += "\nHint: " + d.Hint
	}
	return sarifResult{
		RuleID:              d.Code,
		RuleIndex:           ruleIndex,
		Level:               sarifLevel(d.Severity),
		Message:             sarifText{Text: text},
		Locations:           []sarifLocation{loc},
		PartialFingerprints: map[string]string{"azsvc/v1": fingerprint(d, uri)},
	}
}

// fingerprint identifies a finding across runs independently of its line,
// so moving a Service within a file keeps the alert (ux-anchors §8.7:
// rule, file, Service, field).
func fingerprint(d service.Diagnostic, uri string) string {
	sum := sha256.Sum256([]byte(strings.Join([]string{d.Code, uri, d.Service, d.Field}, "\x00")))
	return hex.EncodeToString(sum[:16])
}

// sarifURI makes file relative to baseDir with forward slashes. Files
// outside baseDir keep their path; stdin has no path and becomes "stdin".
func sarifURI(file, baseDir string) string {
	if file == "" || file == "-" || file == service.StdinName {
		return "stdin"
	}
	if baseDir != "" && filepath.IsAbs(file) {
		if rel, err := filepath.Rel(baseDir, file); err == nil && !strings.HasPrefix(rel, "..") {
			file = rel
		}
	}
	return path.Clean(filepath.ToSlash(file))
}

func sarifLevel(s service.Severity) string {
	switch s {
	case service.SeverityError:
		return "error"
	case service.SeverityWarning:
		return "warning"
	}
	return "note"
}
