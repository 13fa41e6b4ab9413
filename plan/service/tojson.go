package service

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// maxJSONNodes bounds alias expansion ("billion laughs"): a document that
// expands to more nodes than this is refused.
const maxJSONNodes = 1 << 20

var errTooLarge = errors.New("document expands to too many nodes (YAML aliases)")

// nodeJSON converts a YAML node tree to JSON, as kubectl apply sends a
// manifest: scalar types follow the YAML tags, so a number or boolean where
// Kubernetes expects a string is a type error, exactly as the API server
// reports it. It is the reference for the direct decoder (direct.go), which
// uses it for types with their own JSON decoding; TestDecodeMatchesKubectl
// checks the pair against sigs.k8s.io/yaml on every example.
type nodeJSON struct {
	buf   []byte
	nodes int
}

func toJSON(n *yaml.Node) ([]byte, error) {
	c := &nodeJSON{buf: make([]byte, 0, 256)}
	if err := c.node(n, 0); err != nil {
		return nil, err
	}
	return c.buf, nil
}

func (c *nodeJSON) node(n *yaml.Node, depth int) error {
	c.nodes++
	if c.nodes > maxJSONNodes || depth > 10000 {
		return errTooLarge
	}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			c.buf = append(c.buf, "null"...)
			return nil
		}
		return c.node(n.Content[0], depth+1)
	case yaml.AliasNode:
		return c.node(n.Alias, depth+1)
	case yaml.MappingNode:
		return c.mapping(n, depth)
	case yaml.SequenceNode:
		c.buf = append(c.buf, '[')
		for i, item := range n.Content {
			if i > 0 {
				c.buf = append(c.buf, ',')
			}
			if err := c.node(item, depth+1); err != nil {
				return err
			}
		}
		c.buf = append(c.buf, ']')
		return nil
	}
	c.scalar(n)
	return nil
}

// mapping writes an object; "<<" merge keys are expanded first so that the
// mapping's own keys win (encoding/json keeps the last duplicate).
func (c *nodeJSON) mapping(n *yaml.Node, depth int) error {
	c.buf = append(c.buf, '{')
	first := true
	if err := c.pairs(n, depth, &first, true); err != nil {
		return err
	}
	if err := c.pairs(n, depth, &first, false); err != nil {
		return err
	}
	c.buf = append(c.buf, '}')
	return nil
}

func (c *nodeJSON) pairs(n *yaml.Node, depth int, first *bool, merges bool) error {
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		isMerge := k.Tag == "!!merge"
		if isMerge != merges {
			continue
		}
		if isMerge {
			if err := c.merge(v, depth, first); err != nil {
				return err
			}
			continue
		}
		if !*first {
			c.buf = append(c.buf, ',')
		}
		*first = false
		c.buf = appendJSONString(c.buf, keyText(k))
		c.buf = append(c.buf, ':')
		if err := c.node(v, depth+1); err != nil {
			return err
		}
	}
	return nil
}

// merge inlines the pairs of a merged mapping (or list of mappings).
func (c *nodeJSON) merge(v *yaml.Node, depth int, first *bool) error {
	c.nodes++
	if c.nodes > maxJSONNodes || depth > 10000 {
		return errTooLarge
	}
	if v.Kind == yaml.AliasNode {
		v = v.Alias
	}
	switch v.Kind {
	case yaml.MappingNode:
		if err := c.pairs(v, depth+1, first, true); err != nil {
			return err
		}
		return c.pairs(v, depth+1, first, false)
	case yaml.SequenceNode:
		for _, item := range v.Content {
			if err := c.merge(item, depth+1, first); err != nil {
				return err
			}
		}
	}
	return nil
}

func keyText(k *yaml.Node) string {
	if k.Kind == yaml.AliasNode && k.Alias != nil {
		return k.Alias.Value
	}
	return k.Value
}

func (c *nodeJSON) scalar(n *yaml.Node) { c.buf = appendLiteral(c.buf, n) }

// appendLiteral appends the JSON literal of a scalar node, by its YAML tag.
func appendLiteral(buf []byte, n *yaml.Node) []byte {
	switch n.ShortTag() {
	case "!!null":
		return append(buf, "null"...)
	case "!!bool":
		return strconv.AppendBool(buf, strings.EqualFold(n.Value, "true"))
	case "!!int":
		if i, err := parseYAMLInt(n.Value); err == nil {
			return strconv.AppendInt(buf, i, 10)
		}
		if f, err := strconv.ParseFloat(n.Value, 64); err == nil && !math.IsInf(f, 0) {
			return strconv.AppendFloat(buf, f, 'g', -1, 64)
		}
	case "!!float":
		if f, err := strconv.ParseFloat(n.Value, 64); err == nil && !math.IsInf(f, 0) && !math.IsNaN(f) {
			return strconv.AppendFloat(buf, f, 'g', -1, 64)
		}
	}
	return appendJSONString(buf, n.Value)
}

// parseYAMLInt reads a YAML integer: decimal, 0x, 0o, 0b, with optional
// underscores.
func parseYAMLInt(v string) (int64, error) {
	if strings.Contains(v, "_") {
		v = strings.ReplaceAll(v, "_", "")
	}
	return strconv.ParseInt(v, 0, 64)
}

// appendJSONString appends s as a JSON string; invalid UTF-8 becomes U+FFFD
// as encoding/json does.
func appendJSONString(buf []byte, s string) []byte {
	const hex = "0123456789abcdef"
	buf = append(buf, '"')
	for i := 0; i < len(s); {
		b := s[i]
		if b < utf8.RuneSelf {
			switch {
			case b == '"' || b == '\\':
				buf = append(buf, '\\', b)
			case b < 0x20:
				buf = append(buf, '\\', 'u', '0', '0', hex[b>>4], hex[b&0xf])
			default:
				buf = append(buf, b)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			buf = append(buf, "\\ufffd"...)
		} else {
			buf = append(buf, s[i:i+size]...)
		}
		i += size
	}
	return append(buf, '"')
}
