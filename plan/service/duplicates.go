package service

import (
	"fmt"
	"strconv"

	"go.yaml.in/yaml/v3"

	"github.com/azsvc/azsvc/plan/quote"
)

// duplicateKeys reports every mapping key written twice in a Service. YAML
// and JSON decoders keep the last value without a word; kubectl's strict
// decoding and the API server's strict field validation refuse the
// manifest, and a repeated annotation silently undoes the first (an
// internal load balancer turned public).
func (d *decoder) duplicateKeys(c chunk, obj *yaml.Node) {
	var dups []duplicate
	findDuplicates(obj, &dups)
	if len(dups) == 0 {
		return
	}
	// Field paths only for the findings: building one for every node of
	// every Service would cost more than the check itself.
	paths := map[*yaml.Node]string{}
	for _, dup := range dups {
		paths[dup.key] = ""
	}
	keyPaths(obj, "", paths)
	for _, dup := range dups {
		d.fieldErrorAt(c, dup.key, CodeDuplicateKey, paths[dup.key],
			fmt.Sprintf("key %s is written twice in the same mapping (first on line %d): kubectl refuses the manifest, and other tools keep only the second value", quote.Value(dup.key.Value), c.line+dup.first.Line),
			"remove one of the two entries")
	}
}

// duplicate is a key node and the earlier key with the same text.
type duplicate struct{ key, first *yaml.Node }

func findDuplicates(n *yaml.Node, out *[]duplicate) {
	switch n.Kind {
	case yaml.MappingNode:
		var seen map[string]*yaml.Node // only for large mappings; most are small
		if len(n.Content) > 32 {
			seen = make(map[string]*yaml.Node, len(n.Content)/2)
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			if k := n.Content[i]; k.Kind == yaml.ScalarNode && k.Tag != "!!merge" {
				if first := earlierKey(n, i, seen); first != nil {
					*out = append(*out, duplicate{k, first})
				}
			}
			findDuplicates(n.Content[i+1], out)
		}
	case yaml.SequenceNode:
		for _, item := range n.Content {
			findDuplicates(item, out)
		}
	}
}

// earlierKey returns the first key before index i of mapping m with the
// same text, or nil; seen, when not nil, indexes the keys before i.
func earlierKey(m *yaml.Node, i int, seen map[string]*yaml.Node) *yaml.Node {
	k := m.Content[i]
	if seen != nil {
		first, dup := seen[k.Value]
		if !dup {
			seen[k.Value] = k
		}
		return first
	}
	for j := 0; j < i; j += 2 {
		if e := m.Content[j]; e.Kind == yaml.ScalarNode && e.Value == k.Value && e.Tag != "!!merge" {
			return e
		}
	}
	return nil
}

// keyPaths fills in the field path (see Service.positions) of every key
// node in paths, in one walk.
func keyPaths(n *yaml.Node, at string, paths map[*yaml.Node]string) {
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			child := childPath(at, n.Content[i].Value)
			if _, want := paths[n.Content[i]]; want {
				paths[n.Content[i]] = child
			}
			keyPaths(n.Content[i+1], child, paths)
		}
	case yaml.SequenceNode:
		for i, item := range n.Content {
			keyPaths(item, at+"["+strconv.Itoa(i)+"]", paths)
		}
	}
}
