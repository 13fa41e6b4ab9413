package main

import (
	"fmt"
	"net/url"
	"os"

	"github.com/azsvc/azsvc/render/planview"
)

// stepSummaryEnv is the file GitHub Actions shows as the job's summary.
const stepSummaryEnv = "GITHUB_STEP_SUMMARY"

// summaryFile is where plan writes the whole plan as markdown, for the
// review comment to point at when it cannot hold every Service (issue 16).
type summaryFile struct {
	path string
	// implicit: taken from $GITHUB_STEP_SUMMARY, not --summary-file. GitHub
	// documents appending to it; a failure to write it is a warning.
	implicit bool
}

// chooseSummaryFile applies the rule: --summary-file FILE for any output
// format; without it, $GITHUB_STEP_SUMMARY when the output is markdown.
func chooseSummaryFile(flag, format string, lookup func(string) (string, bool)) (summaryFile, bool) {
	if flag != "" {
		return summaryFile{path: flag}, true
	}
	if v, ok := lookup(stepSummaryEnv); ok && v != "" && format == "markdown" {
		return summaryFile{path: v, implicit: true}, true
	}
	return summaryFile{}, false
}

// name is how the comment names the file.
func (f summaryFile) name() string {
	if f.implicit {
		return "the step summary of this CI run"
	}
	return "`" + f.path + "`"
}

// write renders the plan within a step summary's budget (counted in
// bytes) and writes it; md says where else the plan is. The place it
// returns says whether the file holds the whole plan.
func (f summaryFile) write(view planview.Input, md planview.MarkdownOptions) (planview.Place, error) {
	md.Budget, md.Bytes, md.FullPlan = planview.StepSummaryBudget, true, nil
	text, complete := planview.MarkdownText(view, md)
	place := planview.Place{Name: f.name(), Partial: !complete}
	flags := os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	if f.implicit {
		flags = os.O_WRONLY | os.O_CREATE | os.O_APPEND
	}
	file, err := os.OpenFile(f.path, flags, 0o600)
	if err != nil {
		return place, fmt.Errorf("write summary file: %w", err)
	}
	if _, err := file.WriteString(text); err != nil {
		file.Close()
		return place, fmt.Errorf("write summary file %s: %w", f.path, err)
	}
	if err := file.Close(); err != nil {
		return place, fmt.Errorf("write summary file %s: %w", f.path, err)
	}
	return place, nil
}

// ciRunURL links the CI run the plan is made in: GitHub Actions' or Azure
// Pipelines' run page, from the variables they set; "" elsewhere.
func ciRunURL(lookup func(string) (string, bool)) string {
	get := func(k string) string { v, _ := lookup(k); return v }
	if server, repo, run := get("GITHUB_SERVER_URL"), get("GITHUB_REPOSITORY"), get("GITHUB_RUN_ID"); server != "" && repo != "" && run != "" {
		return fmt.Sprintf("%s/%s/actions/runs/%s", server, repo, run)
	}
	if coll, project, build := get("SYSTEM_COLLECTIONURI"), get("SYSTEM_TEAMPROJECT"), get("BUILD_BUILDID"); coll != "" && project != "" && build != "" {
		return fmt.Sprintf("%s%s/_build/results?buildId=%s", coll, url.PathEscape(project), url.QueryEscape(build))
	}
	return ""
}
