package service

import (
	"fmt"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/quote"
)

// The fields a PrivateEndpoint may have, per mapping. Decoding is strict:
// any other key is reported with a did-you-mean, as unknown annotations
// are, since a misspelt field would silently change what gets built.
var (
	endpointTopFields  = []string{"apiVersion", "kind", "metadata", "spec", "status"}
	endpointMetaFields = []string{"name", "namespace", "labels", "annotations", "uid", "resourceVersion",
		"generation", "creationTimestamp", "deletionTimestamp", "deletionGracePeriodSeconds", "ownerReferences",
		"finalizers", "generateName", "managedFields", "selfLink"}
	endpointSpecFields = []string{"service", "privateLinkServiceID", "subnetID", "resourceGroup", "name",
		"manualApproval", "requestMessage", "approve", "dns"}
	endpointDNSFields = []string{"zone", "records", "ttl", "vnetLinks"}
)

// maxTTL is the largest DNS TTL Azure accepts (a signed 32-bit number).
const maxTTL = 2147483647

// endpointDecoder reads one PrivateEndpoint object from its YAML tree.
type endpointDecoder struct {
	d     *decoder
	c     chunk
	ep    *PrivateEndpoint
	bad   bool // a field could not be read: the object is not taken
	nodes int
}

// endpoint decodes a PrivateEndpoint object (apiVersion azsvc.io/v1alpha1).
func (d *decoder) endpoint(c chunk, obj *yaml.Node) {
	d.key = objectKey(obj)
	if d.key != "" {
		d.key = plan.EndpointOwner(d.key)
	}
	defer func() { d.key = "" }()
	d.duplicateKeys(c, obj) // the second value would win without a word
	ep := &PrivateEndpoint{Source: d.at(c, obj.Line, obj.Column)}
	idx := &positionIndex{file: d.file, lineOffset: c.line, template: c.template, m: map[string]Position{}}
	idx.walk("", nil, obj)
	ep.positions = idx.m
	x := &endpointDecoder{d: d, c: c, ep: ep}
	x.fields(obj, "", endpointTopFields, x.top)
	switch {
	case ep.Name == "" && !x.bad:
		d.errorAt(c, obj, CodeMissingField, "PrivateEndpoint has no metadata.name", "add metadata.name; azsvc names the endpoint after it")
		return
	case ep.Spec.SubnetID == "" && !x.bad:
		d.fieldErrorAt(c, x.nodeAt(obj, "spec"), CodeMissingField, "spec.subnetID",
			"PrivateEndpoint "+quote.Text(ep.Key())+" has no spec.subnetID", "set spec.subnetID to the ID of the subnet the endpoint goes in")
		return
	case x.bad:
		return
	}
	d.res.endpoints = append(d.res.endpoints, ep)
}

// nodeAt is the value of key in m, or m itself when absent.
func (x *endpointDecoder) nodeAt(m *yaml.Node, key string) *yaml.Node {
	if n := lookup(m, key); n != nil {
		return n
	}
	return m
}

func (x *endpointDecoder) errorAt(n *yaml.Node, code, field, msg, hint string) {
	x.d.fieldErrorAt(x.c, n, code, field, msg, hint)
}

func (x *endpointDecoder) wrongType(n *yaml.Node, path, want string) {
	got := yamlKind(n)
	if n.Kind == yaml.ScalarNode {
		got += " " + quote.Value(n.Value)
	}
	hint := map[string]string{"a string": "quote the value", "true or false": "write true or false, without quotes",
		"a whole number": "write a whole number, without quotes", "a list": "write a YAML list",
		"a mapping": "write a mapping of fields"}[want]
	x.errorAt(n, CodeWrongType, path, fmt.Sprintf("%s: expected %s, got %s", path, want, got), hint)
	x.bad = true
}

// deref follows an alias, counting nodes so that an alias bomb stops.
func (x *endpointDecoder) deref(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	x.nodes++
	return n
}

// fields walks the mapping m at path, reporting keys not in known and
// calling field for the others.
func (x *endpointDecoder) fields(m *yaml.Node, path string, known []string, field func(key, path string, v *yaml.Node)) {
	m = x.deref(m)
	if m == nil || m.Kind == yaml.ScalarNode && m.ShortTag() == "!!null" {
		return
	}
	if m.Kind != yaml.MappingNode {
		x.wrongType(m, orTop(path), "a mapping")
		return
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if x.nodes > maxJSONNodes {
			x.errorAt(m, CodeWrongType, path, "PrivateEndpoint "+errTooLarge.Error(), "remove the YAML aliases")
			x.bad = true
			return
		}
		k := m.Content[i]
		child := join(path, k.Value)
		if !contains(known, k.Value) {
			x.unknown(k, child, known)
			continue
		}
		field(k.Value, child, x.deref(m.Content[i+1]))
	}
}

func orTop(path string) string {
	if path == "" {
		return EndpointKind
	}
	return path
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func (x *endpointDecoder) unknown(k *yaml.Node, path string, known []string) {
	msg := fmt.Sprintf("unknown field %s in PrivateEndpoint", quote.Text(path))
	hint := "the fields here are " + strings.Join(known, ", ")
	best, ok := "", false
	for _, f := range known {
		if strings.EqualFold(f, k.Value) {
			best, ok = f, true
		}
	}
	if !ok {
		best, ok = closest(k.Value, known)
	}
	if ok {
		msg += "; did you mean " + best + "?"
		hint = "rename the field to " + best
	}
	x.errorAt(k, CodeUnknownField, path, msg, hint)
}

func (x *endpointDecoder) top(key, path string, v *yaml.Node) {
	switch key {
	case "metadata":
		x.fields(v, path, endpointMetaFields, x.meta)
	case "spec":
		x.fields(v, path, endpointSpecFields, x.spec)
	}
}

func (x *endpointDecoder) meta(key, path string, v *yaml.Node) {
	switch key {
	case "name":
		x.str(v, path, &x.ep.Name)
	case "namespace":
		x.str(v, path, &x.ep.Namespace)
	}
}

func (x *endpointDecoder) spec(key, path string, v *yaml.Node) {
	s := &x.ep.Spec
	switch key {
	case "service":
		x.str(v, path, &s.Service)
	case "privateLinkServiceID":
		x.str(v, path, &s.PrivateLinkServiceID)
	case "subnetID":
		x.str(v, path, &s.SubnetID)
	case "resourceGroup":
		x.str(v, path, &s.ResourceGroup)
	case "name":
		x.str(v, path, &s.Name)
	case "requestMessage":
		x.str(v, path, &s.RequestMessage)
	case "manualApproval":
		x.boolean(v, path, &s.ManualApproval)
	case "approve":
		x.boolean(v, path, &s.Approve)
	case "dns":
		x.dns(v, path)
	}
}

func (x *endpointDecoder) dns(v *yaml.Node, path string) {
	if isNull(v) {
		return
	}
	if v.Kind != yaml.SequenceNode {
		x.wrongType(v, path, "a list")
		return
	}
	for i, item := range v.Content {
		var d EndpointDNS
		x.fields(item, path+"["+strconv.Itoa(i)+"]", endpointDNSFields, func(key, p string, n *yaml.Node) {
			switch key {
			case "zone":
				x.str(n, p, &d.Zone)
			case "records":
				x.strList(n, p, &d.Records)
			case "ttl":
				x.ttl(n, p, &d.TTL)
			case "vnetLinks":
				x.strList(n, p, &d.VNetLinks)
				if d.VNetLinks == nil {
					d.VNetLinks = []string{}
				}
			}
		})
		x.ep.Spec.DNS = append(x.ep.Spec.DNS, d)
	}
}

func isNull(n *yaml.Node) bool { return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null" }

func (x *endpointDecoder) str(v *yaml.Node, path string, out *string) {
	switch {
	case isNull(v):
	case v.Kind == yaml.ScalarNode && v.ShortTag() == "!!str":
		*out = v.Value
	default:
		x.wrongType(v, path, "a string")
	}
}

func (x *endpointDecoder) boolean(v *yaml.Node, path string, out *bool) {
	switch {
	case isNull(v):
	case v.Kind == yaml.ScalarNode && v.ShortTag() == "!!bool":
		*out = strings.EqualFold(v.Value, "true")
	default:
		x.wrongType(v, path, "true or false")
	}
}

func (x *endpointDecoder) strList(v *yaml.Node, path string, out *[]string) {
	if isNull(v) {
		return
	}
	if v.Kind != yaml.SequenceNode {
		x.wrongType(v, path, "a list")
		return
	}
	list := make([]string, 0, len(v.Content))
	for i, item := range v.Content {
		var s string
		x.str(x.deref(item), path+"["+strconv.Itoa(i)+"]", &s)
		list = append(list, s)
	}
	*out = list
}

// ttl reads a TTL and checks its range here, where 0 and unset differ.
func (x *endpointDecoder) ttl(v *yaml.Node, path string, out *int64) {
	if isNull(v) {
		return
	}
	if v.Kind != yaml.ScalarNode || v.ShortTag() != "!!int" {
		x.wrongType(v, path, "a whole number")
		return
	}
	n, err := strconv.ParseInt(v.Value, 0, 64)
	if err != nil || n < 1 || n > maxTTL {
		x.errorAt(v, CodeTTLRange, path, fmt.Sprintf("%s is %s: a DNS TTL is 1 to %d seconds", path, quote.Text(v.Value), maxTTL),
			fmt.Sprintf("use a TTL in seconds, e.g. %d", DefaultTTL))
		return
	}
	*out = n
}
