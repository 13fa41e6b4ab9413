package service

import (
	"encoding"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// directDecoder fills a Go value from a YAML node tree with the semantics of
// json.Unmarshal(toJSON(node), &v), without building the JSON text: decoding
// 5,000 Services spends most of its time in YAML parsing and JSON decoding,
// and this removes the latter. Types with their own JSON decoding (metav1.Time,
// IntOrString, ...) and anything unusual go through the JSON route, so the
// result is always what encoding/json would give; FuzzLoad checks that.
type directDecoder struct {
	fields map[reflect.Type]map[string][]int
	custom map[reflect.Type]bool
	nodes  int
	// strict refuses fields the Go type does not have and matches names
	// exactly, as the API server's strict field validation does (Nodes and
	// EndpointSlices; Services keep encoding/json's leniency, which the
	// annotation checks make up for).
	strict bool
}

// unknownFieldError is a mapping key the type has no field for (strict).
type unknownFieldError struct {
	key, value *yaml.Node
	known      []string
}

func (e *unknownFieldError) Error() string { return "unknown field " + strconv.Quote(e.key.Value) }

func newDirectDecoder() *directDecoder {
	return &directDecoder{fields: map[reflect.Type]map[string][]int{}, custom: map[reflect.Type]bool{}}
}

// nodeTypeError is a value of the wrong kind at a node.
type nodeTypeError struct {
	node *yaml.Node
	want reflect.Type
	got  string // JSON kind: string, number, bool, array, object
}

func (e *nodeTypeError) Error() string {
	return fmt.Sprintf("cannot unmarshal %s into %s", e.got, e.want)
}

var (
	jsonUnmarshalerType = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
)

func (d *directDecoder) decode(n *yaml.Node, v reflect.Value) error {
	d.nodes++
	if d.nodes > maxJSONNodes {
		return errTooLarge
	}
	if n.Kind == yaml.AliasNode {
		return d.decode(n.Alias, v)
	}
	t := v.Type()
	custom, known := d.custom[t]
	if !known {
		custom = customDecoding(t)
		d.custom[t] = custom
	}
	if custom || n.Kind == yaml.MappingNode && hasMerge(n) {
		return d.viaJSON(n, v)
	}
	if n.ShortTag() == "!!null" && n.Kind == yaml.ScalarNode {
		switch t.Kind() {
		case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Interface:
			v.SetZero()
		}
		return nil
	}
	switch t.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			v.Set(reflect.New(t.Elem()))
		}
		return d.decode(n, v.Elem())
	case reflect.Struct:
		return d.object(n, v)
	case reflect.Map:
		return d.mapping(n, v)
	case reflect.Slice:
		return d.slice(n, v)
	case reflect.String, reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		if n.Kind != yaml.ScalarNode {
			return &nodeTypeError{node: n, want: t, got: jsonKind(n)}
		}
		return d.scalar(n, v)
	}
	return d.viaJSON(n, v)
}

// customDecoding reports types encoding/json decodes through their own
// methods, or that this decoder leaves to it.
func customDecoding(t reflect.Type) bool {
	if t.Kind() == reflect.Pointer {
		return false // decided at the element
	}
	pt := reflect.PointerTo(t)
	return pt.Implements(jsonUnmarshalerType) || pt.Implements(textUnmarshalerType) ||
		t.Kind() == reflect.Array || t.Kind() == reflect.Interface
}

func hasMerge(n *yaml.Node) bool {
	for i := 0; i < len(n.Content); i += 2 {
		if n.Content[i].Tag == "!!merge" {
			return true
		}
	}
	return false
}

// viaJSON decodes a subtree the slow, reference way.
func (d *directDecoder) viaJSON(n *yaml.Node, v reflect.Value) error {
	var data []byte
	if n.Kind == yaml.ScalarNode { // e.g. targetPort: a small literal
		var buf [64]byte
		data = appendLiteral(buf[:0], n)
	} else {
		var err error
		if data, err = toJSON(n); err != nil {
			return err
		}
	}
	if err := json.Unmarshal(data, v.Addr().Interface()); err != nil {
		return &nodeTypeError{node: n, want: v.Type(), got: jsonKind(n)}
	}
	return nil
}

func (d *directDecoder) object(n *yaml.Node, v reflect.Value) error {
	if n.Kind != yaml.MappingNode {
		return &nodeTypeError{node: n, want: v.Type(), got: jsonKind(n)}
	}
	fields := d.fieldsOf(v.Type())
	for i := 0; i+1 < len(n.Content); i += 2 {
		index, ok := d.lookupField(fields, keyText(n.Content[i]))
		if !ok && d.strict && n.Content[i].Tag != "!!merge" {
			return &unknownFieldError{key: n.Content[i], value: n.Content[i+1], known: fieldNames(fields)}
		}
		if !ok {
			if err := d.skip(n.Content[i+1]); err != nil {
				return err
			}
			continue
		}
		f, err := fieldByIndex(v, index)
		if err != nil {
			return err
		}
		if err := d.decode(n.Content[i+1], f); err != nil {
			return err
		}
	}
	return nil
}

// skip checks an unknown field's value as encoding/json would parse it.
func (d *directDecoder) skip(n *yaml.Node) error {
	_, err := toJSON(n)
	return err
}

// lookupField prefers an exact name and accepts a case-insensitive one, as
// encoding/json does; strict decoding takes only the exact name.
func (d *directDecoder) lookupField(fields map[string][]int, name string) ([]int, bool) {
	if index, ok := fields[name]; ok || d.strict {
		return index, ok
	}
	for k, index := range fields {
		if strings.EqualFold(k, name) {
			return index, true
		}
	}
	return nil, false
}

func fieldNames(fields map[string][]int) []string {
	out := make([]string, 0, len(fields))
	for k := range fields {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// fieldByIndex walks to a (possibly promoted) field, allocating embedded
// pointers on the way.
func fieldByIndex(v reflect.Value, index []int) (reflect.Value, error) {
	for i, x := range index {
		if i > 0 && v.Kind() == reflect.Pointer {
			if v.IsNil() {
				if !v.CanSet() {
					return v, fmt.Errorf("cannot set embedded pointer to unexported struct %v", v.Type().Elem())
				}
				v.Set(reflect.New(v.Type().Elem()))
			}
			v = v.Elem()
		}
		v = v.Field(x)
	}
	return v, nil
}

// fieldsOf indexes a struct's JSON field names, promoting the fields of
// embedded structs without a name, shallowest first.
func (d *directDecoder) fieldsOf(t reflect.Type) map[string][]int {
	if f, ok := d.fields[t]; ok {
		return f
	}
	out := map[string][]int{}
	depth := map[string]int{}
	var walk func(t reflect.Type, prefix []int)
	walk = func(t reflect.Type, prefix []int) {
		for i := range t.NumField() {
			sf := t.Field(i)
			tag := sf.Tag.Get("json")
			if tag == "-" {
				continue
			}
			name, _, _ := strings.Cut(tag, ",")
			index := append(append([]int(nil), prefix...), i)
			ft := sf.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if sf.Anonymous && name == "" && ft.Kind() == reflect.Struct {
				walk(ft, index)
				continue
			}
			if !sf.IsExported() {
				continue
			}
			if name == "" {
				name = sf.Name
			}
			if dd, seen := depth[name]; !seen || len(index) < dd {
				out[name], depth[name] = index, len(index)
			}
		}
	}
	walk(t, nil)
	d.fields[t] = out
	return out
}

func (d *directDecoder) mapping(n *yaml.Node, v reflect.Value) error {
	t := v.Type()
	if t.Key().Kind() != reflect.String || reflect.PointerTo(t.Key()).Implements(textUnmarshalerType) {
		return d.viaJSON(n, v)
	}
	if n.Kind != yaml.MappingNode {
		return &nodeTypeError{node: n, want: t, got: jsonKind(n)}
	}
	if v.IsNil() {
		v.Set(reflect.MakeMap(t))
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		elem := reflect.New(t.Elem()).Elem()
		if err := d.decode(n.Content[i+1], elem); err != nil {
			return err
		}
		key := reflect.New(t.Key()).Elem()
		key.SetString(keyText(n.Content[i]))
		v.SetMapIndex(key, elem)
	}
	return nil
}

// slice follows encoding/json: existing elements are decoded into, the
// length is set to the number of items, and an empty list is an empty,
// non-nil slice.
func (d *directDecoder) slice(n *yaml.Node, v reflect.Value) error {
	if n.Kind != yaml.SequenceNode {
		return &nodeTypeError{node: n, want: v.Type(), got: jsonKind(n)}
	}
	if v.Type().Elem().Kind() == reflect.Uint8 {
		return d.viaJSON(n, v) // []byte is base64 in JSON
	}
	for i, item := range n.Content {
		if i >= v.Cap() {
			v.Grow(1)
		}
		if i >= v.Len() {
			v.SetLen(i + 1)
		}
		if err := d.decode(item, v.Index(i)); err != nil {
			return err
		}
	}
	if len(n.Content) < v.Len() {
		v.SetLen(len(n.Content))
	}
	if len(n.Content) == 0 {
		v.Set(reflect.MakeSlice(v.Type(), 0, 0))
	}
	return nil
}

// scalar stores a scalar the way encoding/json stores the JSON literal that
// toJSON writes for it. The common cases avoid building the literal.
func (d *directDecoder) scalar(n *yaml.Node, v reflect.Value) error {
	tag := n.ShortTag()
	switch {
	case tag == "!!str" && v.Kind() == reflect.String && utf8.ValidString(n.Value):
		v.SetString(n.Value)
		return nil
	case tag == "!!bool" && v.Kind() == reflect.Bool:
		v.SetBool(strings.EqualFold(n.Value, "true"))
		return nil
	case tag == "!!int" && v.CanInt():
		if i, err := parseYAMLInt(n.Value); err == nil {
			if v.OverflowInt(i) {
				return &nodeTypeError{node: n, want: v.Type(), got: "number"}
			}
			v.SetInt(i)
			return nil
		}
	}
	return d.literal(n, v, string(appendLiteral(nil, n)))
}

// literal is encoding/json's literalStore for a JSON literal.
func (d *directDecoder) literal(n *yaml.Node, v reflect.Value, lit string) error {
	bad := &nodeTypeError{node: n, want: v.Type(), got: jsonKind(n)}
	switch v.Kind() {
	case reflect.String:
		if lit[0] != '"' {
			return bad
		}
		var s string
		if err := json.Unmarshal([]byte(lit), &s); err != nil {
			return bad
		}
		v.SetString(s)
	case reflect.Bool:
		if lit != "true" && lit != "false" {
			return bad
		}
		v.SetBool(lit == "true")
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		i, err := strconv.ParseInt(lit, 10, 64)
		if err != nil || v.OverflowInt(i) {
			return bad
		}
		v.SetInt(i)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		u, err := strconv.ParseUint(lit, 10, 64)
		if err != nil || v.OverflowUint(u) {
			return bad
		}
		v.SetUint(u)
	default:
		f, err := strconv.ParseFloat(lit, v.Type().Bits())
		if lit[0] == '"' || err != nil || v.OverflowFloat(f) {
			return bad
		}
		v.SetFloat(f)
	}
	return nil
}

// jsonKind names a node's JSON kind, as encoding/json reports it.
func jsonKind(n *yaml.Node) string {
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	switch n.Kind {
	case yaml.MappingNode:
		return "object"
	case yaml.SequenceNode:
		return "array"
	}
	switch lit := appendLiteral(nil, n); {
	case lit[0] == '"':
		return "string"
	case string(lit) == "true" || string(lit) == "false":
		return "bool"
	case string(lit) == "null":
		return "null"
	}
	return "number"
}
