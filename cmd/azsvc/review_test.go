package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/azsvc/azsvc/cmd/azsvc/internal/scalegen"
	"github.com/azsvc/azsvc/plan/planfile"
	"github.com/azsvc/azsvc/render/planview"
)

// TestReviewAtScale is issue 16's "done when": the first plan of 500
// generated Services, and a pull request that edits 5,000 of them (moving
// Services to other ports, editing annotations), get a comment of at most
// 60,000 characters that holds every disruptive and every shared change in
// full, and the whole plan is in the summary file the comment names.
func TestReviewAtScale(t *testing.T) {
	for _, tc := range []struct {
		n       int
		applied bool // the Services are applied before the edit is planned
	}{{500, false}, {5000, true}} {
		t.Run(fmt.Sprint(tc.n), func(t *testing.T) { testReviewAtScale(t, tc.n, tc.applied) })
	}
}

func testReviewAtScale(t *testing.T, n int, applied bool) {
	golden, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	c := newCLI(t)
	base, err := os.ReadFile("../../examples/azure.json")
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := scalegen.AzureJSON(base)
	if err != nil {
		t.Fatal(err)
	}
	path := func(name string) string { return name }
	// Relative names, so the comment reads the same on every machine.
	t.Chdir(c.dir)
	writeFile(t, path("azure.json"), string(cfg))
	writeFile(t, path("services.yaml"), string(scalegen.Manifests(n, 0)))
	writeFile(t, path("reviewed.yaml"), string(scalegen.Reviewed(n)))
	args := func(cmd, file string, extra ...string) []string {
		return append([]string{cmd, "-f", path(file), "--config", path("azure.json"), "--cluster-name", scalegen.ClusterName,
			"--state", path("state.json"), "--target", "emulator"}, extra...)
	}
	if applied {
		if res := c.run(args("apply", "services.yaml", "--auto-approve")...); res.code != exitOK {
			t.Fatalf("apply: exit %d\n%s", res.code, res.stderr)
		}
	}
	res := c.run(args("plan", "reviewed.yaml", "-o", "markdown", "--summary-file", path("summary.md"), "--out", path("plan.json"))...)
	if res.code != exitOK {
		t.Fatalf("plan: exit %d\n%s", res.code, res.stderr)
	}
	comment := res.stdout
	if got := utf8.RuneCountInString(comment); got > planview.PRCommentBudget {
		t.Fatalf("comment of %d characters, over %d", got, planview.PRCommentBudget)
	}
	summary, err := os.ReadFile(path("summary.md"))
	if err != nil {
		t.Fatalf("the summary file the comment names: %v", err)
	}
	if !strings.Contains(comment, "The full plan is in `"+path("summary.md")+"` and the saved plan `"+path("plan.json")+"`") {
		t.Errorf("the comment does not say where the full plan is:\n%.3000s", comment)
	}
	// The disruptive and shared sections, as the full plan has them, are
	// in the comment unchanged.
	full := string(summary)
	for _, section := range []string{"#### ⚠️ Disruptive changes", "#### Shared and cluster resources"} {
		want := sectionOf(full, section)
		if !strings.Contains(comment, want) {
			t.Errorf("the comment's %q section differs from the full plan's", section)
		}
	}
	// Every change of the plan is in the full plan, and every disruptive
	// or shared one in the comment.
	saved := readSaved(t, path("plan.json"))
	for _, ch := range saved.Changes {
		if !strings.Contains(full, ch.Address) {
			t.Errorf("the summary file lacks %s", ch.Address)
		}
		if (ch.Disruptive || len(ch.Services) != 1) && !strings.Contains(comment, ch.Address) {
			t.Errorf("the comment lacks the disruptive or shared change %s", ch.Address)
		}
	}
	if strings.Contains(full, "Not shown here") {
		t.Errorf("the summary file leaves Services out")
	}
	masked := regexp.MustCompile(`sha256:[0-9a-f]+`).ReplaceAllString(comment, "sha256:<id>")
	assertGolden(t, filepath.Join(golden, fmt.Sprintf("review_%d.golden.md", n)), masked)
}

// sectionOf is the text of a markdown section, from its heading to the
// next heading of the same or a higher level; "" when there is none.
func sectionOf(doc, heading string) string {
	i := strings.Index(doc, heading)
	if i < 0 {
		return ""
	}
	rest := doc[i+len(heading):]
	if j := strings.Index(rest, "\n#### "); j >= 0 {
		rest = rest[:j]
	}
	return heading + rest
}

func readSaved(t *testing.T, path string) *planfile.Plan {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var s planfile.Plan
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatal(err)
	}
	return &s
}
