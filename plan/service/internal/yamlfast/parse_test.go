package yamlfast

import (
	"strings"
	"testing"
)

// TestScalars: tricky scalars get yaml.v3's value, tag, style and position
// (YAML 1.1 booleans stay strings in yaml.v3, 010 is an octal int, ...).
func TestScalars(t *testing.T) {
	values := []string{
		`"true"`, `true`, `True`, `TRUE`, `yes`, `no`, `on`, `off`, `y`, `n`, `0x10`, `010`, `0o17`, `0b101`,
		`-0b101`, `1e3`, `1.5`, `.5`, `-1`, `+1`, `1_000`, `.inf`, `-.Inf`, `.nan`, `~`, `null`, `Null`, `NULL`,
		`nulls`, `2024-01-02`, `2024-01-02T03:04:05Z`, `2024-1-2 3:04:05`, `12:30`, `9223372036854775808`,
		`18446744073709551616`, `'it''s'`, `''`, `""`, `"a\u00e9\n"`, `"\x41\t\"\\"`, `"\U0001F600"`, `"\N\_\L\P"`,
		`'a # b'`, `a#b`, `a # comment`, `a   `, `10.0.0.0/8,192.0.2.0/24`, `key=value,a=b`, `-x`, `a: b`,
		`Shöp`, `"é"`, `<<`, `[]`, `{}`, `[a, "b", 'c', 1]`, `{a: 1, "b": [x, y]}`, `[[a], {b: c}]`, `-`, `- a`,
		`http://x.y/z?a=b`, `"\/"`, `"\q"`, `"\ud800"`, `@x`, "`x`", `!!str 1`, `&a 1`, `*a`, `|`, `>`, `? x`,
		`%x`, `"a`, `'a`, `[a,]`, `[a, , b]`, `{a}`, `{a: }`, `[a: b]`, `{"a":1}`, `:x`, `?x`,
	}
	for _, v := range values {
		for _, doc := range []string{
			"key: " + v + "\n",
			"- " + v + "\n",
			"list: [" + v + "]\n",
			"m:\n  " + v + ": x\n",
		} {
			if _, problem := checkMatchesV3([]byte(doc)); problem != "" {
				t.Errorf("%q: %s", doc, problem)
			}
		}
	}
}

// TestDocuments: whole documents the fast parser must accept, with
// yaml.v3's tree, and ones it must leave to yaml.v3.
func TestDocuments(t *testing.T) {
	tests := []struct {
		doc  string
		fast bool
	}{
		{"apiVersion: v1\nkind: Service\n", true},
		{"---\napiVersion: v1\n", true},
		{"--- # a comment\na: 1\n", true},
		{"\n\n# head\n\na: 1 # line\n# foot\n", true},
		{"a: 1\r\nb:\r\n  c: 'x'\r\n", true},
		{"metadata:\n  annotations:\n    service.beta.kubernetes.io/azure-load-balancer-internal: \"true\"\n    a.b/c_d: x\n", true},
		{"spec:\n  ports:\n  - name: http\n    port: 80\n  - port: 443\n  type: LoadBalancer\n", true},
		{"spec:\n  ports:\n    - name: http\n      port: 80\n", true},
		{"a:\n- - x\n  - y\n- z\n", true},
		{"a:\n-\n  b: 1\n-\n- # c\n  c: 2\n", true},
		{"a:\nb:\n  c:\nd: 1\n", true},
		{"- a: 1\n  b:\n  - x\n  c: 2\n", true},
		{"  a: 1\n  b: 2\n", true},
		{"\"quoted key\": 1\n'single': 2\nplain key : 3\n", true},
		{"a: b  \n", true},
		{"ключ: значение\nk: [é, ü]\n", true},
		{"a: 😀\n", true},
		{"", false},
		{"---\n", false},
		{"# only a comment\n", false},
		{"scalar\n", false},
		{"a: &x 1\nb: *x\n", false},
		{"a: !!str 1\n", false},
		{"a: |\n  text\n", false},
		{"a: >\n  text\n", false},
		{"a: multi\n  line\n", false},
		{"a: \"multi\n  line\"\n", false},
		{"a: [x,\n  y]\n", false},
		{"a:\n\tb: 1\n", false},
		{"a: b\tc\n", false},
		{"%YAML 1.2\n---\na: 1\n", false},
		{"a: 1\n...\n", false},
		{"a: 1\n---\nb: 2\n", false},
		{"<<: {a: 1}\n", false},
		{"? a\n: b\n", false},
		{"\ufeffa: 1\n", false},
		{"a: 1\rb: 2\n", false},
		{"a: \x01\n", false},
		{"a: \xff\n", false},
		{"a: 1\n b: 2\n", false},
		{"a: 1\n- b\n", false},
		{"a:\n  b: 1\n c: 2\n", false},
		{"a: b: c\n", false},
		{"a: - b\n", false},
		{"- a\nb: 1\n", false},
		{"a: 1\nb\n", false},
		{"a:\n  value on its own line\n", false},
		{strings.Repeat("k", 1100) + ": v\n", false},
	}
	for _, tt := range tests {
		accepted, problem := checkMatchesV3([]byte(tt.doc))
		if problem != "" {
			t.Errorf("%q: %s", tt.doc, problem)
		}
		if accepted != tt.fast {
			t.Errorf("%q: fast path taken %v, want %v", tt.doc, accepted, tt.fast)
		}
	}
}

// TestContentIsolated: Content slices share one slab, so each must have
// its own capacity: an append to one must not change its neighbour.
func TestContentIsolated(t *testing.T) {
	var p Parser
	doc := p.Parse([]byte("a: [x]\nb: [y]\n"))
	m := doc.Content[0]
	first := m.Content[1]
	first.Content = append(first.Content, first.Content[0])
	if got := m.Content[3].Content[0].Value; got != "y" {
		t.Fatalf("appending to one Content changed the next: %q", got)
	}
}
