// Package resources renders a set of Azure resources (a desired or observed
// plan.State) for people and machines: ARM JSON exactly as ARM's GET
// returns it, the same as YAML, a text tree grouped by Service, and a
// mermaid graph for GitHub markdown.
package resources

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"sigs.k8s.io/yaml"

	"github.com/azsvc/azsvc/plan"
)

// armObject is one resource in ARM's GET shape; field order follows ARM.
type armObject struct {
	ID         string            `json:"id"`
	Name       string            `json:"name"`
	Type       string            `json:"type"`
	Location   string            `json:"location,omitempty"`
	SKU        map[string]any    `json:"sku,omitempty"`
	Zones      []string          `json:"zones,omitempty"`
	Tags       map[string]string `json:"tags,omitempty"`
	Properties map[string]any    `json:"properties"`
	// Assigned names the values the API server assigns (null in
	// properties, or a placeholder in the name): not ARM's, and only on
	// resources that have any.
	Assigned []plan.AssignedPath `json:"assigned_by_api_server,omitempty"`
}

// childCollections are the inline child collections of each parent kind,
// in the order ARM returns them; empty ones render as [] as ARM does.
func childCollections(k plan.Kind) []plan.Kind {
	switch k {
	case plan.KindLoadBalancer:
		return []plan.Kind{plan.KindFrontend, plan.KindBackendPool, plan.KindRule, plan.KindProbe}
	case plan.KindSecurityGroup:
		return []plan.Kind{plan.KindSecurityRule}
	}
	return nil
}

// ARM converts a state into ARM GET objects: top-level resources in kind
// rank then key order, inline children in their parent's properties. A
// child with an endpoint of its own (a subnet, a DNS zone's links and
// records) or whose parent is not in the state is returned on its own.
func ARM(st *plan.State) []any {
	children := map[plan.Key][]*plan.Resource{}
	var tops []*plan.Resource
	for _, r := range st.Resources() {
		if pid, ok := r.ID.ParentID(); ok && r.Kind().Inline() {
			if _, parentThere := st.Get(pid.Key()); parentThere {
				children[pid.Key()] = append(children[pid.Key()], r)
				continue
			}
		}
		tops = append(tops, r)
	}
	out := make([]any, 0, len(tops))
	for _, r := range tops {
		obj := object(r)
		byKind := map[plan.Kind][]any{}
		for _, c := range children[r.Key()] {
			byKind[c.Kind()] = append(byKind[c.Kind()], childObject(c))
		}
		for _, k := range childCollections(r.Kind()) {
			list := byKind[k]
			if list == nil {
				list = []any{}
			}
			obj.Properties[k.Segment()] = list
		}
		out = append(out, obj)
	}
	return out
}

func object(r *plan.Resource) armObject {
	props := make(map[string]any, len(r.Properties)+4)
	for k, v := range r.Properties {
		props[k] = v
	}
	return armObject{
		ID: r.ID.String(), Name: r.Name(), Type: r.Kind().ARMType(), Location: r.Location,
		SKU: r.SKU, Zones: r.Zones, Tags: r.Tags, Properties: props, Assigned: assignedPaths(r),
	}
}

// childObject is an inline child as ARM nests it: name, id, type, zones
// (frontends), properties.
func childObject(r *plan.Resource) any {
	return struct {
		Name       string              `json:"name"`
		ID         string              `json:"id"`
		Type       string              `json:"type"`
		Zones      []string            `json:"zones,omitempty"`
		Properties map[string]any      `json:"properties"`
		Assigned   []plan.AssignedPath `json:"assigned_by_api_server,omitempty"`
	}{r.Name(), r.ID.String(), r.Kind().ARMType(), r.Zones, r.Properties, assignedPaths(r)}
}

// assignedPaths is plan.AssignedPaths, nil when empty so that the field is left
// out.
func assignedPaths(r *plan.Resource) []plan.AssignedPath {
	if a := plan.AssignedPaths(r); len(a) > 0 {
		return a
	}
	return nil
}

// JSON writes the state as an indented ARM JSON array; values only Azure
// can assign are null.
func JSON(w io.Writer, st *plan.State) error {
	data, err := marshal(st)
	if err != nil {
		return err
	}
	_, err = w.Write(append(data, '\n'))
	return err
}

// YAML writes the same content as JSON, as YAML.
func YAML(w io.Writer, st *plan.State) error {
	data, err := marshal(st)
	if err != nil {
		return err
	}
	out, err := yaml.JSONToYAML(data)
	if err != nil {
		return fmt.Errorf("convert resources to yaml: %w", err)
	}
	_, err = w.Write(out)
	return err
}

func marshal(st *plan.State) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(ARM(st)); err != nil {
		return nil, fmt.Errorf("encode resources: %w", err)
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}
