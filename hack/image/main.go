// Command image writes azsvc's container image without a Docker daemon: an
// OCI image index with one image per platform, each a single layer on
// scratch holding the azsvc binary and a CA certificate bundle (and the
// LICENSE and NOTICE its redistribution needs), run as a non-root user. The result is an OCI layout packed in one tar file (an
// "oci-archive", as skopeo, crane and docker load take it).
//
//	go -C hack/image run . -out FILE -version vX.Y.Z -created RFC3339 \
//	    [-revision COMMIT] [-cacerts FILE] [-doc LICENSE -doc NOTICE] \
//	    [-sums SHA256SUMS] linux/amd64=BINARY [linux/arm64=BINARY ...]
//
// -sums adds the archive's line to a SHA256SUMS file (sha256sum's format,
// sorted by name as goreleaser writes it), replacing an earlier one.
//
// `make image` builds the binaries (as the release archives do) and runs it.
// The same inputs give the same bytes: every time stamp is -created.
//
// It is its own module (go-containerregistry stays out of azsvc's go.mod).
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"
)

type options struct {
	out      string
	version  string
	revision string
	cacerts  string
	docs     []string
	sums     string
	created  time.Time
	binaries []platformBinary
}

// platformBinary is one linux/ARCH=PATH argument.
type platformBinary struct {
	os, arch, path string
}

func main() {
	opts, err := parseArgs(os.Args[1:])
	if err == nil {
		err = build(opts)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "image:", err)
		os.Exit(1)
	}
}

func parseArgs(args []string) (options, error) {
	var opts options
	var created string
	fs := flag.NewFlagSet("image", flag.ContinueOnError)
	fs.StringVar(&opts.out, "out", "", "the OCI archive to write")
	fs.StringVar(&opts.version, "version", "", "the image's version, also its tag in the archive")
	fs.StringVar(&opts.revision, "revision", "", "the commit it was built from (a label)")
	fs.StringVar(&opts.cacerts, "cacerts", "/etc/ssl/certs/ca-certificates.crt", "the CA certificate bundle (PEM) to ship")
	fs.Func("doc", "a file to ship in /usr/share/doc/azsvc (repeat it)", func(s string) error {
		opts.docs = append(opts.docs, s)
		return nil
	})
	fs.StringVar(&opts.sums, "sums", "", "a SHA256SUMS file to add the archive's checksum to")
	fs.StringVar(&created, "created", "", "the time stamp of every file and of the image (RFC 3339; the commit's, for reproducible images)")
	if err := fs.Parse(args); err != nil {
		return opts, err
	}
	if opts.out == "" || opts.version == "" || created == "" {
		return opts, errors.New("-out, -version and -created are required")
	}
	t, err := time.Parse(time.RFC3339, created)
	if err != nil {
		return opts, fmt.Errorf("-created %q: %w", created, err)
	}
	opts.created = t.UTC()
	if fs.NArg() == 0 {
		return opts, errors.New("no OS/ARCH=BINARY argument")
	}
	for _, a := range fs.Args() {
		platform, path, ok := strings.Cut(a, "=")
		goos, arch, ok2 := strings.Cut(platform, "/")
		if !ok || !ok2 || goos == "" || arch == "" || path == "" {
			return opts, fmt.Errorf("argument %q: want OS/ARCH=BINARY, e.g. linux/amd64=dist/azsvc", a)
		}
		opts.binaries = append(opts.binaries, platformBinary{goos, arch, path})
	}
	return opts, nil
}
