package release

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// releaseTag is the tag TestReleaseReproducible gives HEAD in its clone.
const releaseTag = "v9.9.9"

// TestReleaseReproducible is make release as a release makes it, in a
// clone of HEAD tagged releaseTag: two runs write the same SHA256SUMS,
// which covers an archive and an SBOM per platform and the image, and
// nothing else; this machine's archive holds an azsvc that prints the tag;
// the image's binaries are the linux archives', byte for byte; the action's
// install script takes the release. Tens of minutes on a cold
// build cache, so only with AZSVC_TEST_RELEASE=1 (commit first: the clone
// is of HEAD):
//
//	AZSVC_TEST_RELEASE=1 go test -timeout 90m -v -run TestReleaseReproducible ./internal/release
func TestReleaseReproducible(t *testing.T) {
	if os.Getenv("AZSVC_TEST_RELEASE") == "" {
		t.Skip("AZSVC_TEST_RELEASE is not set: this test runs make release twice (see its comment)")
	}
	clone := t.TempDir()
	run(t, "", "git", "clone", "--quiet", "../..", clone)
	run(t, clone, "git", "tag", "-f", releaseTag)
	dist := filepath.Join(clone, "dist")

	var sums [2][]byte
	for i := range sums {
		start := time.Now()
		run(t, clone, "make", "release")
		t.Logf("make release, run %d: %s", i+1, time.Since(start).Round(time.Second))
		var err error
		if sums[i], err = os.ReadFile(filepath.Join(dist, "SHA256SUMS")); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(sums[0], sums[1]) {
		t.Errorf("two runs of make release differ:\n%s\n%s", sums[0], sums[1])
	}
	checkSums(t, dist, sums[1])
	checkSBOMs(t, dist)

	c := readGoreleaserConfig(t)
	archive := archiveName(t, c, releaseTag, runtime.GOOS, runtime.GOARCH)
	bin := archivedBinary(t, filepath.Join(dist, archive))
	out, err := exec.Command(bin, "version").Output()
	if err != nil || !strings.HasPrefix(string(out), "azsvc version "+releaseTag+",") {
		t.Errorf("azsvc version from %s: %q, %v; want azsvc version %s", archive, out, err, releaseTag)
	}

	// make release made the image too: its binaries are the archives'.
	image := filepath.Join(dist, imageName(releaseTag))
	for _, arch := range []string{"amd64", "arm64"} {
		_, layer := platformImage(t, readOCIArchive(t, image), releaseTag, arch)
		root := t.TempDir()
		unpackLayer(t, layer, root)
		sameFile(t, filepath.Join(root, "usr/local/bin/azsvc"), archivedBinary(t, filepath.Join(dist, archiveName(t, c, releaseTag, "linux", arch))))
	}

	checkInstall(t, dist, archive, releaseTag)
}

func run(t *testing.T, dir, name string, args ...string) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
}

// checkSums: SHA256SUMS names an archive and an SBOM for every platform
// .goreleaser.yaml builds, and the image, and each line's checksum is its
// file's.
func checkSums(t *testing.T, dist string, sums []byte) {
	t.Helper()
	c := readGoreleaserConfig(t)
	var want, got []string
	for _, goos := range c.Builds[0].Goos {
		for _, goarch := range c.Builds[0].Goarch {
			archive := archiveName(t, c, releaseTag, goos, goarch)
			want = append(want, archive, strings.TrimSuffix(strings.TrimSuffix(archive, ".zip"), ".tar.gz")+".cdx.json")
		}
	}
	for _, line := range strings.Split(strings.TrimSpace(string(sums)), "\n") {
		sum, name, ok := strings.Cut(line, "  ")
		if !ok {
			t.Fatalf("SHA256SUMS line %q", line)
		}
		got = append(got, name)
		b, err := os.ReadFile(filepath.Join(dist, name))
		if err != nil || sha256Hex(b) != sum {
			t.Errorf("%s: SHA256SUMS says %s, the file's is %s (%v)", name, sum, sha256Hex(b), err)
		}
	}
	want = append(want, imageName(releaseTag))
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("SHA256SUMS lists %q, want %q", got, want)
	}
}

// checkSBOMs: every SBOM is CycloneDX for azsvc at the tag, lists the
// modules azsvc links with a detected license each, and has neither a time
// stamp nor a serial number (they would make it differ from run to run).
// The licenses are only all found with a fresh module cache too when
// cyclonedx-gomod skips the checksum database (GOSUMDB=off); this test
// shares the developer's cache, so run it once with GOMODCACHE set to an
// empty directory to see that.
func checkSBOMs(t *testing.T, dist string) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dist, "*.cdx.json"))
	if len(files) == 0 {
		t.Fatal("no SBOM in dist/")
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var bom struct {
			BOMFormat    string `json:"bomFormat"`
			SerialNumber string `json:"serialNumber"`
			Metadata     struct {
				Timestamp string `json:"timestamp"`
				Component struct {
					Name, Version string
				} `json:"component"`
			} `json:"metadata"`
			Components []sbomComponent `json:"components"`
		}
		decodeJSON(t, b, &bom)
		name := filepath.Base(f)
		if bom.BOMFormat != "CycloneDX" || bom.Metadata.Component.Name != "github.com/azsvc/azsvc" || bom.Metadata.Component.Version != releaseTag {
			t.Errorf("%s: %s for %s %s; want CycloneDX for github.com/azsvc/azsvc %s", name, bom.BOMFormat, bom.Metadata.Component.Name, bom.Metadata.Component.Version, releaseTag)
		}
		if bom.SerialNumber != "" || bom.Metadata.Timestamp != "" {
			t.Errorf("%s has a serial number %q or time stamp %q", name, bom.SerialNumber, bom.Metadata.Timestamp)
		}
		if !slices.ContainsFunc(bom.Components, func(c sbomComponent) bool {
			return c.Name == "k8s.io/client-go" && strings.Contains(string(c.Evidence), "Apache-2.0")
		}) {
			t.Errorf("%s does not list k8s.io/client-go with its license", name)
		}
		for _, c := range bom.Components {
			if !strings.Contains(string(c.Evidence), `"license"`) {
				t.Errorf("%s: no license found for %s", name, c.Name)
			}
		}
	}
}

type sbomComponent struct {
	Name     string          `json:"name"`
	Evidence json.RawMessage `json:"evidence"`
}

// imageName is the file make image writes for version (the Makefile's IMAGE).
func imageName(version string) string {
	return "azsvc_" + strings.TrimPrefix(version, "v") + "_image.oci.tar"
}

// archivedBinary extracts azsvc from a tar.gz release archive.
func archivedBinary(t *testing.T, archive string) string {
	t.Helper()
	f, err := os.Open(archive)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			t.Fatalf("%s holds no azsvc", archive)
		}
		if err != nil {
			t.Fatal(err)
		}
		if h.Name != "azsvc" {
			continue
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		bin := filepath.Join(t.TempDir(), "azsvc")
		if err := os.WriteFile(bin, b, 0o755); err != nil {
			t.Fatal(err)
		}
		return bin
	}
}
