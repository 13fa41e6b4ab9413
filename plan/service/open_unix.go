//go:build unix

package service

import (
	"os"
	"syscall"
)

// openInput opens a file to read. A file found by walking a directory is
// opened without blocking, so that a FIFO put there after the walk cannot
// hang the open; the caller checks the type with the returned info.
func openInput(path string, inDirectory bool) (*os.File, os.FileInfo, error) {
	flags := os.O_RDONLY
	if inDirectory {
		flags |= syscall.O_NONBLOCK
	}
	f, err := os.OpenFile(path, flags, 0)
	if err != nil {
		return nil, nil, err
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, info, nil
}
