package main

import (
	"os"
	"path/filepath"
)

// workTreeRoot is the root of the git work tree dir is in: the nearest
// directory at or above dir holding a .git directory, or a .git file (a
// linked worktree or a submodule). It returns dir itself when there is
// none, so SARIF paths fall back to being relative to the working
// directory. It reads only names, never git's data.
func workTreeRoot(dir string) string {
	if dir == "" {
		return ""
	}
	for d := filepath.Clean(dir); ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return dir
		}
		d = parent
	}
}
