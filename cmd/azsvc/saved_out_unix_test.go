//go:build unix

package main

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestPlanOutNeverReplacesSpecialFiles: plan --out refuses a FIFO, a socket
// or a directory with exit 64 and leaves it as it was (before, the plan
// was renamed over it: over /dev/null too, run as root); a regular file is
// replaced through a temporary file beside it, and a link to one keeps
// pointing at it.
func TestPlanOutNeverReplacesSpecialFiles(t *testing.T) {
	c := newCLI(t)
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	sock := filepath.Join(dir, "sock")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Skipf("unix socket: %v", err)
	}
	defer l.Close()
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		path, what string
		mode       os.FileMode
	}{{fifo, "a named pipe (FIFO)", os.ModeNamedPipe}, {sock, "a socket", os.ModeSocket}, {sub, "a directory", os.ModeDir}} {
		res := c.run(exampleArgs(c, "public-basic", "plan", "--out", tt.path)...)
		if res.code != exitUsage || !strings.Contains(res.stderr, "--out "+tt.path+" is "+tt.what) {
			t.Errorf("plan --out %s: exit %d, stderr %s", tt.what, res.code, res.stderr)
		}
		if fi, err := os.Lstat(tt.path); err != nil || fi.Mode().Type() != tt.mode {
			t.Errorf("%s was replaced: %v %v", tt.what, fi.Mode(), err)
		}
	}

	// A regular file is replaced whole; a link to one stays a link.
	real := filepath.Join(dir, "real.json")
	writeFile(t, real, "old")
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink("real.json", link); err != nil {
		t.Fatal(err)
	}
	savedExamplePlan(t, c, link)
	if fi, err := os.Lstat(link); err != nil || fi.Mode().Type() != os.ModeSymlink {
		t.Errorf("the link was replaced: %v %v", fi, err)
	}
	data, err := os.ReadFile(real)
	if err != nil || !strings.HasPrefix(string(data), "{") {
		t.Errorf("the linked file does not hold the plan: %q %v", data[:min(len(data), 20)], err)
	}
	if fi, _ := os.Stat(real); fi.Mode().Perm() != 0o600 {
		t.Errorf("saved plan mode %v, want 0600", fi.Mode().Perm())
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".tmp") {
			t.Errorf("temporary file left behind: %s", e.Name())
		}
	}
}
