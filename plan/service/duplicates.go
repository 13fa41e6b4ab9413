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
func (d *decoder) duplicateKeys(c chunk, root, n *yaml.Node) {
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if k.Kind == yaml.ScalarNode && k.Tag != "!!merge" {
				if first := earlierKey(n, i); first != nil {
					d.fieldErrorAt(c, k, CodeDuplicateKey, keyPath(root, k, ""),
						fmt.Sprintf("key %s is written twice in the same mapping (first on line %d): kubectl refuses the manifest, and other tools keep only the second value", quote.Value(k.Value), c.line+first.Line),
						"remove one of the two entries")
				}
			}
			d.duplicateKeys(c, root, n.Content[i+1])
		}
	case yaml.SequenceNode:
		for _, item := range n.Content {
			d.duplicateKeys(c, root, item)
		}
	}
}

// keyPath is the field path of the entry whose key node is key (see
// Service.positions), found again only for a finding: building paths for
// every node of every Service would cost more than the check itself.
func keyPath(n, key *yaml.Node, at string) string {
	switch n.Kind {
	case yaml.MappingNode:
		quoted := at == "metadata.annotations" || at == "metadata.labels" || at == "spec.selector"
		for i := 0; i+1 < len(n.Content); i += 2 {
			child := join(at, n.Content[i].Value)
			if quoted {
				child = at + "[" + strconv.Quote(n.Content[i].Value) + "]"
			}
			if n.Content[i] == key {
				return child
			}
			if p := keyPath(n.Content[i+1], key, child); p != "" {
				return p
			}
		}
	case yaml.SequenceNode:
		for i, item := range n.Content {
			if p := keyPath(item, key, at+"["+strconv.Itoa(i)+"]"); p != "" {
				return p
			}
		}
	}
	return ""
}

// earlierKey returns the first key before index i of mapping m with the
// same text, or nil. Mappings are small; a linear scan beats a map.
func earlierKey(m *yaml.Node, i int) *yaml.Node {
	k := m.Content[i]
	for j := 0; j < i; j += 2 {
		if e := m.Content[j]; e.Kind == yaml.ScalarNode && e.Value == k.Value && e.Tag != "!!merge" {
			return e
		}
	}
	return nil
}
