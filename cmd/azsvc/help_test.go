package main

import (
	"os"
	"strings"
	"testing"

	"github.com/azsvc/azsvc/cmd/azsvc/internal/engine"
)

// Every command's help reads like kubectl's: a long description, then
// examples, then flags.
func TestHelpText(t *testing.T) {
	for _, name := range []string{"validate", "render", "plan", "apply", "version"} {
		t.Run(name, func(t *testing.T) {
			got := newCLI(t).run(name, "--help")
			if got.code != 0 {
				t.Fatalf("exit %d: %s", got.code, got.stderr)
			}
			desc := strings.Index(got.stdout, "\n\nUsage:")
			examples := strings.Index(got.stdout, "Examples:\n  azsvc "+name)
			if examples < 0 {
				examples = strings.Index(got.stdout, "Examples:\n  # ")
			}
			flags := strings.Index(got.stdout, "Flags:")
			if desc < 40 || examples < desc || flags < examples {
				t.Errorf("help is not description, usage, examples, flags:\n%s", got.stdout)
			}
		})
	}
}

func TestCanPrompt(t *testing.T) {
	tests := []struct {
		in, out, want bool
	}{
		{true, true, true}, {true, false, false}, {false, true, false},
	}
	for _, tt := range tests {
		s := &IOStreams{InTTY: tt.in, OutTTY: tt.out}
		if got := s.CanPrompt(); got != tt.want {
			t.Errorf("CanPrompt(in=%v, out=%v) = %v", tt.in, tt.out, got)
		}
	}
}

func TestJoinOr(t *testing.T) {
	tests := map[string][]string{
		"text":                {"text"},
		"text or json":        {"text", "json"},
		"text, json or sarif": {"text", "json", "sarif"},
	}
	for want, in := range tests {
		if got := joinOr(in); got != want {
			t.Errorf("joinOr(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestTargetRuleEchoed: the target rule is stated once (engine.TargetRule)
// and repeated word for word by plan and apply --help, `azsvc help
// environment` and the README.
func TestTargetRuleEchoed(t *testing.T) {
	words := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	rule := words(engine.TargetRule)
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	texts := map[string]string{"README.md": string(readme)}
	for _, args := range [][]string{{"plan", "--help"}, {"apply", "--help"}, {"help", "environment"}} {
		texts[strings.Join(args, " ")] = newCLI(t).run(args...).stdout
	}
	for name, text := range texts {
		if !strings.Contains(words(text), rule) {
			t.Errorf("%s does not state the target rule as engine.TargetRule does", name)
		}
	}
}
