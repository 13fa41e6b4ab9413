package diag

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/url"
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
// Summary at the top of an alert and Help under it. Description and Help
// are markdown with code spans only (service.Rule).
type Rule struct {
	ID          string
	Name        string
	Summary     string
	Description string
	Help        string
	HelpURI     string
	Level       service.Severity
}

// SARIFOptions carries what the SARIF log needs beyond the report.
type SARIFOptions struct {
	Tool Tool
	// Rules lists known codes. Codes that appear in the report but not
	// here get a rule derived from their first diagnostic.
	Rules []Rule
	// BaseDir is the directory URIs are made relative to: the root of the
	// git work tree, since GitHub needs repo-relative paths (ux-anchors
	// §5.1). Files outside it get absolute file:// URIs.
	BaseDir string
	// WorkDir is what relative file names are relative to (the working
	// directory); "" means BaseDir.
	WorkDir string
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
		file := d.Pos.File
		if d.Pos.Template != "" {
			file = d.Pos.Template
		}
		results = append(results, newSARIFResult(d, index[d.Code], sarifURI(file, opts.BaseDir, opts.WorkDir)))
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
			FullDescription:      fullDescription(r),
			Help:                 ruleHelp(r),
			HelpURI:              r.HelpURI,
			DefaultConfiguration: sarifConfig{Level: sarifLevel(r.Level)},
		})
	}
	slices.SortFunc(out, func(a, b sarifRule) int { return strings.Compare(a.ID, b.ID) })
	return out
}

// fullDescription is what goes wrong under the rule, nil when not known.
func fullDescription(r Rule) *sarifText {
	if r.Description == "" {
		return nil
	}
	return &sarifText{Text: plainText(r.Description)}
}

// ruleHelp is the rule's description and fix, in text and markdown: GitHub
// code scanning shows the markdown under an alert.
func ruleHelp(r Rule) *sarifMultiformat {
	if r.Help == "" {
		return nil
	}
	md := r.Help
	if r.Description != "" {
		md = r.Description + "\n\n**Fix:** " + r.Help
	}
	return &sarifMultiformat{Text: plainText(md), Markdown: md}
}

// plainText drops the code spans' backquotes, the only markup a rule's
// texts hold.
func plainText(md string) string {
	return strings.NewReplacer("`", "", "**", "").Replace(md)
}

func newSARIFResult(d service.Diagnostic, ruleIndex int, uri string) sarifResult {
	loc := sarifLocation{PhysicalLocation: sarifPhysical{ArtifactLocation: sarifArtifact{URI: uri}}}
	if d.Pos.Template == "" {
		// GitHub rejects results without a region (GH1003); a finding
		// about a whole file points at its first line.
		loc.PhysicalLocation.Region = &sarifRegion{StartLine: max(d.Pos.Line, 1), StartColumn: max(d.Pos.Column, 1)}
	}
	// A result in helm template's output is placed on its template, a
	// whole file: no line of the output maps to one of the template, so
	// none is invented; the message says where in the output it stands.
	if u, err := url.Parse(uri); err == nil && !u.IsAbs() && !strings.HasPrefix(uri, "/") {
		loc.PhysicalLocation.ArtifactLocation.URIBaseID = "%SRCROOT%"
	}
	text := d.Message
	if d.Hint != "" {
		text += "\nHint: " + d.Hint
	}
	if d.Pos.Template != "" {
		text += "\nIn helm template's output: " + d.Pos.InFile()
		if d.Service != "" {
			text += " (" + d.Service + ")"
		}
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

// sarifURI makes file relative to baseDir with forward slashes, reading a
// relative file name as relative to workDir (baseDir when ""). A file
// outside baseDir gets an absolute file:// URI; stdin has no path and
// becomes "stdin", and a cluster object keeps its cluster:ns/name.
func sarifURI(file, baseDir, workDir string) string {
	switch {
	case file == "" || file == "-" || file == service.StdinName:
		return "stdin"
	case strings.HasPrefix(file, service.ClusterPrefix):
		return file
	}
	if workDir == "" {
		workDir = baseDir
	}
	abs := file
	if !filepath.IsAbs(abs) {
		if workDir == "" {
			return relativeURI(file)
		}
		abs = filepath.Join(workDir, file)
	}
	if baseDir != "" {
		rel, err := filepath.Rel(baseDir, abs)
		if err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return relativeURI(rel)
		}
	}
	return fileURI(abs)
}

// relativeURI is the URI reference of a relative path: forward slashes,
// special characters escaped, and "./" before a first segment with a
// colon, which would read as a scheme.
func relativeURI(rel string) string {
	return (&url.URL{Path: path.Clean(filepath.ToSlash(rel))}).String()
}

// fileURI is the file:// URI of an absolute path (RFC 8089): slashes, a
// leading one before a Windows drive letter, and escaped special characters.
func fileURI(abs string) string {
	p := filepath.ToSlash(filepath.Clean(abs))
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	return (&url.URL{Scheme: "file", Path: p}).String()
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
