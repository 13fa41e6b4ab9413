// Package golden compares test output with golden files and, when the tests
// run with -update, rewrites them instead: the one golden-file helper every
// package's tests use (go test ./PKG -update, then review the diff).
package golden

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite golden files instead of comparing with them")

// Updating reports whether this run rewrites golden files.
func Updating() bool { return *update }

// Check compares got with the file at path; with -update it writes got
// there instead, creating the directory.
func Check(t testing.TB, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s differs from the output; run go test -update and review the diff (-want +got):\n%s", path, diff)
	}
}
