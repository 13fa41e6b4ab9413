package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/azsvc/azsvc/plan/service"
)

// byteSize is a size flag: a whole number of bytes with an optional unit,
// binary (Ki, Mi, Gi, also KiB...) or decimal (K, M, G, also KB...), as
// Kubernetes quantities and most tools write them.
type byteSize int64

func (b *byteSize) String() string { return service.FormatSize(int64(*b)) }
func (b *byteSize) Type() string   { return "size" }

func (b *byteSize) Set(s string) error {
	n, err := parseSize(s)
	if err != nil {
		return err
	}
	*b = byteSize(n)
	return nil
}

// maxSize keeps sizes far from int64 overflow; no input is a petabyte.
const maxSize = 1 << 50

func parseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	i := len(t)
	for i > 0 && (t[i-1] < '0' || t[i-1] > '9') {
		i--
	}
	unit, ok := sizeUnit(strings.ToLower(strings.TrimSpace(t[i:])))
	n, err := strconv.ParseInt(t[:i], 10, 64)
	switch {
	case !ok:
		return 0, fmt.Errorf("size %q: unknown unit %q (use Ki, Mi, Gi, K, M or G)", s, t[i:])
	case err != nil || n <= 0:
		return 0, fmt.Errorf("size %q: want a positive whole number with an optional unit, e.g. 64Mi", s)
	case n > maxSize/unit:
		return 0, fmt.Errorf("size %q is too large", s)
	}
	return n * unit, nil
}

func sizeUnit(u string) (int64, bool) {
	switch strings.TrimSuffix(u, "b") {
	case "":
		return 1, true
	case "k":
		return 1e3, true
	case "ki":
		return 1 << 10, true
	case "m":
		return 1e6, true
	case "mi":
		return 1 << 20, true
	case "g":
		return 1e9, true
	case "gi":
		return 1 << 30, true
	}
	return 0, false
}
