package service

import (
	"errors"
	"fmt"
	"net/netip"
	"reflect"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"

	"github.com/azsvc/azsvc/plan/quote"
)

// node decodes a Node (v1) strictly: a field Node does not have is an
// error, as the API server's strict field validation makes it.
func (d *decoder) node(c chunk, obj *yaml.Node) {
	d.duplicateKeys(c, obj)
	n := &Node{Node: &corev1.Node{}, Source: d.at(c, obj.Line, obj.Column)}
	if !d.strictDecode(c, obj, n.Node, NodeKind) {
		return
	}
	if n.Name == "" {
		d.errorAt(c, obj, CodeTopologyNoName, "Node has no metadata.name",
			"add metadata.name: CCM names the members of IP-based backend pools after their node")
		return
	}
	ok := true
	for i, a := range n.Status.Addresses {
		if a.Type != corev1.NodeInternalIP {
			continue
		}
		if _, err := netip.ParseAddr(a.Address); err != nil {
			ok = false
			field := "status.addresses[" + strconv.Itoa(i) + "].address"
			d.fieldErrorAt(c, nodeAtPath(obj, field), CodeNotAnAddress, field,
				fmt.Sprintf("Node %s: InternalIP %s is not an IP address", n.Name, quote.Value(a.Address)),
				"write the node's private address, as the kubelet reports it (e.g. 10.224.0.4)")
		}
	}
	if ok {
		d.res.nodes = append(d.res.nodes, n)
	}
}

// endpointSlice decodes an EndpointSlice (discovery.k8s.io/v1) strictly.
func (d *decoder) endpointSlice(c chunk, obj *yaml.Node) {
	d.duplicateKeys(c, obj)
	e := &EndpointSlice{EndpointSlice: &discoveryv1.EndpointSlice{}, Source: d.at(c, obj.Line, obj.Column)}
	if !d.strictDecode(c, obj, e.EndpointSlice, EndpointSliceKind) {
		return
	}
	if e.Name == "" {
		d.errorAt(c, obj, CodeTopologyNoName, "EndpointSlice has no metadata.name", "add metadata.name")
		return
	}
	if !d.checkSlice(c, obj, e) {
		return
	}
	for i, ep := range e.Endpoints {
		if ep.NodeName == nil {
			continue
		}
		if e.nodeNameAt == nil {
			e.nodeNameAt = make([]Position, len(e.Endpoints))
		}
		n := nodeAtPath(obj, "endpoints["+strconv.Itoa(i)+"].nodeName")
		e.nodeNameAt[i] = d.at(c, n.Line, n.Column)
	}
	if e.ServiceKey() == "" {
		d.fieldErrorAt(c, nodeAtPath(obj, "metadata"), CodeSliceWithoutName, "metadata.labels",
			fmt.Sprintf("EndpointSlice %s has no %s label: CCM does not tie it to a Service, so its endpoints place no node in a backend pool", e.Key(), ServiceNameLabel),
			"label it "+ServiceNameLabel+": <Service name>, as the EndpointSlice controller does")
	}
	d.res.slices = append(d.res.slices, e)
}

// checkSlice reports an addressType the API server refuses and addresses
// that are not IPs of it.
func (d *decoder) checkSlice(c chunk, obj *yaml.Node, e *EndpointSlice) bool {
	switch e.AddressType {
	case discoveryv1.AddressTypeIPv4, discoveryv1.AddressTypeIPv6:
	case discoveryv1.AddressTypeFQDN:
		return true
	default:
		d.fieldErrorAt(c, nodeAtPath(obj, "addressType"), CodeAddressType, "addressType",
			fmt.Sprintf("EndpointSlice %s: addressType %s is not IPv4, IPv6 or FQDN", e.Key(), quote.Value(string(e.AddressType))),
			"write addressType: IPv4 (or IPv6, FQDN)")
		return false
	}
	ok := true
	for i, ep := range e.Endpoints {
		for j, a := range ep.Addresses {
			if addr, err := netip.ParseAddr(a); err == nil && addr.Is4() == (e.AddressType == discoveryv1.AddressTypeIPv4) {
				continue
			}
			ok = false
			field := fmt.Sprintf("endpoints[%d].addresses[%d]", i, j)
			d.fieldErrorAt(c, nodeAtPath(obj, field), CodeNotAnAddress, field,
				fmt.Sprintf("EndpointSlice %s: %s is not an %s address", e.Key(), quote.Value(a), e.AddressType),
				"write the endpoint's "+string(e.AddressType)+" address, or fix addressType")
		}
	}
	return ok
}

// strictDecode fills v from obj, refusing unknown fields; problems become
// diagnostics at the offending node.
func (d *decoder) strictDecode(c chunk, obj *yaml.Node, v any, kind string) bool {
	if d.direct == nil {
		d.direct = newDirectDecoder()
	}
	d.direct.nodes, d.direct.strict = 0, true
	defer func() { d.direct.strict = false }()
	err := d.direct.decode(obj, reflect.ValueOf(v).Elem())
	if err == nil {
		return true
	}
	var unknown *unknownFieldError
	if !errors.As(err, &unknown) {
		d.objectDecodeError(c, obj, err, kind)
		return false
	}
	field := pathTo(obj, unknown.value, "")
	msg := fmt.Sprintf("unknown field %s in %s", quote.Text(field), kind)
	hint := "remove it: " + kind + " " + apiVersionOf(kind) + " has no such field"
	if best, ok := closest(unknown.key.Value, unknown.known); ok {
		msg += "; did you mean " + best + "?"
		hint = "rename the field to " + best
	}
	d.fieldErrorAt(c, unknown.key, CodeUnknownObjField, field, msg, hint)
	return false
}

// apiVersionOf is the API version azsvc reads kind in.
func apiVersionOf(kind string) string {
	if kind == EndpointSliceKind {
		return EndpointSliceAPIVersion
	}
	return NodeAPIVersion
}

// nodeAtPath finds the YAML node of a field path (a.b[2].c) inside obj,
// or the deepest one found on the way.
func nodeAtPath(obj *yaml.Node, path string) *yaml.Node {
	n := obj
	for _, seg := range strings.Split(path, ".") {
		name, rest, _ := strings.Cut(seg, "[")
		if name != "" {
			next := lookup(n, name)
			if next == nil {
				return n
			}
			n = next
		}
		for rest != "" {
			idx, after, _ := strings.Cut(rest, "]")
			i, err := strconv.Atoi(idx)
			if err != nil || n.Kind != yaml.SequenceNode || i >= len(n.Content) {
				return n
			}
			n = n.Content[i]
			rest = strings.TrimPrefix(after, "[")
		}
	}
	return n
}
