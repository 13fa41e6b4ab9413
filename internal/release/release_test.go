// Package release tests what azsvc ships besides its code: the release
// archives (.goreleaser.yaml, make release), the container image (make
// image, hack/image), the GitHub Action (action.yml, hack/action) and the
// LICENSE and NOTICE. It has no code of its own.
package release

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"text/template"

	"go.yaml.in/yaml/v3"
)

// testVersion is the version the tests stamp into the azsvc they build.
const testVersion = "v1.2.3"

var buildDir string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "azsvc-release-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	buildDir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// hostBinary builds azsvc for this machine once, stamped as make does
// (without the release's -trimpath, which would rebuild every package that
// go test already compiled).
var hostBinary = sync.OnceValues(func() (string, error) {
	bin := filepath.Join(buildDir, "azsvc")
	ldflags := "-X main.version=" + testVersion + " -X main.commit=0123456789abcdef0123456789abcdef01234567 -X main.date=2026-11-25T00:00:00Z"
	out, err := exec.Command("go", "build", "-ldflags", ldflags, "-o", bin, "../../cmd/azsvc").CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("go build: %v\n%s", err, out)
	}
	return bin, nil
})

func azsvcBinary(t *testing.T) string {
	t.Helper()
	bin, err := hostBinary()
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

// goreleaserConfig is the part of .goreleaser.yaml the tests hold the
// action's install script and the Makefile to.
type goreleaserConfig struct {
	Builds []struct {
		Goos   []string `yaml:"goos"`
		Goarch []string `yaml:"goarch"`
		Flags  []string `yaml:"flags"`
	} `yaml:"builds"`
	Archives []struct {
		Formats         []string `yaml:"formats"`
		NameTemplate    string   `yaml:"name_template"`
		FormatOverrides []struct {
			Goos    string   `yaml:"goos"`
			Formats []string `yaml:"formats"`
		} `yaml:"format_overrides"`
	} `yaml:"archives"`
	Checksum struct {
		NameTemplate string `yaml:"name_template"`
	} `yaml:"checksum"`
}

func readGoreleaserConfig(t *testing.T) goreleaserConfig {
	t.Helper()
	b, err := os.ReadFile("../../.goreleaser.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var c goreleaserConfig
	if err := yaml.Unmarshal(b, &c); err != nil {
		t.Fatalf(".goreleaser.yaml: %v", err)
	}
	if len(c.Builds) != 1 || len(c.Archives) != 1 {
		t.Fatalf(".goreleaser.yaml: want one build and one archive, have %d and %d", len(c.Builds), len(c.Archives))
	}
	return c
}

// archiveName is the file name goreleaser gives the archive of version
// (vX.Y.Z) for goos/goarch, from .goreleaser.yaml's name template.
func archiveName(t *testing.T, c goreleaserConfig, version, goos, goarch string) string {
	t.Helper()
	a := c.Archives[0]
	tmpl, err := template.New("name").Parse(a.NameTemplate)
	if err != nil {
		t.Fatalf(".goreleaser.yaml name_template: %v", err)
	}
	var name strings.Builder
	data := map[string]string{"ProjectName": "azsvc", "Version": strings.TrimPrefix(version, "v"), "Os": goos, "Arch": goarch}
	if err := tmpl.Execute(&name, data); err != nil {
		t.Fatalf(".goreleaser.yaml name_template: %v", err)
	}
	format := a.Formats[0]
	for _, o := range a.FormatOverrides {
		if o.Goos == goos {
			format = o.Formats[0]
		}
	}
	return name.String() + "." + format
}

// fakeRelease writes a release directory for version as make release lays
// it out, holding one archive, this machine's, with binary in it, and
// SHA256SUMS. It returns the directory and the archive's name.
func fakeRelease(t *testing.T, version, binary string) (dir, archive string) {
	t.Helper()
	c := readGoreleaserConfig(t)
	archive = archiveName(t, c, version, runtime.GOOS, runtime.GOARCH)
	if !strings.HasSuffix(archive, ".tar.gz") {
		t.Skipf("this test packs tar.gz archives; %s is not one", archive)
	}
	body, err := os.ReadFile(binary)
	if err != nil {
		t.Fatal(err)
	}
	dir = t.TempDir()
	tgz := tarGz(t, map[string][]byte{"azsvc": body, "LICENSE": []byte("license\n")})
	if err := os.WriteFile(filepath.Join(dir, archive), tgz, 0o644); err != nil {
		t.Fatal(err)
	}
	sums := fmt.Sprintf("%s  %s\n%s  azsvc_other.tar.gz\n", sha256Hex(tgz), archive, strings.Repeat("0", 64))
	if err := os.WriteFile(filepath.Join(dir, c.Checksum.NameTemplate), []byte(sums), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, archive
}

func tarGz(t *testing.T, files map[string][]byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for _, name := range []string{"azsvc", "LICENSE"} {
		body := files[name]
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o755, Size: int64(len(body))}); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write(body); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func sha256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}
