package service

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
	corev1 "k8s.io/api/core/v1"

	"github.com/azsvc/azsvc/plan/quote"
	"github.com/azsvc/azsvc/plan/service/internal/yamlfast"
)

// chunk is one YAML document of a file; line is the 0-based line of the
// file where it starts, offset its first byte, template the Helm template
// it was rendered from (helmTemplate), if any.
type chunk struct {
	line     int
	offset   int
	data     []byte
	template string
}

// splitDocuments cuts a multi-document stream at "---" lines, so that a
// malformed document does not hide the ones after it. The separator line
// stays at the start of its document. A JSON file is one document.
func splitDocuments(data []byte, isJSON bool) []chunk {
	if isJSON {
		return []chunk{{data: data}}
	}
	var out []chunk
	start, startLine, line := 0, 0, 0
	for i := 0; i < len(data); {
		end := bytes.IndexByte(data[i:], '\n')
		next := len(data)
		if end >= 0 {
			next = i + end + 1
		}
		if i > start && isSeparator(data[i:next]) {
			out = append(out, newChunk(startLine, start, data[start:i]))
			start, startLine = i, line
		}
		i = next
		line++
	}
	return append(out, newChunk(startLine, start, data[start:]))
}

func newChunk(line, offset int, data []byte) chunk {
	return chunk{line: line, offset: offset, data: data, template: helmTemplate(data)}
}

// at is the position of line and column of chunk c (numbered from the
// chunk's start).
func (d *decoder) at(c chunk, line, column int) Position {
	return Position{File: d.file, Line: c.line + line, Column: column, Template: c.template}
}

func isSeparator(line []byte) bool {
	if !bytes.HasPrefix(line, []byte("---")) {
		return false
	}
	rest := line[3:]
	return len(rest) == 0 || rest[0] == ' ' || rest[0] == '\t' || rest[0] == '\n' || rest[0] == '\r'
}

// decoder turns the documents of one file into Services.
type decoder struct {
	direct *directDecoder
	fast   yamlfast.Parser
	v3Only bool // every document through yaml.v3: the reference for tests
	file   string
	key    string // namespace/name of the Service being decoded, if known
	res    docResult
}

// docResult is what one document yields.
type docResult struct {
	services  []*Service
	endpoints []*PrivateEndpoint
	nodes     []*Node
	slices    []*EndpointSlice
	diags     []Diagnostic
	skipped   []SkipReason
	notLB     []SkippedService
}

var yamlLineRe = regexp.MustCompile(`line (\d+)(?:, column (\d+))?`)

func (d *decoder) errorAt(c chunk, n *yaml.Node, code, msg, hint string) {
	d.fieldErrorAt(c, n, code, "", msg, hint)
}

func (d *decoder) fieldErrorAt(c chunk, n *yaml.Node, code, field, msg, hint string) {
	pos := d.at(c, 1, 0)
	if n != nil {
		pos = d.at(c, n.Line, n.Column)
	}
	d.res.diags = append(d.res.diags, Diagnostic{Code: code, Severity: severityOf(code), Service: d.key, Pos: pos, Field: field, Message: msg, Hint: hint})
}

// group decodes consecutive documents. Those in the subset of YAML that
// yamlfast reads (nearly every manifest) are parsed by it, into the tree
// yaml.v3 would build; the runs of others go to yaml.v3 (v3Group).
func (d *decoder) group(file []byte, chunks []chunk) {
	slow := 0 // the first chunk not read yet
	for i := 0; i < len(chunks) && !d.v3Only; i++ {
		if root := d.fast.Parse(chunks[i].data); root != nil {
			d.v3Group(file, chunks[slow:i])
			d.root(chunks[i], root)
			slow = i + 1
		}
	}
	d.v3Group(file, chunks[slow:])
}

// v3Group decodes consecutive documents with one yaml.v3 stream decoder,
// which costs far less than a parser per document; if any document is
// malformed it starts over document by document, so that the others are
// still read and the error is placed in its own document.
func (d *decoder) v3Group(file []byte, chunks []chunk) {
	switch len(chunks) {
	case 0:
		return
	case 1:
		d.document(chunks[0])
		return
	}
	before := d.res
	first, last := chunks[0], chunks[len(chunks)-1]
	dec := yaml.NewDecoder(bytes.NewReader(file[first.offset : last.offset+len(last.data)]))
	for {
		var root yaml.Node
		err := dec.Decode(&root)
		if err == io.EOF {
			return
		}
		if err != nil {
			d.res = before
			for _, c := range chunks {
				d.document(c)
			}
			return
		}
		d.root(chunk{line: first.line, template: templateAt(chunks, firstLine(&root))}, &root)
	}
}

func (d *decoder) document(c chunk) {
	var root yaml.Node
	if err := yaml.Unmarshal(c.data, &root); err != nil {
		pos := d.at(c, 1, 0)
		msg := strings.TrimPrefix(err.Error(), "yaml: ")
		if m := yamlLineRe.FindStringSubmatch(msg); m != nil {
			l, _ := strconv.Atoi(m[1])
			if parserError(msg) {
				// yaml.v3 numbers a parser error's line from 0 (scanner
				// errors from 1); one found at the end of a last line
				// without a newline stands on that line.
				l = min(l+1, max(lineCount(c.data), 1))
			}
			pos.Line = c.line + l
			pos.Column, _ = strconv.Atoi(m[2])
			if pos.Column == 0 {
				pos.Column = firstColumn(c.data, l)
			}
			msg = strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(msg, m[0]), ":"))
		}
		d.res.diags = append(d.res.diags, Diagnostic{Code: CodeMalformed, Severity: SeverityError, Pos: pos,
			Message: "malformed YAML: " + msg, Hint: "fix the syntax; other documents in the file are still read"})
		return
	}
	d.root(c, &root)
}

// firstLine is the line of a document's first content node, which lies in
// the chunk the document came from (its "---" may not).
func firstLine(root *yaml.Node) int {
	if len(root.Content) > 0 {
		return root.Content[0].Line
	}
	return root.Line
}

// parserMessages are the errors libyaml's parser (not its scanner) reports:
// yaml.v3 gives their line as the 0-based line of the construct being parsed
// ("while parsing a flow mapping"), one less than where it stands.
var parserMessages = []string{
	"did not find expected <stream-start>", "did not find expected <document start>",
	"did not find expected node content", "did not find expected '-' indicator", "did not find expected key",
	"did not find expected ',' or ']'", "did not find expected ',' or '}'",
	"found duplicate %YAML directive", "found incompatible YAML document", "found duplicate %TAG directive",
	"found undefined tag handle",
}

func parserError(msg string) bool {
	return slices.ContainsFunc(parserMessages, func(p string) bool { return strings.Contains(msg, p) })
}

// root handles one parsed document.
func (d *decoder) root(c chunk, root *yaml.Node) {
	if len(root.Content) == 0 {
		return // empty document or only comments
	}
	obj := root.Content[0]
	if obj.Kind == yaml.ScalarNode && obj.Tag == "!!null" {
		return
	}
	if obj.Kind != yaml.MappingNode {
		// Not a manifest at all, e.g. a golden JSON array next to the
		// examples: skipped, as kubectl-style tools skip unrelated files.
		d.res.skipped = append(d.res.skipped, SkipNotObject)
		return
	}
	d.object(c, obj)
}

// object handles one Kubernetes object (a mapping) or List item.
func (d *decoder) object(c chunk, obj *yaml.Node) {
	if obj.Kind != yaml.MappingNode {
		d.errorAt(c, obj, CodeNotObject, "List item is not a Kubernetes object (expected a mapping with apiVersion and kind)", "make every item of the List a manifest")
		return
	}
	kind := scalar(obj, "kind")
	if items := lookup(obj, "items"); strings.HasSuffix(kind, "List") && items != nil {
		if items.Kind != yaml.SequenceNode {
			d.errorAt(c, items, CodeWrongType, "List items must be a sequence", "write items as a YAML list")
			return
		}
		for _, item := range items.Content {
			d.object(c, item)
		}
		return
	}
	switch apiVersion := scalar(obj, "apiVersion"); {
	case kind == EndpointKind && apiVersion == EndpointAPIVersion:
		d.endpoint(c, obj)
		return
	case kind == NodeKind && apiVersion == NodeAPIVersion:
		d.node(c, obj)
		return
	case kind == EndpointSliceKind && apiVersion == EndpointSliceAPIVersion:
		d.endpointSlice(c, obj)
		return
	case kind == EndpointSliceKind && apiVersion == endpointSliceV1beta1:
		d.fieldErrorAt(c, lookup(obj, "apiVersion"), CodeSliceV1beta1, "apiVersion",
			"EndpointSlice "+scalar(lookup(obj, "metadata"), "name")+" is in "+endpointSliceV1beta1+", which the API server no longer serves (removed in Kubernetes 1.25): ignored, so an externalTrafficPolicy Local Service without another slice gets every node in its multi-SLB pool",
			"write it as apiVersion: "+EndpointSliceAPIVersion+", as kubectl get endpointslices -o yaml prints it")
	}
	if kind != "Service" || scalar(obj, "apiVersion") != "v1" {
		if !d.misspeltKind(c, obj, kind, scalar(obj, "apiVersion")) {
			d.res.skipped = append(d.res.skipped, SkipNotService)
		}
		return
	}
	d.service(c, obj)
}

func (d *decoder) service(c chunk, obj *yaml.Node) {
	d.key = objectKey(obj)
	defer func() { d.key = "" }()
	d.duplicateKeys(c, obj)
	s := &Service{
		Service: &corev1.Service{},
		Source:  d.at(c, obj.Line, obj.Column),
		lazy:    &lazyPositions{root: obj, file: d.file, lineOffset: c.line, template: c.template},
	}
	// A value the API server would refuse (an unquoted 10) is reported
	// and read as the string it spells, so the rest of the Service is
	// still checked.
	d.nonStringAnnotations(c, obj)
	if d.direct == nil {
		d.direct = newDirectDecoder()
	}
	d.direct.nodes = 0
	if err := d.direct.decode(obj, reflect.ValueOf(s.Service).Elem()); err != nil {
		d.objectDecodeError(c, obj, err, "Service")
		return
	}
	if s.Name == "" {
		d.errorAt(c, obj, CodeNoName, "Service has no metadata.name", "add metadata.name; CCM names tags and rules after namespace/name")
		return
	}
	if reason := SkipReasonOf(s.Service); reason != "" {
		if reason == SkipNotLoadBalancer {
			d.res.diags = append(d.res.diags, notLoadBalancer(s)...)
		}
		d.res.skipped = append(d.res.skipped, reason)
		d.res.notLB = append(d.res.notLB, SkippedService{Namespace: s.Namespace, Name: s.Name, Reason: reason})
		return
	}
	d.res.services = append(d.res.services, s)
}

// SkipReasonOf says why CCM would not reconcile svc, or "" when it would:
// only type LoadBalancer without spec.loadBalancerClass (ccm-semantics §7.2).
func SkipReasonOf(svc *corev1.Service) SkipReason {
	switch {
	case svc.Spec.Type != corev1.ServiceTypeLoadBalancer:
		return SkipNotLoadBalancer
	case svc.Spec.LoadBalancerClass != nil:
		return SkipLoadBalancerClass
	}
	return ""
}

// objectKey is namespace/name from the YAML tree, or "" without a name.
func objectKey(obj *yaml.Node) string {
	meta := lookup(obj, "metadata")
	name := scalar(meta, "name")
	if name == "" {
		return ""
	}
	ns := scalar(meta, "namespace")
	if ns == "" {
		ns = "default"
	}
	return ns + "/" + name
}

// nonStringAnnotations reports annotation values that are not YAML strings
// (an unquoted 10 or true), which the API server rejects. So that the rest
// of the Service is still checked, a scalar is then read as the string it
// spells (10 as "10") and a list or mapping is left out.
func (d *decoder) nonStringAnnotations(c chunk, obj *yaml.Node) {
	ann := lookup(lookup(obj, "metadata"), "annotations")
	if ann == nil || ann.Kind != yaml.MappingNode {
		return
	}
	var dropped []int
	for i := 0; i+1 < len(ann.Content); i += 2 {
		if ann.Content[i].Tag == "!!merge" {
			continue // merged values are type-checked by the decoder
		}
		v := ann.Content[i+1]
		if v.Kind == yaml.AliasNode && v.Alias != nil {
			v = v.Alias
		}
		if v.Kind == yaml.ScalarNode && v.Tag == "!!str" {
			continue
		}
		d.fieldErrorAt(c, v, CodeNonStringValue, AnnotationPath(ann.Content[i].Value),
			fmt.Sprintf("annotation %s: value must be a string, got %s", shownKey(ann.Content[i].Value), yamlKind(v)),
			"quote the value: "+quote.Value(v.Value))
		if v.Kind != yaml.ScalarNode {
			dropped = append(dropped, i)
			continue
		}
		str := *v
		str.Tag, str.Style = "!!str", yaml.DoubleQuotedStyle
		ann.Content[i+1] = &str
	}
	for j := len(dropped) - 1; j >= 0; j-- {
		ann.Content = slices.Delete(ann.Content, dropped[j], dropped[j]+2)
	}
}

func yamlKind(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.AliasNode:
		return "an alias"
	}
	return strings.TrimPrefix(n.Tag, "!!")
}

// objectDecodeError turns a decode failure of a kind object into a
// diagnostic at the offending node.
func (d *decoder) objectDecodeError(c chunk, obj *yaml.Node, err error, kind string) {
	var te *nodeTypeError
	if !errors.As(err, &te) {
		d.errorAt(c, obj, CodeWrongType, "cannot decode "+kind+": "+err.Error(), "")
		return
	}
	field := pathTo(obj, te.node, "")
	got := te.got
	if te.node.Kind == yaml.ScalarNode {
		got += " " + quote.Value(te.node.Value)
	}
	d.fieldErrorAt(c, te.node, CodeWrongType, field, fmt.Sprintf("%s: expected %s, got %s", field, te.want, got), typeHint(te.want))
}

// childPath is the path of key under the mapping at: keys of the maps
// whose keys are data (annotations, labels, selector) are quoted whole,
// since they hold dots and slashes (see Service.positions).
func childPath(at, key string) string {
	if at == "metadata.annotations" || at == "metadata.labels" || at == "spec.selector" {
		return at + "[" + strconv.Quote(key) + "]"
	}
	return join(at, key)
}

// pathTo is the field path of target inside n (see Service.positions).
func pathTo(n, target *yaml.Node, at string) string {
	if n == target {
		return at
	}
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			child := childPath(at, n.Content[i].Value)
			if p := pathTo(n.Content[i+1], target, child); p != "" {
				return p
			}
		}
	case yaml.SequenceNode:
		for i, item := range n.Content {
			if p := pathTo(item, target, at+"["+strconv.Itoa(i)+"]"); p != "" {
				return p
			}
		}
	}
	return ""
}

// typeHint says how to write a value of type t.
func typeHint(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "quote the value"
	case reflect.Bool:
		return "write true or false, without quotes"
	case reflect.Slice:
		return "write a YAML list"
	case reflect.Struct, reflect.Map:
		return "write a mapping of fields"
	}
	return "write a whole number, without quotes"
}

// firstColumn is the 1-based column of the first non-blank character of a
// 1-based line of data, or 0.
// lineCount is the number of lines in data, a last one without a newline
// included.
func lineCount(data []byte) int {
	n := bytes.Count(data, []byte{'\n'})
	if len(data) > 0 && data[len(data)-1] != '\n' {
		n++
	}
	return n
}

func firstColumn(data []byte, line int) int {
	for i := 1; i < line; i++ {
		nl := bytes.IndexByte(data, '\n')
		if nl < 0 {
			return 0
		}
		data = data[nl+1:]
	}
	for i, b := range data {
		switch b {
		case ' ', '\t':
			continue
		case '\n', '\r':
			return 0
		}
		return i + 1
	}
	return 0
}
