package service

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"
	"time"
)

const minimalService = "apiVersion: v1\nkind: Service\nmetadata: {name: a}\nspec: {type: LoadBalancer, ports: [{port: 80}]}\n"

func TestReadLimited(t *testing.T) {
	data := bytes.Repeat([]byte("0123456789"), 100_000) // 1 MB
	tests := []struct {
		name        string
		src         io.Reader
		limit, size int64
		wantErr     bool
	}{
		{"file, size known", bytes.NewReader(data), 2 << 20, int64(len(data)), false},
		{"stream in many chunks", iotest.HalfReader(bytes.NewReader(data)), 2 << 20, 0, false},
		{"exactly the limit", bytes.NewReader(data), int64(len(data)), 0, false},
		{"one byte over", bytes.NewReader(data), int64(len(data)) - 1, 0, true},
		{"file grew past its size", bytes.NewReader(data), int64(len(data)) - 1, 10, true},
		{"endless stream", zeros{}, 1 << 20, 0, true},
		{"empty", strings.NewReader(""), 10, 0, false},
	}
	for _, tt := range tests {
		got, err := readLimited(tt.src, tt.limit, tt.size)
		if tt.wantErr {
			if err != errInputTooLarge {
				t.Errorf("%s: err = %v, want errInputTooLarge", tt.name, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		want := data
		if tt.name == "empty" {
			want = nil
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: read %d bytes, want %d", tt.name, len(got), len(want))
		}
	}
	if _, err := readLimited(iotest.ErrReader(io.ErrClosedPipe), 10, 0); err != io.ErrClosedPipe {
		t.Errorf("read error: %v", err)
	}
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// TestLoadSizeLimit: a file or stream over the limit is refused with a
// finding that names it, and the other inputs are still read.
func TestLoadSizeLimit(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.yaml")
	small := filepath.Join(dir, "small.yaml")
	if err := os.WriteFile(big, []byte(minimalService+"# "+strings.Repeat("x", 200)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(small, []byte(minimalService), 0o644); err != nil {
		t.Fatal(err)
	}
	stdin := strings.NewReader(strings.Repeat("y", 1000))
	in, err := LoadWith([]string{dir, "-"}, stdin, Options{MaxInputSize: 150})
	if err != nil {
		t.Fatal(err)
	}
	if len(in.Services) != 1 || in.Services[0].Source.File != small {
		t.Errorf("Services %v, want the one in small.yaml", in.Services)
	}
	var got []string
	for _, d := range in.Diagnostics {
		got = append(got, d.Code+" "+d.Pos.File+": "+d.Message)
	}
	want := []string{
		CodeInputTooLarge + " " + big + ": " + big + " is larger than the input size limit of 150 bytes: not read",
		CodeInputTooLarge + " " + StdinName + ": " + StdinName + " is larger than the input size limit of 150 bytes: not read",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("diagnostics:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if _, kept := in.Sources[big]; kept {
		t.Error("the refused file's bytes were kept")
	}
}

func TestFormatSize(t *testing.T) {
	for n, want := range map[int64]string{64 << 20: "64Mi", 1 << 30: "1Gi", 1536: "1536 bytes", 3 << 10: "3Ki", 150: "150 bytes", 1<<20 + 1: "1048577 bytes"} {
		if got := FormatSize(n); got != want {
			t.Errorf("FormatSize(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestHugeInputsStayLinear: many duplicate keys in one mapping, and a huge
// key or value, cost time in proportion to their size (a quadratic check
// or an edit distance over megabytes would take minutes here).
func TestHugeInputsStayLinear(t *testing.T) {
	var b strings.Builder
	b.WriteString("apiVersion: v1\nkind: Service\nmetadata:\n  name: big\n  annotations:\n")
	for i := range 60_000 {
		fmt.Fprintf(&b, "    k%d: \"v\"\n    k%d: \"w\"\n", i%30_000, i%30_000)
	}
	b.WriteString("    ? " + strings.Repeat("azure-x", 600_000) + "\n    : \"y\"\n") // long keys need YAML's explicit form
	b.WriteString("    " + AnnPIPName + ": \"" + strings.Repeat("p/", 1_000_000) + "\"\n")
	b.WriteString("    ? " + Prefix + strings.Repeat("azure-y", 600_000) + "\n    : \"z\"\n")
	b.WriteString("spec: {type: LoadBalancer, ports: [{port: 80}]}\n")
	start := time.Now()
	in := Decode("big.yaml", []byte(b.String()))
	ds := in.Validate()
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("took %v", d)
	}
	counts := map[string]int{}
	for _, d := range ds {
		counts[d.Code]++
		if len(d.Message) > 4096 {
			t.Errorf("%s: a %d-byte message", d.Code, len(d.Message))
		}
	}
	if counts[CodeDuplicateKey] != 90_000 || counts[CodeResourceName] != 1 || counts[CodeMisspeltKey] != 1 || counts[CodeUnknownAnnotation] != 1 {
		t.Errorf("findings %v", counts)
	}
}
