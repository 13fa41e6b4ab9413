package service

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// DefaultMaxInputSize bounds every input file and standard input: far above
// any real manifest set (the API server stores at most 1.5 MiB per object),
// far below what would exhaust memory.
const DefaultMaxInputSize int64 = 64 << 20

// Options tune Load.
type Options struct {
	// MaxInputSize is the most bytes read from one file or from standard
	// input; a larger input is refused with CodeInputTooLarge and not
	// parsed. 0 means DefaultMaxInputSize.
	MaxInputSize int64
}

func (o Options) maxInputSize() int64 {
	if o.MaxInputSize <= 0 {
		return DefaultMaxInputSize
	}
	return o.MaxInputSize
}

// reader reads the paths of one Load into in.
type reader struct {
	in    *Input
	stdin io.Reader
	limit int64
}

// path reads one -f argument: "-", a directory, or any other file. A file
// named on the command line is read whatever its type (a FIFO from <(...)
// or /dev/stdin is a stream the user chose); inside a directory only
// regular files are taken, so a FIFO or device there cannot hang or flood
// the run.
func (r *reader) path(p string) error {
	if p == "-" {
		if _, done := r.in.Sources[StdinName]; done {
			return nil
		}
		if r.stdin == nil {
			return fmt.Errorf("read %s: no standard input", StdinName)
		}
		return r.stream(StdinName, r.stdin, 0)
	}
	info, err := os.Stat(p)
	if err != nil {
		return fmt.Errorf("read manifest: %w", err)
	}
	if !info.IsDir() {
		return r.file(p, false)
	}
	files, err := r.walk(p)
	if err != nil {
		return err
	}
	for _, f := range files {
		if err := r.file(f, true); err != nil {
			return err
		}
	}
	return nil
}

// walk lists the manifest files under dir, sorted, and warns about the
// manifest-named entries that are not regular files.
func (r *reader) walk(dir string) ([]string, error) {
	var files []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !isManifestName(path) {
			return nil
		}
		mode := d.Type()
		if mode&fs.ModeSymlink != 0 {
			info, err := os.Stat(path)
			if err != nil {
				return err
			}
			mode = info.Mode().Type()
		}
		if mode.IsRegular() {
			files = append(files, path)
		} else {
			r.notRegular(path, mode)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read manifest directory: %w", err)
	}
	sort.Strings(files)
	return files, nil
}

func isManifestName(path string) bool {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".yaml", ".yml", ".json":
		return true
	}
	return false
}

// file reads one file once, however often it is named.
func (r *reader) file(p string, inDirectory bool) error {
	clean := filepath.Clean(p)
	if r.in.read[clean] {
		return nil // named twice, e.g. a file and its directory
	}
	r.in.read[clean] = true
	f, info, err := openInput(p, inDirectory)
	if err != nil {
		return fmt.Errorf("read manifest: %w", err)
	}
	defer f.Close()
	if inDirectory && !info.Mode().IsRegular() {
		r.notRegular(p, info.Mode().Type()) // replaced since the walk
		return nil
	}
	var size int64
	if info.Mode().IsRegular() {
		size = info.Size()
	}
	return r.stream(p, f, size)
}

// stream reads one input, refusing it past the limit; size is what the
// file system says it holds (0 for a stream).
func (r *reader) stream(name string, src io.Reader, size int64) error {
	if size > r.limit {
		r.tooLarge(name)
		return nil
	}
	data, err := readLimited(src, r.limit, size)
	switch {
	case errors.Is(err, errInputTooLarge):
		r.tooLarge(name)
		return nil
	case err != nil:
		return fmt.Errorf("read %s: %w", name, err)
	}
	r.in.add(name, data)
	return nil
}

var errInputTooLarge = errors.New("input too large")

// readLimited reads src to its end, or fails with errInputTooLarge once it
// has seen more than limit bytes. It reads into chunks and joins them once,
// so memory stays near the input's size (a growing buffer would double it),
// and a stream such as /dev/zero costs at most limit bytes.
func readLimited(src io.Reader, limit, size int64) ([]byte, error) {
	const maxChunk = 4 << 20
	lr := &io.LimitedReader{R: src, N: limit + 1}
	next := int64(64 << 10)
	if size > 0 {
		next = size + 1 // one chunk, and EOF confirmed, for a regular file
	}
	var chunks [][]byte
	total := 0
	for lr.N > 0 {
		buf := make([]byte, min(next, lr.N))
		n, err := io.ReadFull(lr, buf)
		chunks = append(chunks, buf[:n])
		total += n
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		next = min(2*next, maxChunk)
	}
	if int64(total) > limit {
		return nil, errInputTooLarge
	}
	if len(chunks) == 1 {
		return chunks[0], nil
	}
	out := make([]byte, 0, total)
	for _, c := range chunks {
		out = append(out, c...)
	}
	return out, nil
}

func (r *reader) tooLarge(name string) {
	r.in.Diagnostics = append(r.in.Diagnostics, inputDiag(CodeInputTooLarge, name,
		fmt.Sprintf("%s is larger than the input size limit of %s: not read", name, FormatSize(r.limit)),
		"raise the limit with --max-input-size, or split the input into smaller files"))
}

func (r *reader) notRegular(path string, mode fs.FileMode) {
	kind := FileKind(mode)
	if mode.IsDir() { // reached through a link: a directory itself is walked
		kind = "a link to a directory (not followed)"
	}
	r.in.Diagnostics = append(r.in.Diagnostics, inputDiag(CodeNotRegularFile, path,
		fmt.Sprintf("%s is %s, not a regular file: skipped", path, kind),
		"name it with -f on its own to read it anyway, or move it out of the directory"))
}

func inputDiag(code, file, msg, hint string) Diagnostic {
	return Diagnostic{Code: code, Severity: severityOf(code), Pos: Position{File: file}, Message: msg, Hint: hint}
}

// FileKind names what a file that is not a regular one is, for messages.
func FileKind(mode fs.FileMode) string {
	switch {
	case mode&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case mode&fs.ModeSocket != 0:
		return "a socket"
	case mode&fs.ModeCharDevice != 0:
		return "a character device"
	case mode&fs.ModeDevice != 0:
		return "a device"
	case mode&fs.ModeDir != 0:
		return "a directory"
	}
	return "not a plain file (" + mode.String() + ")"
}

// FormatSize writes a byte count the way --max-input-size reads it: the
// largest binary unit that divides it (64Mi), else bytes.
func FormatSize(n int64) string {
	for _, u := range []struct {
		suffix string
		size   int64
	}{{"Gi", 1 << 30}, {"Mi", 1 << 20}, {"Ki", 1 << 10}} {
		if n >= u.size && n%u.size == 0 {
			return strconv.FormatInt(n/u.size, 10) + u.suffix
		}
	}
	return strconv.FormatInt(n, 10) + " bytes"
}
