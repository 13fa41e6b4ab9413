package yamlfast

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// generator writes manifest-like YAML, every choice taken from its input
// bytes, so that a fuzzer steers it: block and flow collections, compact
// and indentless sequences, tricky scalars, comments, blank lines and CRLF,
// and now and then an edit that may break the document.
type generator struct {
	choices []byte
	out     strings.Builder
}

var (
	genKeys    = []string{"a", "name", "app.kubernetes.io/name", "x-y_z", `"q k"`, "'s k'", "1", "true", "~", "-k", "é", "k e y", "a#b"}
	genScalars = []string{
		"v", "true", `"true"`, "yes", "0x10", "010", "08", "1e3", ".inf", "~", "null", "-1", "0b-1", "1_0", "2024-01-02",
		"2024-01-02T03:04:05Z", "10.0.0.0/8,192.0.2.0/24", `'it''s'`, `"a\u00e9\n"`, `"\x41"`, "Shöp", "😀", "a b", "a:b",
		"x#y", "''", `""`, "-", "--x", "<<", "http://h:1/p?q", "3fa85f64-5717-4562-b3fc-2c963f66afa6",
	}
	genEdits = []string{"", " ", ":", "- ", "#", "\n", "\t", "'", `"`, "[", "}", ",", "&a ", "|", "\r", "---\n", "...\n"}
)

func (g *generator) pick(n int) int {
	if len(g.choices) == 0 {
		return 0
	}
	c := g.choices[0]
	g.choices = g.choices[1:]
	return int(c) % n
}

func (g *generator) oneOf(list []string) string { return list[g.pick(len(list))] }

func (g *generator) eol() {
	switch g.pick(8) {
	case 0:
		g.out.WriteString(" # note")
	case 1:
		g.out.WriteString("\r")
	}
	g.out.WriteString("\n")
	switch g.pick(8) {
	case 0:
		g.out.WriteString("\n")
	case 1:
		g.out.WriteString(strings.Repeat(" ", g.pick(6)) + "# comment\n")
	}
}

func (g *generator) flow(depth int) {
	open, closer, isMap := "[", "]", g.pick(2) == 0
	if isMap {
		open, closer = "{", "}"
	}
	g.out.WriteString(open)
	for i := range g.pick(4) {
		if i > 0 {
			g.out.WriteString(", ")
		}
		if isMap {
			g.out.WriteString(g.oneOf(genKeys) + ": ")
		}
		if depth < 3 && g.pick(4) == 0 {
			g.flow(depth + 1)
		} else {
			g.out.WriteString(g.oneOf(genScalars))
		}
	}
	g.out.WriteString(closer)
}

// value writes what follows "key:" or "-": a scalar or flow collection on
// the line, or a block below it, or nothing (null).
func (g *generator) value(indent, depth int) {
	switch k := g.pick(6); {
	case k <= 1 || depth > 4:
		g.out.WriteString(" " + g.oneOf(genScalars))
		g.eol()
	case k == 2:
		g.out.WriteString(" ")
		g.flow(depth)
		g.eol()
	case k == 3:
		g.eol()
	default:
		g.eol()
		g.block(indent+g.pick(4), depth+1)
	}
}

func (g *generator) block(indent, depth int) {
	pad := strings.Repeat(" ", indent)
	seq := g.pick(3) == 0
	for range 1 + g.pick(4) {
		g.out.WriteString(pad)
		if !seq {
			g.out.WriteString(g.oneOf(genKeys) + ":")
			g.value(indent, depth)
			continue
		}
		g.out.WriteString("-")
		if g.pick(3) == 0 && depth < 5 { // "- key: v" with the rest of the mapping below
			g.out.WriteString(" ")
			g.block(indent+2, depth+1)
			continue
		}
		g.value(indent, depth)
	}
}

func (g *generator) document() []byte {
	if g.pick(3) == 0 {
		g.out.WriteString("---")
		g.eol()
	}
	g.block(g.pick(2), 0)
	doc := g.out.String()
	if g.pick(3) == 0 && len(doc) > 0 { // one edit, which may break it
		at := g.pick(len(doc))
		doc = doc[:at] + g.oneOf(genEdits) + doc[min(len(doc), at+g.pick(3)):]
	}
	return []byte(doc)
}

// generate is the document the generator writes for choices.
func generate(choices []byte) []byte {
	g := &generator{choices: choices}
	return g.document()
}

// TestGeneratedDocuments: many generated documents, most of them taking the
// fast path, all matching yaml.v3.
func TestGeneratedDocuments(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	accepted := 0
	const n = 20000
	for range n {
		choices := make([]byte, 200)
		for i := range choices {
			choices[i] = byte(rng.UintN(256))
		}
		doc := generate(choices)
		ok, problem := checkMatchesV3(doc)
		if problem != "" {
			t.Fatalf("%q: %s", doc, problem)
		}
		if ok {
			accepted++
		}
	}
	if accepted < n/4 {
		t.Fatalf("only %d of %d generated documents took the fast path", accepted, n)
	}
	t.Logf("%d of %d generated documents took the fast path", accepted, n)
}
