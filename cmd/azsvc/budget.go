package main

import (
	"strconv"
	"strings"
	"time"
)

// writeBudget is a --write-budget value: N writes per window, "1000/5m"
// (or "1000", per 5 minutes, ARM's Microsoft.Network window).
type writeBudget struct {
	Writes int
	Window time.Duration
}

func parseWriteBudget(flag, s string) (writeBudget, error) {
	if s == "" {
		return writeBudget{}, nil
	}
	n, per, hasWindow := strings.Cut(s, "/")
	b := writeBudget{Window: 5 * time.Minute}
	var err error
	if b.Writes, err = strconv.Atoi(n); err != nil || b.Writes <= 0 {
		return writeBudget{}, usageErrorf("--%s %q: want WRITES/WINDOW with WRITES a positive number, e.g. 1000/5m", flag, s)
	}
	if hasWindow {
		if b.Window, err = time.ParseDuration(per); err != nil || b.Window <= 0 {
			return writeBudget{}, usageErrorf("--%s %q: want WRITES/WINDOW with WINDOW a duration such as 5m or 30s", flag, s)
		}
	}
	return b, nil
}
