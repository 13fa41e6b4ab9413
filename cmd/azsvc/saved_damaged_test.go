package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/azsvc/azsvc/plan/planfile"
)

// TestDamagedSavedPlanRefused: a saved plan cut short, saved again with a
// byte order mark, or with a value of another type is refused by apply
// and show with exit 5 and "not a plan file azsvc wrote" (before: exit 1,
// or exit 64 calling it a manifest once the cut fell after the recorded
// manifests). A manifest given instead of a plan still gets the -f hint.
func TestDamagedSavedPlanRefused(t *testing.T) {
	c := newCLI(t)
	good := savedExamplePlan(t, c, filepath.Join(c.dir, "plan.json"))
	manifests := bytes.Index(good, []byte(`"manifests"`))
	if manifests < 0 {
		t.Fatal("the saved plan records no manifests")
	}
	damaged := map[string][]byte{
		"cut early":             good[:200],
		"cut after a manifest":  good[:manifests+2000],
		"byte order mark":       append([]byte("\ufeff"), good...),
		"retyped":               bytes.Replace(good, []byte(`"format_version": "`+planfile.FormatVersion+`"`), []byte(`"format_version": `+planfile.FormatVersion), 1),
		"cut to nothing at all": good[:0],
	}
	if bytes.Equal(damaged["retyped"], good) {
		t.Fatalf(`the saved plan has no "format_version": %q to retype`, planfile.FormatVersion)
	}
	for name, data := range damaged {
		path := filepath.Join(c.dir, strings.ReplaceAll(name, " ", "-")+".json")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		for _, args := range [][]string{
			{"--settings", "../../examples/azsvc.yaml", "apply", path, "--auto-approve"},
			{"show", path},
		} {
			res := c.run(args...)
			if res.code != exitStale || !strings.Contains(res.stderr, "not a plan file azsvc wrote") {
				t.Errorf("%s: %v: exit %d, want %d\n%s", name, args, res.code, exitStale, res.stderr)
			}
		}
	}
	yaml := filepath.Join(c.dir, "service.yaml")
	writeFile(t, yaml, "apiVersion: v1\nkind: Service\nmetadata: {name: a}\n")
	if res := c.run("show", yaml); res.code != exitUsage || !strings.Contains(res.stderr, "is a manifest, not a saved plan") {
		t.Errorf("show MANIFEST: exit %d\n%s", res.code, res.stderr)
	}
}
