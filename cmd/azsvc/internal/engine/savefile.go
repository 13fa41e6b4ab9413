package engine

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/azsvc/azsvc/plan/service"
)

// OutPathError is a plan --out target azsvc will not write: anything but a
// regular file (or none yet). Renaming over a device, FIFO or socket would
// replace it (/dev/null with a plan), and writing into one could block or
// go nowhere. A usage error (exit 64).
type OutPathError struct {
	Path string
	What string // service.FileKind: "a named pipe (FIFO)", "a directory", ...
}

func (e *OutPathError) Error() string {
	return fmt.Sprintf("--out %s is %s: a saved plan goes to a regular file (new, or replaced whole)", e.Path, e.What)
}

// CheckOutPath refuses an --out target that exists and is not a regular
// file, a symbolic link to one included.
func CheckOutPath(path string) error {
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return fmt.Errorf("--out %s: %w", path, err)
	case fi.Mode().IsRegular():
		return nil
	}
	return &OutPathError{Path: path, What: service.FileKind(fi.Mode())}
}

// writeFileAtomic writes data to a new file beside path and renames it
// over path, so a reader never sees half a plan and a failed write leaves
// the old file whole. A symbolic link stays: the file it names is
// replaced. Only a regular file, or none, is replaced (CheckOutPath).
func writeFileAtomic(path string, data []byte) error {
	if err := CheckOutPath(path); err != nil {
		return err
	}
	target := path
	if resolved, err := filepath.EvalSymlinks(path); err == nil {
		target = resolved
	}
	tmp, err := os.CreateTemp(filepath.Dir(target), "."+filepath.Base(target)+".*.tmp") // mode 0600
	if err != nil {
		return err
	}
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), target)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}
