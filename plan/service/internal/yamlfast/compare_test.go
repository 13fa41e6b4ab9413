package yamlfast

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"go.yaml.in/yaml/v3"
)

// parseV3 is the reference: the only document yaml.v3's stream decoder
// reads from data. A panic inside yaml.v3 counts as a rejection.
func parseV3(data []byte) (root *yaml.Node, err error) {
	defer func() {
		if r := recover(); r != nil {
			root, err = nil, fmt.Errorf("yaml.v3 panicked: %v", r)
		}
	}()
	dec := yaml.NewDecoder(bytes.NewReader(data))
	root = &yaml.Node{}
	if err := dec.Decode(root); err != nil {
		return nil, err
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("a second document (error %v)", err)
	}
	return root, nil
}

// unmarshalV3 is what yaml.Unmarshal, the per-document path, gives.
func unmarshalV3(data []byte) (root *yaml.Node, err error) {
	defer func() {
		if r := recover(); r != nil {
			root, err = nil, fmt.Errorf("yaml.v3 panicked: %v", r)
		}
	}()
	root = &yaml.Node{}
	return root, yaml.Unmarshal(data, root)
}

// diffNodes describes the first difference between two trees, comments
// aside, or returns "".
func diffNodes(want, got *yaml.Node, at string) string {
	switch {
	case want == nil && got == nil:
		return ""
	case want == nil || got == nil:
		return fmt.Sprintf("%s: want %v, got %v", at, want, got)
	}
	type fields struct {
		Kind         yaml.Kind
		Style        yaml.Style
		Tag, Value   string
		Anchor       string
		Alias        *yaml.Node
		Line, Column int
		Children     int
	}
	w := fields{want.Kind, want.Style, want.Tag, want.Value, want.Anchor, want.Alias, want.Line, want.Column, len(want.Content)}
	g := fields{got.Kind, got.Style, got.Tag, got.Value, got.Anchor, got.Alias, got.Line, got.Column, len(got.Content)}
	if w != g {
		return fmt.Sprintf("%s:\n want %+v\n  got %+v", at, w, g)
	}
	if (want.Content == nil) != (got.Content == nil) {
		return fmt.Sprintf("%s: want Content nil %v, got nil %v", at, want.Content == nil, got.Content == nil)
	}
	for i := range want.Content {
		if d := diffNodes(want.Content[i], got.Content[i], fmt.Sprintf("%s/%d", at, i)); d != "" {
			return d
		}
	}
	return ""
}

// checkMatchesV3 parses data with both parsers and describes any way in
// which the fast one is wrong: it accepted what yaml.v3 rejects, or built
// another tree. Declining is never wrong.
func checkMatchesV3(data []byte) (accepted bool, problem string) {
	var p Parser
	got := p.Parse(data)
	if got == nil {
		return false, ""
	}
	if hasComments(got) {
		return true, "the fast parser kept a comment"
	}
	want, err := parseV3(data)
	if err != nil {
		return true, fmt.Sprintf("accepted what yaml.v3's decoder rejects: %v", err)
	}
	if d := diffNodes(want, got, "doc"); d != "" {
		return true, "tree differs from yaml.v3's decoder at " + d
	}
	want, err = unmarshalV3(data)
	if err != nil {
		return true, fmt.Sprintf("accepted what yaml.Unmarshal rejects: %v", err)
	}
	if d := diffNodes(want, got, "doc"); d != "" {
		return true, "tree differs from yaml.Unmarshal's at " + d
	}
	return true, ""
}

func hasComments(n *yaml.Node) bool {
	if strings.Join([]string{n.HeadComment, n.LineComment, n.FootComment}, "") != "" {
		return true
	}
	for _, c := range n.Content {
		if hasComments(c) {
			return true
		}
	}
	return false
}
