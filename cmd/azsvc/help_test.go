package main

import (
	"strings"
	"testing"
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
