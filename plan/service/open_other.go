//go:build !unix

package service

import "os"

// openInput opens a file to read (see open_unix.go).
func openInput(path string, _ bool) (*os.File, os.FileInfo, error) {
	f, err := os.Open(path)
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
