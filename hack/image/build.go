package main

import (
	"archive/tar"
	"bytes"
	"crypto/sha256"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
	"github.com/google/go-containerregistry/pkg/v1/types"
)

// The paths and user of the image. 65532 is distroless's "nonroot", so
// volumes prepared for those images fit this one.
const (
	binPath     = "usr/local/bin/azsvc"
	certsPath   = "etc/ssl/certs/ca-certificates.crt"
	homePath    = "home/nonroot"
	docPath     = "usr/share/doc/azsvc/"
	nonRootUID  = 65532
	refNameAnno = "org.opencontainers.image.ref.name"
)

func build(opts options) error {
	certs, err := os.ReadFile(opts.cacerts)
	if err != nil {
		return fmt.Errorf("CA certificates: %w (on Debian: apt-get install ca-certificates)", err)
	}
	if block, _ := pem.Decode(certs); block == nil || block.Type != "CERTIFICATE" {
		return fmt.Errorf("CA certificates: %s holds no PEM certificate", opts.cacerts)
	}
	var adds []mutate.IndexAddendum
	for _, b := range opts.binaries {
		img, err := platformImage(opts, b, certs)
		if err != nil {
			return err
		}
		adds = append(adds, mutate.IndexAddendum{
			Add:        img,
			Descriptor: v1.Descriptor{Platform: &v1.Platform{OS: b.os, Architecture: b.arch}},
		})
	}
	idx := mutate.IndexMediaType(mutate.AppendManifests(empty.Index, adds...), types.OCIImageIndex)

	dir, err := os.MkdirTemp("", "azsvc-image-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	p, err := layout.Write(dir, empty.Index)
	if err != nil {
		return err
	}
	if err := p.AppendIndex(idx, layout.WithAnnotations(map[string]string{refNameAnno: opts.version})); err != nil {
		return err
	}
	if err := packDir(dir, opts.out, opts.created); err != nil {
		return err
	}
	if opts.sums == "" {
		return nil
	}
	return addChecksum(opts.sums, opts.out)
}

// addChecksum puts file's line into the SHA256SUMS file sums, in name order,
// replacing a line of the same name.
func addChecksum(sums, file string) error {
	body, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	name := filepath.Base(file)
	lines := []string{fmt.Sprintf("%x  %s", sha256.Sum256(body), name)}
	old, err := os.ReadFile(sums)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	for _, l := range strings.Split(strings.TrimSpace(string(old)), "\n") {
		if _, n, ok := strings.Cut(l, "  "); ok && n != name {
			lines = append(lines, l)
		}
	}
	slices.SortFunc(lines, func(a, b string) int { return strings.Compare(a[strings.Index(a, "  "):], b[strings.Index(b, "  "):]) })
	return os.WriteFile(sums, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
}

// platformImage is scratch plus one layer: the binary, the CA bundle, a home
// directory the non-root user owns (the working directory, where azsvc keeps
// .azsvc/) and /tmp.
func platformImage(opts options, b platformBinary, certs []byte) (v1.Image, error) {
	bin, err := os.ReadFile(b.path)
	if err != nil {
		return nil, fmt.Errorf("%s/%s binary: %w", b.os, b.arch, err)
	}
	files := []layerEntry{
		{name: "etc/", mode: 0o755},
		{name: "etc/ssl/", mode: 0o755},
		{name: "etc/ssl/certs/", mode: 0o755},
		{name: certsPath, mode: 0o644, body: certs},
		{name: "home/", mode: 0o755},
		{name: homePath + "/", mode: 0o755, uid: nonRootUID},
		{name: "tmp/", mode: 0o1777},
		{name: "usr/", mode: 0o755},
		{name: "usr/local/", mode: 0o755},
		{name: "usr/local/bin/", mode: 0o755},
		{name: binPath, mode: 0o755, body: bin},
	}
	if len(opts.docs) > 0 {
		files = append(files, layerEntry{name: "usr/share/", mode: 0o755}, layerEntry{name: "usr/share/doc/", mode: 0o755},
			layerEntry{name: docPath, mode: 0o755})
	}
	for _, d := range opts.docs {
		body, err := os.ReadFile(d)
		if err != nil {
			return nil, err
		}
		files = append(files, layerEntry{name: docPath + filepath.Base(d), mode: 0o644, body: body})
	}
	layerTar, err := tarLayer(files, opts.created)
	if err != nil {
		return nil, err
	}
	layer, err := tarball.LayerFromOpener(func() (io.ReadCloser, error) {
		return io.NopCloser(bytes.NewReader(layerTar)), nil
	}, tarball.WithMediaType(types.OCILayer))
	if err != nil {
		return nil, err
	}
	img := mutate.ConfigMediaType(mutate.MediaType(empty.Image, types.OCIManifestSchema1), types.OCIConfigJSON)
	img, err = mutate.Append(img, mutate.Addendum{
		Layer:     layer,
		MediaType: types.OCILayer,
		History:   v1.History{Created: v1.Time{Time: opts.created}, CreatedBy: "make image (hack/image)"},
	})
	if err != nil {
		return nil, err
	}
	cfg, err := img.ConfigFile()
	if err != nil {
		return nil, err
	}
	cfg = cfg.DeepCopy()
	cfg.OS, cfg.Architecture = b.os, b.arch
	cfg.Created = v1.Time{Time: opts.created}
	cfg.Config = v1.Config{
		User:       fmt.Sprintf("%d:%d", nonRootUID, nonRootUID),
		Entrypoint: []string{"/" + binPath},
		WorkingDir: "/" + homePath,
		Env: []string{
			"PATH=/usr/local/bin",
			"HOME=/" + homePath,
			"SSL_CERT_FILE=/" + certsPath,
		},
		Labels: map[string]string{
			"org.opencontainers.image.title":    "azsvc",
			"org.opencontainers.image.version":  opts.version,
			"org.opencontainers.image.source":   "https://github.com/azsvc/azsvc",
			"org.opencontainers.image.licenses": "Apache-2.0",
		},
	}
	if opts.revision != "" {
		cfg.Config.Labels["org.opencontainers.image.revision"] = opts.revision
	}
	return mutate.ConfigFile(img, cfg)
}

type layerEntry struct {
	name string // a trailing slash makes a directory
	mode int64
	uid  int
	body []byte
}

func tarLayer(entries []layerEntry, mtime time.Time) ([]byte, error) {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, e := range entries {
		h := &tar.Header{Name: e.name, Mode: e.mode, Uid: e.uid, Gid: e.uid, ModTime: mtime, Format: tar.FormatPAX}
		if e.name[len(e.name)-1] == '/' {
			h.Typeflag = tar.TypeDir
		} else {
			h.Typeflag, h.Size = tar.TypeReg, int64(len(e.body))
		}
		if err := tw.WriteHeader(h); err != nil {
			return nil, err
		}
		if _, err := tw.Write(e.body); err != nil {
			return nil, err
		}
	}
	err := tw.Close()
	return buf.Bytes(), err
}

// packDir writes the files under dir into a tar at out, in name order, with
// one time stamp and no owner, so that equal layouts give equal archives.
func packDir(dir, out string, mtime time.Time) error {
	var names []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || path == dir {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		if d.IsDir() {
			rel += "/"
		}
		names = append(names, filepath.ToSlash(rel))
		return nil
	})
	if err != nil {
		return err
	}
	slices.Sort(names)
	entries := make([]layerEntry, 0, len(names))
	for _, n := range names {
		if n[len(n)-1] == '/' {
			entries = append(entries, layerEntry{name: n, mode: 0o755})
			continue
		}
		body, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(n)))
		if err != nil {
			return err
		}
		entries = append(entries, layerEntry{name: n, mode: 0o644, body: body})
	}
	archive, err := tarLayer(entries, mtime)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return err
	}
	return os.WriteFile(out, archive, 0o644)
}
