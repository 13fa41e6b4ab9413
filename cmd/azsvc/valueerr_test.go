package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// A bad flag value, wherever it came from, is a usage error in the
// user's words: never strconv's "strconv.ParseBool: parsing ...".
func TestFlagValueErrorsInUserWords(t *testing.T) {
	const warn = "testdata/manifests/warn"
	tests := []struct {
		name     string
		env      map[string]string
		settings string
		args     []string
		want     string
	}{
		{name: "bool flag", args: []string{"plan", "-f", warn, "--prune=maybe"},
			want: `invalid value for --prune: "maybe" is not true or false`},
		{name: "bool from the environment", env: map[string]string{"AZSVC_PRUNE": "maybe"}, args: []string{"plan", "-f", warn},
			want: `invalid value for --prune from env AZSVC_PRUNE: "maybe" is not true or false`},
		{name: "bool from the settings file", settings: "prune: maybe\n", args: []string{"plan", "-f", warn},
			want: `invalid value for --prune from azsvc.yaml (prune): "maybe" is not true or false`},
		{name: "int flag", args: []string{"emulator", "serve", "--operation-polls", "abc"},
			want: `invalid value for --operation-polls: "abc" is not a whole number`},
		{name: "int out of range", args: []string{"bench-fixture", "-n", "99999999999999999999"},
			want: `invalid value for --services: "99999999999999999999" is out of range for --services`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newCLI(t)
			for k, v := range tt.env {
				t.Setenv(k, v)
			}
			if tt.settings != "" {
				writeFile(t, filepath.Join(c.dir, "azsvc.yaml"), tt.settings)
			}
			res := c.run(tt.args...)
			if res.code != exitUsage || !strings.Contains(res.stderr, tt.want) {
				t.Errorf("exit %d, want %d with %q:\n%s", res.code, exitUsage, tt.want, res.stderr)
			}
			if strings.Contains(res.stderr, "strconv") {
				t.Errorf("Go's wording leaks:\n%s", res.stderr)
			}
		})
	}
}
