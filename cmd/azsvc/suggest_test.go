package main

import (
	"strings"
	"testing"
)

// TestFlagSuggestions: a mistyped flag, -o value or help topic is a usage
// error that names the one probably meant; cobra only suggests commands.
func TestFlagSuggestions(t *testing.T) {
	tests := []struct {
		args []string
		want string // "" for no suggestion
	}{
		{[]string{"plan", "--detailed-exitcod"}, "unknown flag: --detailed-exitcod (did you mean --detailed-exitcode?)"},
		{[]string{"plan", "-detailed-exitcode"}, "(did you mean --detailed-exitcode?)"},
		{[]string{"plan", "--detail"}, "(did you mean --detailed-exitcode?)"},
		{[]string{"apply", "--auto-aprove"}, "(did you mean --auto-approve?)"},
		{[]string{"validate", "--outptu", "json"}, "(did you mean --output?)"},
		{[]string{"plan", "--sumary-file", "s.md"}, "(did you mean --summary-file?)"},
		{[]string{"plan", "-f", "x", "-out=plan.json"}, "(did you mean --out plan.json?)"},
		// Terraform's -out FILE reads as -o ut and an argument FILE.
		{[]string{"plan", "-f", "x", "-out", "plan.json"}, `unknown output format "ut": use one of text, json, markdown or mermaid (did you mean --out plan.json?)`},
		{[]string{"plan", "-out", "my plan.json", "-f", "x"}, `(did you mean --out 'my plan.json'?)`},
		{[]string{"plan", "-f", "x", "-out"}, "(did you mean --out FILE?)"},
		{[]string{"plan", "--zzz"}, ""},
		{[]string{"validate", "-f", "x", "-o", "jsn"}, `unknown output format "jsn": use one of text, json or sarif (did you mean -o json?)`},
		{[]string{"plan", "-f", "x", "-o", "markdwon"}, "(did you mean -o markdown?)"},
		{[]string{"render", "-f", "x", "-o", "YAML"}, "(did you mean -o yaml?)"},
		{[]string{"validate", "-f", "x", "-o", "xml"}, ""},
		{[]string{"help", "exitcodes"}, `unknown help topic "exitcodes" (did you mean azsvc help exit-codes?)`},
		{[]string{"help", "exit", "codes"}, "(did you mean azsvc help exit-codes?)"},
		{[]string{"help", "enviroment"}, "(did you mean azsvc help environment?)"},
		{[]string{"help", "aply"}, "(did you mean azsvc help apply?)"},
		{[]string{"help", "kubernetes"}, ""},
	}
	for _, tt := range tests {
		res := newCLI(t).run(tt.args...)
		if res.code != exitUsage {
			t.Errorf("%v: exit %d, want %d", tt.args, res.code, exitUsage)
		}
		switch {
		case tt.want == "" && strings.Contains(res.stderr, "did you mean"):
			t.Errorf("%v: a far-fetched suggestion: %s", tt.args, res.stderr)
		case tt.want != "" && !strings.Contains(res.stderr, tt.want):
			t.Errorf("%v: stderr %q, want %q", tt.args, res.stderr, tt.want)
		}
	}
}
