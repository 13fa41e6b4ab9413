package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// azsvcCall finds an azsvc command in a CI recipe: the binary (possibly
// quoted or with a path), a command, and its arguments up to a redirection,
// pipe or the end of the line.
var azsvcCall = regexp.MustCompile(`azsvc"? ((?:validate|render|plan|apply|show)\b[^>|;&]*)`)

// TestCIRecipes: the CI recipes under examples/ci are valid YAML, and every
// azsvc command in them parses with this azsvc's flags.
func TestCIRecipes(t *testing.T) {
	files, err := filepath.Glob("../../examples/ci/*.yml")
	if err != nil || len(files) < 2 {
		t.Fatalf("recipes: %v %v", files, err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var doc map[string]any
		if err := yaml.Unmarshal(data, &doc); err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		text := strings.ReplaceAll(string(data), "\\\n", " ")
		calls := azsvcCall.FindAllStringSubmatch(text, -1)
		if len(calls) < 3 {
			t.Errorf("%s: %d azsvc commands found, want validate, plan, show, ...", f, len(calls))
		}
		for _, m := range calls {
			args := strings.Fields(strings.ReplaceAll(m[1], `"`, ""))
			if res := newCLI(t).run(append(args, "--help")...); res.code != exitOK {
				t.Errorf("%s: azsvc %s: exit %d\n%s", f, m[1], res.code, res.stderr)
			}
		}
	}
}
