package service

import (
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/azsvc/azsvc/plan/quote"
)

// readKinds are the kinds azsvc reads, with the apiVersion it reads each
// in. A document that misses one by a typo is skipped like any other
// object, so a misspelt PrivateEndpoint would vanish from the input and
// --prune would delete what it declares: such near misses are errors.
var readKinds = []struct{ kind, apiVersion string }{
	{"Service", "v1"},
	{EndpointKind, EndpointAPIVersion},
	{NodeKind, NodeAPIVersion},
	{EndpointSliceKind, EndpointSliceAPIVersion},
}

// misspeltKind reports (as an error diagnostic) an object whose kind is a
// near miss of one azsvc reads, or that is in azsvc's own API group under a
// version or kind it does not know. Other objects are not azsvc's: false.
func (d *decoder) misspeltKind(c chunk, obj *yaml.Node, kind, apiVersion string) bool {
	name := scalar(lookup(obj, "metadata"), "name")
	if group, _, _ := strings.Cut(apiVersion, "/"); group == "azsvc.io" && kind == EndpointKind && apiVersion != EndpointAPIVersion {
		d.fieldErrorAt(c, lookup(obj, "apiVersion"), CodeMisspeltKind, "apiVersion",
			EndpointKind+" "+quote.Text(name)+" is in "+quote.Text(apiVersion)+", which azsvc does not read, and would be left out of the plan",
			"write apiVersion: "+EndpointAPIVersion)
		return true
	} else if group == "azsvc.io" && !nearKind(kind, EndpointKind) {
		d.fieldErrorAt(c, lookup(obj, "kind"), CodeMisspeltKind, "kind",
			"kind "+quote.Text(kind)+" of "+quote.Text(apiVersion)+" is not one azsvc reads, and "+quote.Text(name)+" would be left out of the plan",
			"azsvc.io has one kind: "+EndpointKind+" ("+EndpointAPIVersion+")")
		return true
	}
	for _, k := range readKinds {
		if kind != k.kind && nearKind(kind, k.kind) {
			d.fieldErrorAt(c, lookup(obj, "kind"), CodeMisspeltKind, "kind",
				"kind "+quote.Text(kind)+" is not a kind azsvc reads, and "+quote.Text(name)+" would be left out of the plan",
				"did you mean kind: "+k.kind+" (apiVersion: "+k.apiVersion+")?")
			return true
		}
	}
	return false
}

// nearKind: the same but for case, or, for kinds long enough that two
// edits cannot make another real kind, within two edits (Node is two
// edits from Role; PrivateEndPoint is one from PrivateEndpoint).
func nearKind(kind, known string) bool {
	if strings.EqualFold(kind, known) {
		return true
	}
	return len(known) >= 10 && editDistance(strings.ToLower(kind), strings.ToLower(known)) <= 2
}
