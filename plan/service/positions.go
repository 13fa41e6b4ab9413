package service

import (
	"strconv"
	"sync"

	"go.yaml.in/yaml/v3"
)

// Field paths (documented on Service.positions):
//   - a scalar field maps to its value: spec.ports[0].port;
//   - a mapping or sequence field maps to its key (where the block starts);
//   - a sequence item maps to the item: spec.loadBalancerSourceRanges[1];
//   - metadata.annotations["<key>"] (and labels) maps to the key, and
//     metadata.annotations["<key>"].value to the value; spec.selector keys
//     are quoted the same way.
const valueSuffix = ".value"

// lazyPositions holds what is needed to index a Service's positions later.
type lazyPositions struct {
	once       sync.Once
	root       *yaml.Node
	file       string
	lineOffset int
	template   string
}

// indexPositions fills s.positions from the YAML tree, once; safe for
// concurrent use.
func (s *Service) indexPositions() {
	l := s.lazy
	if l == nil {
		return
	}
	l.once.Do(func() {
		idx := &positionIndex{file: l.file, lineOffset: l.lineOffset, template: l.template, m: make(map[string]Position, 64)}
		idx.walk("", nil, l.root)
		s.positions = idx.m
		l.root = nil
	})
}

// positionIndex records the position of every field of one object.
type positionIndex struct {
	file       string
	lineOffset int
	template   string
	m          map[string]Position
}

func (x *positionIndex) pos(n *yaml.Node) Position {
	return Position{File: x.file, Line: n.Line + x.lineOffset, Column: n.Column, Template: x.template}
}

// walk indexes node (the value found at path).
func (x *positionIndex) walk(path string, key, n *yaml.Node) {
	switch n.Kind {
	case yaml.MappingNode:
		x.m[path] = x.pos(keyOr(key, n))
		quoted := path == "metadata.annotations" || path == "metadata.labels" || path == "spec.selector"
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if quoted {
				child := path + "[" + strconv.Quote(k.Value) + "]"
				x.m[child] = x.pos(k)
				x.m[child+valueSuffix] = x.pos(v)
				continue
			}
			x.walk(join(path, k.Value), k, v)
		}
	case yaml.SequenceNode:
		x.m[path] = x.pos(keyOr(key, n))
		for i, item := range n.Content {
			x.walk(path+"["+strconv.Itoa(i)+"]", nil, item)
		}
	case yaml.AliasNode:
		x.m[path] = x.pos(n)
	default:
		x.m[path] = x.pos(n)
	}
}

func keyOr(key, n *yaml.Node) *yaml.Node {
	if key != nil {
		return key
	}
	return n
}

func join(path, field string) string {
	if path == "" {
		return field
	}
	return path + "." + field
}

// lookup returns the value node of a mapping's key, or nil.
func lookup(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

// scalar returns a scalar child's value, or "".
func scalar(m *yaml.Node, key string) string {
	if n := lookup(m, key); n != nil && n.Kind == yaml.ScalarNode {
		return n.Value
	}
	return ""
}
