package yamlfast

import "go.yaml.in/yaml/v3"

// Block collections. A collection's column is where its first key or "-"
// stands; everything before it on its first line is ASCII ("- " items and
// spaces), so a byte offset there is also a column. After each entry the
// next content line must be a sibling (same indentation) or belong to an
// enclosing collection (less); more indentation would continue a scalar or
// is an error, and either way is left to yaml.v3.

// block parses the mapping or sequence that starts at byte col of the
// current line.
func (p *Parser) block(col int) *yaml.Node {
	ln := &p.lines[p.li]
	switch {
	case isEntry(ln.text, col):
		return p.sequence(col, false)
	case looksLikeKey(ln.text, col):
		return p.mapping(col)
	}
	return nil // a scalar alone on its line
}

// mapping parses a block mapping whose first key is at byte col of the
// current line.
func (p *Parser) mapping(col int) *yaml.Node {
	if p.depth++; p.depth > maxDepth {
		return nil
	}
	m := p.node(yaml.MappingNode, "!!map", p.lines[p.li].num, col+1)
	base := len(p.stack)
	for {
		ln := &p.lines[p.li]
		k, after := p.key(ln, col)
		if k == nil {
			return nil
		}
		v := p.value(ln, col, after)
		if v == nil {
			return nil
		}
		p.stack = append(p.stack, k, v)
		if p.li == len(p.lines) || p.lines[p.li].indent < col {
			break
		}
		if p.lines[p.li].indent > col {
			return nil
		}
	}
	m.Content = p.collect(base)
	p.depth--
	return m
}

// key parses the key at byte i of ln and returns it with the offset after
// its ':'.
func (p *Parser) key(ln *line, i int) (*yaml.Node, int) {
	var k *yaml.Node
	end := 0
	switch ln.text[i] {
	case '"':
		k, end = p.doubleQuoted(ln, i)
	case '\'':
		k, end = p.singleQuoted(ln, i)
	default:
		k, end = p.plain(ln, i, true)
	}
	if k == nil || k.Style == 0 && k.Value == "<<" {
		return nil, 0 // merge keys are left to yaml.v3
	}
	colon := skipSpaces(ln.text, end)
	// yaml.v3 finds an implicit key's ':' within 1,024 characters.
	if colon == len(ln.text) || ln.text[colon] != ':' || colon-i > 1000 || !blankAt(ln.text, colon+1) {
		return nil, 0
	}
	return k, colon + 1
}

// value parses what follows a key's ':' at byte after of ln: a scalar or
// flow collection on the same line, else the block below, else null.
func (p *Parser) value(ln *line, col, after int) *yaml.Node {
	if i := skipSpaces(ln.text, after); i < len(ln.text) && ln.text[i] != '#' {
		return p.inline(i)
	}
	p.li++
	if p.li < len(p.lines) {
		next := &p.lines[p.li]
		switch {
		case next.indent > col:
			return p.block(next.indent)
		case next.indent == col && isEntry(next.text, col):
			return p.sequence(col, true) // "ports:" then "- port: 80" under it
		}
	}
	return p.null(ln, after)
}

// sequence parses a block sequence whose first "-" is at byte col of the
// current line. An indentless one (at its key's column) ends at a line at
// that column that is not an item.
func (p *Parser) sequence(col int, indentless bool) *yaml.Node {
	if p.depth++; p.depth > maxDepth {
		return nil
	}
	s := p.node(yaml.SequenceNode, "!!seq", p.lines[p.li].num, col+1)
	base := len(p.stack)
	for {
		item := p.item(col)
		if item == nil {
			return nil
		}
		p.stack = append(p.stack, item)
		if p.li == len(p.lines) || p.lines[p.li].indent < col {
			break
		}
		next := &p.lines[p.li]
		if next.indent > col {
			return nil
		}
		if !isEntry(next.text, col) {
			if indentless {
				break
			}
			return nil
		}
	}
	s.Content = p.collect(base)
	p.depth--
	return s
}

// item parses the item of the "-" at byte col of the current line.
func (p *Parser) item(col int) *yaml.Node {
	ln := &p.lines[p.li]
	i := skipSpaces(ln.text, col+1)
	if i == len(ln.text) || ln.text[i] == '#' {
		p.li++
		if p.li < len(p.lines) && p.lines[p.li].indent > col {
			return p.block(p.lines[p.li].indent)
		}
		return p.null(ln, col+1)
	}
	switch {
	case isEntry(ln.text, i):
		return p.sequence(i, false) // "- - a"
	case looksLikeKey(ln.text, i):
		return p.mapping(i) // "- name: http"
	}
	return p.inline(i)
}

// inline parses a scalar or flow collection at byte i of the current line
// that ends on it, a comment aside, and moves to the next line.
func (p *Parser) inline(i int) *yaml.Node {
	ln := &p.lines[p.li]
	var n *yaml.Node
	end := 0
	switch ln.text[i] {
	case '"':
		n, end = p.doubleQuoted(ln, i)
	case '\'':
		n, end = p.singleQuoted(ln, i)
	case '[', '{':
		n, end = p.flow(ln, i)
	default:
		n, end = p.plain(ln, i, false)
	}
	if n == nil || !restIsComment(ln.text, end) {
		return nil
	}
	p.li++
	return n
}

// null is the empty value yaml.v3 places just after the ':' or '-' that
// ends at byte i of ln.
func (p *Parser) null(ln *line, i int) *yaml.Node {
	return p.node(yaml.ScalarNode, "!!null", ln.num, ln.column(i))
}

// isEntry reports a "-" at byte i followed by a space or the line end.
func isEntry(text string, i int) bool {
	return i < len(text) && text[i] == '-' && blankAt(text, i+1)
}

// blankAt reports a space or the line end at byte i.
func blankAt(text string, i int) bool {
	return i >= len(text) || text[i] == ' '
}

// looksLikeKey reports that the text at byte i is a mapping key: a quoted
// scalar or a plain one followed by ':' and a space or the line end.
// Whether it is a valid key is for key to say.
func looksLikeKey(text string, i int) bool {
	switch text[i] {
	case '[', '{':
		return false // a flow collection; as a key it is left to yaml.v3
	case '"', '\'':
		end := quotedEnd(text, i)
		if end < 0 {
			return false
		}
		j := skipSpaces(text, end)
		return j < len(text) && text[j] == ':' && blankAt(text, j+1)
	}
	for j := i; j < len(text); j++ {
		switch text[j] {
		case ':':
			if blankAt(text, j+1) {
				return true
			}
		case '#':
			if text[j-1] == ' ' {
				return false
			}
		}
	}
	return false
}

// quotedEnd is the offset after the closing quote of the quoted scalar at
// byte i, or -1 when it does not close on this line.
func quotedEnd(text string, i int) int {
	q := text[i]
	for j := i + 1; j < len(text); j++ {
		switch {
		case q == '"' && text[j] == '\\':
			j++
		case text[j] == q && q == '\'' && j+1 < len(text) && text[j+1] == '\'':
			j++
		case text[j] == q:
			return j + 1
		}
	}
	return -1
}
