package golden

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

// maxColumns is the widest line any text or markdown output may have
// (issue 16): a reviewer reads plans in a terminal or a pull request.
const maxColumns = 200

// ansi matches the colour sequences of *.color.txt goldens, which take no
// columns on a terminal.
var ansi = regexp.MustCompile(`\x1b\[[0-9;]*m`)

// TestNoGoldenLineOverMaxColumns scans every text and markdown golden file
// in the module: none may hold a line wider than maxColumns.
func TestNoGoldenLineOverMaxColumns(t *testing.T) {
	root := moduleRoot(t)
	checked := 0
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "fuzz") {
			return filepath.SkipDir
		}
		if d.IsDir() || !isTextGolden(path) {
			return nil
		}
		checked++
		checkLines(t, root, path)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 50 {
		t.Fatalf("only %d golden files found under %s: the walk is broken", checked, root)
	}
}

// isTextGolden reports text and markdown goldens: the examples' plan and
// diagnostics goldens, testdata/*.txt|md|mmd and *_text.golden.
func isTextGolden(path string) bool {
	name := filepath.Base(path)
	inTestdata := strings.Contains(filepath.ToSlash(path), "/testdata/")
	switch {
	case strings.HasSuffix(name, "_text.golden"):
		return true
	case strings.Contains(name, ".golden") || inTestdata:
		ext := filepath.Ext(name)
		return ext == ".txt" || ext == ".md" || ext == ".mmd"
	}
	return false
}

func checkLines(t *testing.T, root, path string) {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	rel, _ := filepath.Rel(root, path)
	for n := 1; sc.Scan(); n++ {
		line := ansi.ReplaceAllString(sc.Text(), "")
		// A terminal goldens writes a carriage return as <CR>: what follows
		// overwrites the line.
		if i := strings.LastIndex(line, "<CR>"); i >= 0 {
			line = line[i+len("<CR>"):]
		}
		line = strings.ReplaceAll(line, "<EL>", "")
		if w := utf8.RuneCountInString(line); w > maxColumns {
			t.Errorf("%s:%d: %d columns, over %d: %.80s…", rel, n, w, maxColumns, line)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("%s: %v", rel, err)
	}
}

func moduleRoot(t *testing.T) string {
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("go.mod not found above the test's directory")
		}
		dir = parent
	}
}
