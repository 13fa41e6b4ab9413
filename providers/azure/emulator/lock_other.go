//go:build !unix

package emulator

// fileLock is a no-op where flock is unavailable.
type fileLock struct{}

func acquireLock(string) (*fileLock, error) { return &fileLock{}, nil }

func (*fileLock) release() {}
