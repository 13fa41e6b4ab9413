package engine

import (
	"fmt"
	"io"
	"os"
)

// Bounds on the files azsvc reads whole besides manifests (those have
// --max-input-size): a saved plan of 10,000 Services with the cluster
// objects it read is tens of megabytes; azure.json a few kilobytes. A
// path such as /dev/zero is refused at the bound instead of filling
// memory. Variables so that tests can lower them.
var (
	MaxSavedPlanSize int64 = 256 << 20
	MaxConfigSize    int64 = 4 << 20
)

// readBounded reads path whole, refusing more than limit bytes.
func readBounded(path string, limit int64, what string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", what, err)
	}
	defer f.Close()
	if info, err := f.Stat(); err == nil && info.Mode().IsRegular() && info.Size() > limit {
		return nil, fmt.Errorf("%s %s is larger than %d MiB: not a file azsvc wrote", what, path, limit>>20)
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, fmt.Errorf("read %s %s: %w", what, path, err)
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s %s is larger than %d MiB: not a file azsvc wrote", what, path, limit>>20)
	}
	return data, nil
}
