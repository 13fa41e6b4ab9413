package release

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestImage builds the image as make image does (hack/image) around this
// test's azsvc, then reads it back with nothing but the OCI layout spec:
// every blob matches its digest, the platform's image runs as non-root,
// its one layer holds exactly the binary, the CA bundle, the license files
// and the directories azsvc writes in, and the binary taken out of the
// layer runs `azsvc version`. The archive's line replaces an earlier one in
// SHA256SUMS, and a second build gives the same bytes.
func TestImage(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the image's binary runs on Linux only")
	}
	bin := azsvcBinary(t)
	dir := t.TempDir()
	certs := writeCACert(t, dir)
	out := filepath.Join(dir, "image.oci.tar")
	sums := filepath.Join(dir, "SHA256SUMS")
	other := strings.Repeat("0", 64) + "  azsvc_1.2.3_linux_amd64.tar.gz"
	if err := os.WriteFile(sums, []byte(other+"\n"+strings.Repeat("1", 64)+"  image.oci.tar\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	buildImage(t, out, sums, bin, certs)
	image, _ := os.ReadFile(out)
	wantFile(t, sums, other+"\n"+sha256Hex(image)+"  image.oci.tar\n")

	config, layer := platformImage(t, readOCIArchive(t, out), testVersion, runtime.GOARCH)
	if config.User != "65532:65532" || !slices.Equal(config.Entrypoint, []string{"/usr/local/bin/azsvc"}) || config.WorkingDir != "/home/nonroot" {
		t.Errorf("image config %+v: want user 65532:65532, entrypoint /usr/local/bin/azsvc, working directory /home/nonroot", config)
	}
	if !slices.Contains(config.Env, "SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt") {
		t.Errorf("image env %q does not point SSL_CERT_FILE at the CA bundle", config.Env)
	}

	root := filepath.Join(dir, "rootfs")
	files := unpackLayer(t, layer, root)
	want := []string{
		"etc/", "etc/ssl/", "etc/ssl/certs/", "etc/ssl/certs/ca-certificates.crt 0644 0",
		"home/", "home/nonroot/ 0755 65532", "tmp/ 1777 0",
		"usr/", "usr/local/", "usr/local/bin/", "usr/local/bin/azsvc 0755 0",
		"usr/share/", "usr/share/doc/", "usr/share/doc/azsvc/", "usr/share/doc/azsvc/LICENSE 0644 0", "usr/share/doc/azsvc/NOTICE 0644 0",
	}
	for _, w := range want {
		if !slices.ContainsFunc(files, func(f string) bool { return f == w || strings.HasPrefix(f, w+" ") }) {
			t.Errorf("layer lacks %q; it holds %q", w, files)
		}
	}
	if len(files) != len(want) {
		t.Errorf("layer holds %d entries, want %d: %q", len(files), len(want), files)
	}
	sameFile(t, filepath.Join(root, "etc/ssl/certs/ca-certificates.crt"), certs)
	sameFile(t, filepath.Join(root, "usr/local/bin/azsvc"), bin)

	got, err := exec.Command(filepath.Join(root, "usr/local/bin/azsvc"), "version").Output()
	if err != nil || !strings.HasPrefix(string(got), "azsvc version "+testVersion+",") {
		t.Errorf("azsvc version from the image: %q, %v", got, err)
	}

	again := filepath.Join(dir, "again.oci.tar")
	buildImage(t, again, filepath.Join(dir, "again.sums"), bin, certs)
	a, _ := os.ReadFile(out)
	b, _ := os.ReadFile(again)
	if !bytes.Equal(a, b) {
		t.Error("two builds of the image from the same inputs differ")
	}
}

func buildImage(t *testing.T, out, sums, bin, certs string) {
	t.Helper()
	cmd := exec.Command("go", "-C", "../../hack/image", "run", ".",
		"-out", out, "-sums", sums, "-version", testVersion, "-created", "2026-11-25T00:00:00Z", "-cacerts", certs,
		"-doc", abs(t, "../../LICENSE"), "-doc", abs(t, "../../NOTICE"),
		"linux/"+runtime.GOARCH+"="+bin)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("hack/image: %v\n%s", err, b)
	}
}

func abs(t *testing.T, path string) string {
	t.Helper()
	p, err := filepath.Abs(path)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

type imageConfig struct {
	User       string
	Entrypoint []string
	WorkingDir string
	Env        []string
}

// platformImage finds, in an OCI layout's files, the image index tagged
// version and in it the linux/arch image; it returns the image's run
// configuration and its one layer.
func platformImage(t *testing.T, blobs map[string][]byte, version, arch string) (imageConfig, []byte) {
	t.Helper()
	var index, nested ociIndex
	decodeJSON(t, blobs["index.json"], &index)
	if len(index.Manifests) != 1 || index.Manifests[0].Annotations["org.opencontainers.image.ref.name"] != version {
		t.Fatalf("index.json: %+v; want one image index tagged %s", index.Manifests, version)
	}
	decodeJSON(t, blob(t, blobs, index.Manifests[0].Digest), &nested)
	i := slices.IndexFunc(nested.Manifests, func(d ociDescriptor) bool {
		return d.Platform.OS == "linux" && d.Platform.Architecture == arch
	})
	if i < 0 {
		t.Fatalf("image index: %+v; no linux/%s image", nested.Manifests, arch)
	}
	var manifest struct {
		Config ociDescriptor   `json:"config"`
		Layers []ociDescriptor `json:"layers"`
	}
	decodeJSON(t, blob(t, blobs, nested.Manifests[i].Digest), &manifest)
	var config struct {
		Architecture string      `json:"architecture"`
		Config       imageConfig `json:"config"`
	}
	decodeJSON(t, blob(t, blobs, manifest.Config.Digest), &config)
	if config.Architecture != arch {
		t.Errorf("the linux/%s image's config says architecture %q", arch, config.Architecture)
	}
	if len(manifest.Layers) != 1 {
		t.Fatalf("image has %d layers, want 1", len(manifest.Layers))
	}
	return config.Config, blob(t, blobs, manifest.Layers[0].Digest)
}

type ociDescriptor struct {
	Digest      string            `json:"digest"`
	Annotations map[string]string `json:"annotations"`
	Platform    struct {
		OS           string `json:"os"`
		Architecture string `json:"architecture"`
	} `json:"platform"`
}

type ociIndex struct {
	Manifests []ociDescriptor `json:"manifests"`
}

// readOCIArchive returns the files of an OCI layout tar by name, after
// checking that every blob's SHA-256 is its name.
func readOCIArchive(t *testing.T, path string) map[string][]byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	files := map[string][]byte{}
	tr := tar.NewReader(f)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if h.Typeflag != tar.TypeReg {
			continue
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		files[h.Name] = b
		if hex, ok := strings.CutPrefix(h.Name, "blobs/sha256/"); ok && sha256Hex(b) != hex {
			t.Errorf("blob %s has SHA-256 %s", h.Name, sha256Hex(b))
		}
	}
	if !strings.Contains(string(files["oci-layout"]), `"imageLayoutVersion"`) {
		t.Errorf("not an OCI layout: oci-layout is %q", files["oci-layout"])
	}
	return files
}

func blob(t *testing.T, files map[string][]byte, digest string) []byte {
	t.Helper()
	b, ok := files["blobs/sha256/"+strings.TrimPrefix(digest, "sha256:")]
	if !ok {
		t.Fatalf("the archive has no blob %s", digest)
	}
	return b
}

func decodeJSON(t *testing.T, b []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%v in %s", err, b)
	}
}

// unpackLayer extracts a gzipped layer under root and lists its entries as
// "name mode uid" (directories keep their trailing slash).
func unpackLayer(t *testing.T, layer []byte, root string) []string {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(layer))
	if err != nil {
		t.Fatal(err)
	}
	var entries []string
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		entries = append(entries, fmt.Sprintf("%s %04o %d", h.Name, h.Mode, h.Uid))
		path := filepath.Join(root, filepath.FromSlash(h.Name))
		if h.Typeflag == tar.TypeDir {
			if err := os.MkdirAll(path, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, b, os.FileMode(h.Mode)&0o777); err != nil {
			t.Fatal(err)
		}
	}
	return entries
}

func sameFile(t *testing.T, got, want string) {
	t.Helper()
	a, err1 := os.ReadFile(got)
	b, err2 := os.ReadFile(want)
	if err1 != nil || err2 != nil || !bytes.Equal(a, b) {
		t.Errorf("%s differs from %s (%v, %v)", got, want, err1, err2)
	}
}

// writeCACert writes a PEM bundle of one self-signed certificate, standing
// in for the build machine's /etc/ssl/certs/ca-certificates.crt.
func writeCACert(t *testing.T, dir string) string {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "azsvc test CA"},
		NotBefore: time.Now(), NotAfter: time.Now().Add(time.Hour), IsCA: true, BasicConstraintsValid: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "ca.pem")
	if err := os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
