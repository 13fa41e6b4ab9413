package yamlfast

import "go.yaml.in/yaml/v3"

// maxFlowLine bounds the length of a line holding a flow collection, which
// keeps every flow key within the 1,024 characters yaml.v3 looks ahead for
// its ':'.
const maxFlowLine = 1000

// flow parses a flow sequence or mapping at byte i of ln that closes on the
// same line, and returns it with the offset after the closing bracket.
// Entries are scalars or flow collections; an empty entry, a trailing
// comma, a key without a value and '?' are left to yaml.v3.
func (p *Parser) flow(ln *line, i int) (*yaml.Node, int) {
	if p.depth++; p.depth > maxDepth || len(ln.text) > maxFlowLine {
		return nil, 0
	}
	text := ln.text
	isMap := text[i] == '{'
	kind, tag, closer := yaml.SequenceNode, "!!seq", byte(']')
	if isMap {
		kind, tag, closer = yaml.MappingNode, "!!map", '}'
	}
	n := p.node(kind, tag, ln.num, ln.column(i))
	n.Style = yaml.FlowStyle
	base := len(p.stack)
	j := skipSpaces(text, i+1)
	for j < len(text) && text[j] != closer {
		var ok bool
		if j, ok = p.flowEntry(ln, j, isMap); !ok {
			return nil, 0
		}
		j = skipSpaces(text, j)
		if j < len(text) && text[j] == ',' {
			if j = skipSpaces(text, j+1); j < len(text) && text[j] == closer {
				return nil, 0
			}
		} else if j < len(text) && text[j] != closer {
			return nil, 0
		}
	}
	if j == len(text) {
		return nil, 0 // continues on the next line
	}
	n.Content = p.collect(base)
	p.depth--
	return n, j + 1
}

// flowEntry parses an item, or a key, ": " and a value, at byte j, pushes
// them and returns the offset after the last.
func (p *Parser) flowEntry(ln *line, j int, isMap bool) (int, bool) {
	k, end := p.flowNode(ln, j)
	if k == nil {
		return 0, false
	}
	p.stack = append(p.stack, k)
	if !isMap {
		return end, true
	}
	colon := skipSpaces(ln.text, end)
	if colon == len(ln.text) || ln.text[colon] != ':' || !blankAt(ln.text, colon+1) {
		return 0, false
	}
	v, end := p.flowNode(ln, skipSpaces(ln.text, colon+1))
	if v == nil {
		return 0, false
	}
	p.stack = append(p.stack, v)
	return end, true
}

// flowNode parses a scalar or flow collection at byte j inside a flow
// collection.
func (p *Parser) flowNode(ln *line, j int) (*yaml.Node, int) {
	if j == len(ln.text) {
		return nil, 0
	}
	switch ln.text[j] {
	case '"':
		return p.doubleQuoted(ln, j)
	case '\'':
		return p.singleQuoted(ln, j)
	case '[', '{':
		return p.flow(ln, j)
	}
	return p.flowPlain(ln, j)
}

// flowPlain parses a plain scalar in the flow context, which ends at
// ',', '[', ']', '{', '}' or, after a key, ": ". One holding another ':',
// '?' or '#' is left to yaml.v3.
func (p *Parser) flowPlain(ln *line, i int) (*yaml.Node, int) {
	text := ln.text
	if !plainStart(text, i) {
		return nil, 0
	}
	end := i
	for j := i; j < len(text); j++ {
		switch text[j] {
		case ',', '[', ']', '{', '}':
			return p.scalar(text[i:end], 0, ln, i), end
		case ':':
			if blankAt(text, j+1) {
				return p.scalar(text[i:end], 0, ln, i), end
			}
			return nil, 0
		case '?', '#':
			return nil, 0
		case ' ':
			continue
		}
		end = j + 1
	}
	return nil, 0
}
