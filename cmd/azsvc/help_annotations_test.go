package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/azsvc/azsvc/plan/golden"
	"github.com/azsvc/azsvc/plan/service"
)

func TestAnnotationsHelpGolden(t *testing.T) {
	for name, args := range map[string][]string{
		"annotations.txt":              {"help", "annotations"},
		"annotation-idle-timeout.txt":  {"help", "annotations", "azure-load-balancer-tcp-idle-timeout"},
		"annotation-per-port-port.txt": {"help", "annotations", "service.beta.kubernetes.io/port_443_health-probe_port"},
	} {
		t.Run(name, func(t *testing.T) {
			res := newCLI(t).run(args...)
			if res.code != exitOK {
				t.Fatalf("exit %d: %s", res.code, res.stderr)
			}
			for i, line := range strings.Split(res.stdout, "\n") {
				if n := utf8.RuneCountInString(line); n > helpWidth {
					t.Errorf("line %d is %d columns wide: %q", i+1, n, line)
				}
			}
			golden.Check(t, "testdata/help/"+name, []byte(res.stdout))
		})
	}
}

// TestAnnotationsHelpListsEveryKey fails when a key validate knows is
// missing from `azsvc help annotations`: every annotation constant of
// plan/service/keys.go, read from the source rather than from the
// registry the help is made from, so a key added there and to validate
// but not to the registry is caught.
func TestAnnotationsHelpListsEveryKey(t *testing.T) {
	list := newCLI(t).run("help", "annotations").stdout
	for _, key := range keyConstants(t, "../../plan/service/keys.go") {
		shown := strings.TrimPrefix(key, service.Prefix)
		if !strings.Contains(key, "/") {
			shown = "port_{port}_" + key // a per-port parameter
		}
		if !strings.Contains(list, "\n"+shown+"\n") {
			t.Errorf("azsvc help annotations does not list %s", shown)
		}
		if res := newCLI(t).run("help", "annotations", key); res.code != exitOK {
			t.Errorf("azsvc help annotations %s: exit %d: %s", key, res.code, res.stderr)
		}
	}
}

// keyConstants returns the string constants of a Go file that are
// annotation keys or per-port parameters (Ann* and Port* constants).
func keyConstants(t *testing.T, path string) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		spec, ok := n.(*ast.ValueSpec)
		if !ok || len(spec.Values) != 1 {
			return true
		}
		name := spec.Names[0].Name
		switch v := spec.Values[0].(type) {
		case *ast.BinaryExpr: // Prefix + "azure-..."
			if lit, ok := v.Y.(*ast.BasicLit); ok && strings.HasPrefix(name, "Ann") {
				s, _ := strconv.Unquote(lit.Value)
				out = append(out, service.Prefix+s)
			}
		case *ast.BasicLit:
			if strings.HasPrefix(name, "Port") {
				s, _ := strconv.Unquote(v.Value)
				out = append(out, s)
			}
		}
		return true
	})
	if len(out) < 45 {
		t.Fatalf("found %d key constants in %s, want at least 45", len(out), path)
	}
	return out
}

// TestAnnotationsHelpCCMNotes: every registry key has a CCM release note.
func TestAnnotationsHelpCCMNotes(t *testing.T) {
	notes := ccmReleases()
	for _, a := range service.Annotations() {
		if notes[noteKey(a)] == "" {
			t.Errorf("%s: no CCM release note in ccmReleases", a.Key)
		}
	}
	if len(notes) != len(service.Annotations()) {
		t.Errorf("ccmReleases has %d notes for %d annotations", len(notes), len(service.Annotations()))
	}
}

func TestAnnotationsHelpLookup(t *testing.T) {
	tests := []struct {
		arg        string
		want       int
		wantOut    string
		wantStderr string
	}{
		{"azure-pip-name", exitOK, "service.beta.kubernetes.io/azure-pip-name\n", ""},
		{"service.beta.kubernetes.io/azure-pip-name", exitOK, "service.beta.kubernetes.io/azure-pip-name\n", ""},
		{"Azure-PIP-Name", exitOK, "service.beta.kubernetes.io/azure-pip-name\n", ""},
		{"port_8080_no_lb_rule", exitOK, "port_{port}_no_lb_rule", ""},
		{"port_{port}_no_lb_rule", exitOK, "port_{port}_no_lb_rule", ""},
		{"no_probe_rule", exitOK, "port_{port}_no_probe_rule", ""},
		{"load-balancer-source-ranges", exitOK, "Validate:  AZSVC1020", ""},
		{"azure-pip-nme", exitUsage, "", "did you mean azure-pip-name?"},
		{"service.beta.kubernetes.io/azure-load-balancer-interal", exitUsage, "", "did you mean azure-load-balancer-internal?"},
		{"port_443_health-probe_protocl", exitUsage, "", "did you mean port_443_health-probe_protocol?"},
		{"nothing-like-it-at-all", exitUsage, "", "azsvc help annotations lists every key"},
	}
	for _, tt := range tests {
		t.Run(tt.arg, func(t *testing.T) {
			res := newCLI(t).run("help", "annotations", tt.arg)
			if res.code != tt.want || !strings.Contains(res.stdout, tt.wantOut) || !strings.Contains(res.stderr, tt.wantStderr) {
				t.Errorf("exit %d, want %d; stdout %q (want %q); stderr %q (want %q)", res.code, tt.want, res.stdout, tt.wantOut, res.stderr, tt.wantStderr)
			}
		})
	}
}

func TestHelpCompletion(t *testing.T) {
	tests := []struct {
		args []string
		want []string
		not  []string
	}{
		{[]string{"__complete", "help", ""}, []string{"annotations\t", "exit-codes\t", "config\t", "plan\t"}, nil},
		{[]string{"__complete", "help", "ex"}, []string{"exit-codes\t"}, []string{"plan"}},
		{[]string{"__complete", "help", "annotations", "azure-pls-v"}, []string{"azure-pls-visibility\n"}, []string{"azure-pls-name"}},
		{[]string{"__complete", "help", "annotations", "health-probe_p"}, []string{"health-probe_protocol\n", "health-probe_port\n"}, nil},
	}
	for _, tt := range tests {
		res := newCLI(t).run(tt.args...)
		for _, w := range tt.want {
			if !strings.Contains(res.stdout, w) {
				t.Errorf("%v: completions lack %q:\n%s", tt.args, w, res.stdout)
			}
		}
		for _, n := range tt.not {
			if strings.Contains(res.stdout, n) {
				t.Errorf("%v: completions offer %q:\n%s", tt.args, n, res.stdout)
			}
		}
	}
}

func TestUnknownHelpTopicListsTopics(t *testing.T) {
	res := newCLI(t).run("help", "nosuch")
	for _, want := range []string{`unknown help topic "nosuch"`, "help topics: annotations, config, environment, exit-codes", "commands: apply"} {
		if !strings.Contains(res.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, res.stderr)
		}
	}
}

// TestAnnotationsHelpProbesEveryType: a value type without faulty values
// would list its keys as checked by key only, whatever validate does.
func TestAnnotationsHelpProbesEveryType(t *testing.T) {
	bad := badValues()
	for _, a := range service.Annotations() {
		if len(bad[a.Type]) == 0 {
			t.Errorf("%s: no faulty values for type %q in badValues", a.Key, a.Type)
		}
	}
}
