package engine

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// gitRevision reads files of one commit of the git work tree dir is in,
// without touching the work tree or the network: ls-tree lists them,
// one cat-file --batch process reads them all.
type gitRevision struct {
	root   string // the work tree's top directory
	ref    string // as given (origin/main, HEAD~1)
	commit string
}

// openRevision resolves ref in the work tree holding dir; ok is false when
// dir is in no work tree or ref names no commit.
func openRevision(ctx context.Context, dir, ref string) (*gitRevision, bool, error) {
	if strings.HasPrefix(ref, "-") {
		return nil, false, nil // never an option to git
	}
	root, err := git(ctx, dir, nil, "rev-parse", "--show-toplevel")
	if err != nil {
		return nil, false, nil
	}
	commit, err := git(ctx, dir, nil, "rev-parse", "--verify", "--quiet", "--end-of-options", ref+"^{commit}")
	if err != nil {
		return nil, false, nil
	}
	return &gitRevision{root: strings.TrimSpace(string(root)), ref: ref, commit: strings.TrimSpace(string(commit))}, true, nil
}

// files lists, for each path (relative to dir or absolute), the manifest
// files the revision holds under it: a directory's .yaml, .yml and .json
// files, recursively, or the file itself. A path the revision lacks lists
// nothing: the base had no manifests there.
func (g *gitRevision) files(ctx context.Context, dir string, paths []string) ([]string, error) {
	var out []string
	for _, p := range paths {
		abs := p
		if !filepath.IsAbs(p) {
			abs = filepath.Join(dir, p)
		}
		rel, err := filepath.Rel(g.root, abs)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return nil, fmt.Errorf("%s is outside the git work tree %s", p, g.root)
		}
		listed, err := git(ctx, g.root, nil, "ls-tree", "-r", "-z", "--full-name", "--name-only", g.commit, "--", filepath.ToSlash(rel))
		if err != nil {
			return nil, err
		}
		for _, name := range strings.Split(strings.TrimRight(string(listed), "\x00"), "\x00") {
			if name == "" {
				continue
			}
			if name == filepath.ToSlash(rel) || isManifestName(name) {
				out = append(out, name)
			}
		}
	}
	return out, nil
}

func isManifestName(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".yaml", ".yml", ".json":
		return true
	}
	return false
}

// read returns the contents of names at the revision, each bounded by
// limit bytes.
func (g *gitRevision) read(ctx context.Context, names []string, limit int64) (map[string][]byte, error) {
	var req bytes.Buffer
	for _, n := range names {
		fmt.Fprintf(&req, "%s:%s\n", g.commit, n)
	}
	cmd := exec.CommandContext(ctx, "git", "cat-file", "--batch")
	cmd.Dir, cmd.Stdin = g.root, &req
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("run git: %w", err)
	}
	out, readErr := readBatch(bufio.NewReader(stdout), names, limit)
	if err := cmd.Wait(); err != nil && readErr == nil {
		readErr = fmt.Errorf("git cat-file: %w: %s", err, strings.TrimSpace(stderr.String()))
	}
	return out, readErr
}

// readBatch reads cat-file --batch's answers: "<sha> blob <size>\n",
// the content and a newline, for each name in order.
func readBatch(r *bufio.Reader, names []string, limit int64) (map[string][]byte, error) {
	out := make(map[string][]byte, len(names))
	for _, n := range names {
		header, err := r.ReadString('\n')
		if err != nil {
			return nil, fmt.Errorf("git cat-file: %s: %w", n, err)
		}
		f := strings.Fields(header)
		if len(f) != 3 || f[1] != "blob" {
			return nil, fmt.Errorf("git cat-file: %s: %s", n, strings.TrimSpace(header))
		}
		size, err := strconv.ParseInt(f[2], 10, 64)
		if err != nil {
			return nil, fmt.Errorf("git cat-file: %s: %w", n, err)
		}
		if size > limit {
			return nil, fmt.Errorf("%s at the base is %d bytes, larger than the input size limit of %d", n, size, limit)
		}
		data := make([]byte, size+1) // and the newline after it
		if _, err := io.ReadFull(r, data); err != nil {
			return nil, fmt.Errorf("git cat-file: %s: %w", n, err)
		}
		out[n] = data[:size]
	}
	return out, nil
}

// git runs git in dir and returns its standard output.
func git(ctx context.Context, dir string, stdin io.Reader, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir, cmd.Stdin = dir, stdin
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return nil, fmt.Errorf("git %s: %s", args[0], strings.TrimSpace(stderr.String()))
		}
		return nil, fmt.Errorf("run git: %w", err)
	}
	return out, nil
}
