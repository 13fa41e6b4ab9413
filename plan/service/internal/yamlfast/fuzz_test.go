package yamlfast

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// manifestDocuments are the documents of every YAML file under examples/
// and plan/service/testdata, cut at "---" lines as plan/service cuts them.
func manifestDocuments(tb testing.TB) [][]byte {
	var docs [][]byte
	for _, root := range []string{"../../../../examples", "../../testdata"} {
		err := filepath.WalkDir(root, func(path string, e fs.DirEntry, err error) error {
			if err != nil || e.IsDir() || !slices.Contains([]string{".yaml", ".yml"}, filepath.Ext(path)) {
				return err
			}
			data, err := os.ReadFile(path)
			docs = append(docs, cutDocuments(data)...)
			return err
		})
		if err != nil {
			tb.Fatal(err)
		}
	}
	return docs
}

func cutDocuments(data []byte) [][]byte {
	var docs [][]byte
	start := 0
	for i := 0; i < len(data); {
		next := len(data)
		if nl := bytes.IndexByte(data[i:], '\n'); nl >= 0 {
			next = i + nl + 1
		}
		if i > start && bytes.HasPrefix(data[i:], []byte("---")) {
			docs = append(docs, data[start:i])
			start = i
		}
		i = next
	}
	return append(docs, data[start:])
}

// FuzzFastYAMLMatchesV3: whatever the fast parser accepts, yaml.v3 accepts
// too (as a stream of one document and through yaml.Unmarshal), with the
// same tree, comments aside. Each input is tried as it is, as fragments
// (assemble) and as a generator's choices (generate).
func FuzzFastYAMLMatchesV3(f *testing.F) {
	for _, doc := range manifestDocuments(f) {
		f.Add(doc)
	}
	for _, doc := range []string{
		"apiVersion: v1\nkind: Service\nmetadata:\n  name: a\n  annotations:\n    x/y: \"true\"\n    z: '10'\nspec:\n  ports:\n  - port: 80\n    nodePort: 0x7530\n  selector: {app: a}\n",
		"a: [x, {b: \"c\\u00e9\"}, 'it''s']\nb:\n- - 1\n  -\n- ~\n",
		"--- # c\nk: v # c\n\n  # c\nl:\n    - a: 1\n      b: [ ]\n",
	} {
		f.Add([]byte(doc))
	}
	f.Add(recipe(f, "b: ", "a", "\n", "c:", "\n", "  ", "- ", "b: ", "true", " # c", "\n", "    ", "b: ", "'q''s'", "\n",
		"  ", "-", "\n", "    ", "- ", "[", "a", ", ", "{", "b: ", "0b-1", "}", "]", "\n", "c:", "\r\n", "- ", "é", "\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, doc := range [][]byte{data, assemble(data), generate(data)} {
			if _, problem := checkMatchesV3(doc); problem != "" {
				t.Fatalf("%q: %s", doc, problem)
			}
		}
	})
}

// fragments are pieces of YAML that assemble joins into documents: random
// bytes rarely make a manifest-like document, these often do.
var fragments = []string{
	"\n", "\n", "\n", " ", "  ", "    ", "- ", "-", "a", "b: ", "c:", ":", " # c", "#", "'q''s'", "'", "\"e\\u00e9\\n\"",
	"\"", "\\", "[", "]", "{", "}", ", ", ",", "0x1F", "010", "true", "True", "yes", "~", "null", "-1", "+1", "1e3",
	".inf", "é", "😀", "\r\n", "---", "...", "2024-01-02", "key.io/x_y", "0b-1", "1_0", "<<", "? ", "&a ", "*a", "!!str ",
	"|", ">", "\t", "%", "@", "`", "\ufeff", "\u2028", "\x00", "x y",
}

// recipe is the input from which assemble builds parts joined.
func recipe(tb testing.TB, parts ...string) []byte {
	var data []byte
	for _, part := range parts {
		i := slices.Index(fragments, part)
		if i < 0 {
			tb.Fatalf("no fragment %q", part)
		}
		data = append(data, byte(i))
	}
	return data
}

// assemble builds a document from data, each byte choosing a fragment.
func assemble(data []byte) []byte {
	var b []byte
	for _, c := range data {
		b = append(b, fragments[int(c)%len(fragments)]...)
	}
	return b
}

// TestManifestsTakeFastPath: the documents of the examples mostly take the
// fast path, and every one that does matches yaml.v3.
func TestManifestsTakeFastPath(t *testing.T) {
	docs := manifestDocuments(t)
	fast := 0
	for _, doc := range docs {
		accepted, problem := checkMatchesV3(doc)
		if problem != "" {
			t.Errorf("%q: %s", doc, problem)
		}
		if accepted {
			fast++
		}
	}
	t.Logf("%d of %d documents take the fast path", fast, len(docs))
	if len(docs) < 50 || fast*10 < len(docs)*8 {
		t.Errorf("%d of %d documents take the fast path, want at least 80%%", fast, len(docs))
	}
}
