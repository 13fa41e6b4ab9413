// Package yamlfast parses the YAML that Kubernetes manifests are written in
// into exactly the yaml.Node tree that go.yaml.in/yaml/v3 builds, several
// times faster: block mappings and sequences, flow collections on one line,
// and plain, single- and double-quoted scalars on one line, with comments.
//
// Anything else (anchors, aliases, tags, block scalars, multi-line scalars,
// tabs, directives, merge keys, a document that is empty or only a scalar)
// makes Parse return nil, and the caller parses that document with yaml.v3.
// The rule is that an accepted document is one yaml.v3 accepts, with the
// same tree; in doubt Parse declines. FuzzFastYAMLMatchesV3 holds it to that.
//
// Comments are not kept: HeadComment, LineComment and FootComment stay
// empty. Every other field (Kind, Style, Tag, Value, Line, Column, Content)
// is what yaml.v3 gives, tags resolved by yaml.v3 itself (Node.ShortTag).
package yamlfast

import (
	"go.yaml.in/yaml/v3"
)

// maxDepth bounds nesting; deeper documents are left to yaml.v3.
const maxDepth = 64

// Parser parses documents one at a time. It reuses its buffers from one
// document to the next, so it must not be shared between goroutines; the
// zero value is ready to use.
type Parser struct {
	lines    []line
	estimate int // nodes the document needs, unless it has flow collections
	li       int // the current line, an index into lines
	depth    int
	nodes    []yaml.Node  // slab the nodes of the current document come from
	ptrs     []*yaml.Node // slab every Content slice is cut from
	stack    []*yaml.Node // children of the collections being parsed
}

// Parse parses one YAML document, which may start with a "---" line, and
// returns its DocumentNode, or nil when the document is outside the subset.
func (p *Parser) Parse(data []byte) *yaml.Node {
	explicit, ok := p.split(string(data))
	if !ok || len(p.lines) == 0 {
		return nil
	}
	p.li, p.depth, p.stack = 0, 0, p.stack[:0]
	p.nodes = make([]yaml.Node, 0, p.estimate)
	first := &p.lines[0]
	doc := p.node(yaml.DocumentNode, "", first.num, first.indent+1)
	if explicit {
		doc.Line, doc.Column = 1, 1
	}
	root := p.block(first.indent)
	if root == nil || p.li != len(p.lines) {
		return nil
	}
	p.stack = append(p.stack, root)
	doc.Content = p.collect(0)
	return doc
}

// node returns a new node from the slab.
func (p *Parser) node(kind yaml.Kind, tag string, line, column int) *yaml.Node {
	if len(p.nodes) == cap(p.nodes) {
		p.nodes = make([]yaml.Node, 0, 16) // flow collections beyond the estimate
	}
	p.nodes = p.nodes[:len(p.nodes)+1]
	n := &p.nodes[len(p.nodes)-1]
	n.Kind, n.Tag, n.Line, n.Column = kind, tag, line, column
	return n
}

// collect moves the children pushed since base into a Content slice of
// their own length and capacity, so that an append by the caller cannot
// overwrite a neighbour's.
func (p *Parser) collect(base int) []*yaml.Node {
	items := p.stack[base:]
	if len(items) == 0 {
		return nil // as yaml.v3 leaves an empty flow collection
	}
	if cap(p.ptrs)-len(p.ptrs) < len(items) {
		p.ptrs = make([]*yaml.Node, 0, max(len(items), 512))
	}
	start := len(p.ptrs)
	p.ptrs = append(p.ptrs, items...)
	p.stack = p.stack[:base]
	return p.ptrs[start:len(p.ptrs):len(p.ptrs)]
}
