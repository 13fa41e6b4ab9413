//go:build unix

package service

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestLoadSkipsSpecialFiles: inside a -f directory a FIFO, a socket and a
// link to a directory are skipped with a warning, without blocking on the
// FIFO; a link to a regular file is read. Named on its own, a device is
// read, up to the limit.
func TestLoadSkipsSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "svc.yaml"), []byte(minimalService), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.yaml"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	l, err := net.Listen("unix", filepath.Join(dir, "sock.yaml"))
	if err != nil {
		t.Skipf("unix socket: %v", err)
	}
	defer l.Close()
	other := t.TempDir()
	target := filepath.Join(other, "target.yml")
	if err := os.WriteFile(target, []byte(strings.Replace(minimalService, "name: a", "name: linked", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	for link, to := range map[string]string{"link.yaml": target, "dirlink.yaml": other} {
		if err := os.Symlink(to, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}

	done := make(chan *Input, 1)
	go func() {
		in, err := Load([]string{dir}, nil)
		if err != nil {
			t.Error(err)
		}
		done <- in
	}()
	var in *Input
	select {
	case in = <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Load blocked on the FIFO")
	}
	if in == nil {
		return
	}
	var names []string
	for _, s := range in.Services {
		names = append(names, s.Name)
	}
	if strings.Join(names, ",") != "linked,a" {
		t.Errorf("Services %v, want linked,a", names)
	}
	want := map[string]string{
		"dirlink.yaml": "a link to a directory (not followed)",
		"pipe.yaml":    "a named pipe (FIFO)",
		"sock.yaml":    "a socket",
	}
	for _, d := range in.Diagnostics {
		base := filepath.Base(d.Pos.File)
		if d.Code != CodeNotRegularFile || d.Severity != SeverityWarning || !strings.Contains(d.Message, want[base]) {
			t.Errorf("unexpected diagnostic %+v", d)
		}
		delete(want, base)
	}
	if len(want) > 0 {
		t.Errorf("no warning for %v", want)
	}

	in, err = LoadWith([]string{"/dev/zero"}, nil, Options{MaxInputSize: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	if len(in.Diagnostics) != 1 || in.Diagnostics[0].Code != CodeInputTooLarge || in.Diagnostics[0].Pos.File != "/dev/zero" {
		t.Errorf("/dev/zero: %v", in.Diagnostics)
	}
}

// TestLoadNamedFIFO: a FIFO named with -f on its own is a stream the user
// chose (-f <(helm template .)): it is read to its end.
func TestLoadNamedFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "stream")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	go func() {
		f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		defer f.Close()
		_, _ = f.WriteString(minimalService)
	}()
	in, err := Load([]string{fifo}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(in.Services) != 1 || len(in.Diagnostics) != 0 {
		t.Errorf("Services %d, diagnostics %v", len(in.Services), in.Diagnostics)
	}
}
