//go:build unix

package emulator

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// fileLock is an exclusive flock on STATE.lock held while an Emulator has the
// state file open, so two processes never write the same state.
type fileLock struct{ f *os.File }

func acquireLock(statePath string) (*fileLock, error) {
	path := statePath + ".lock"
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("lock emulator state %s: %w", statePath, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("emulator state %s is in use by another process (lock file %s)", statePath, path)
		}
		return nil, fmt.Errorf("lock emulator state %s: %w", statePath, err)
	}
	return &fileLock{f: f}, nil
}

func (l *fileLock) release() {
	_ = syscall.Flock(int(l.f.Fd()), syscall.LOCK_UN)
	_ = l.f.Close()
}
