package emulator

import (
	"fmt"
	"sort"
	"strings"
	"sync"
)

// Methods under which calls are counted. A list (a GET of a collection, each
// page counted) is MethodList; a GET of an operation status or result is MethodPoll.
const (
	MethodGet    = "GET"
	MethodList   = "LIST"
	MethodPut    = "PUT"
	MethodPatch  = "PATCH"
	MethodDelete = "DELETE"
	MethodPost   = "POST"
	MethodPoll   = "POLL"
)

// Counters count the requests the emulator served by method and ARM type
// (e.g. "Microsoft.Network/loadBalancers/backendAddressPools"). Faulted
// requests count too: the client made them. The zero Counters is not usable;
// get one from Emulator.Counters.
type Counters struct{ c *counterSet }

type counterSet struct {
	mu sync.Mutex
	n  map[string]int // "METHOD armType"
}

func newCounters() Counters { return Counters{c: &counterSet{n: map[string]int{}}} }

func (c Counters) add(method, armType string) {
	c.c.mu.Lock()
	c.c.n[method+" "+armType]++
	c.c.mu.Unlock()
}

// Count returns the calls of one method on one ARM type ("" matches every type).
func (c Counters) Count(method, armType string) int {
	return c.sum(func(m, t string) bool {
		return m == method && (armType == "" || strings.EqualFold(t, armType))
	})
}

// Reads returns GETs and LISTs of armType ("" for every type); polls are not reads.
func (c Counters) Reads(armType string) int {
	return c.Count(MethodGet, armType) + c.Count(MethodList, armType)
}

// Writes returns PUTs, PATCHes, DELETEs and POSTs of armType ("" for every type).
func (c Counters) Writes(armType string) int {
	return c.Count(MethodPut, armType) + c.Count(MethodPatch, armType) +
		c.Count(MethodDelete, armType) + c.Count(MethodPost, armType)
}

// Polls returns the GETs of long-running operation status and result URLs.
func (c Counters) Polls() int { return c.Count(MethodPoll, "") }

// Total returns every counted request.
func (c Counters) Total() int { return c.sum(func(string, string) bool { return true }) }

func (c Counters) sum(match func(method, armType string) bool) int {
	c.c.mu.Lock()
	defer c.c.mu.Unlock()
	total := 0
	for k, n := range c.c.n {
		m, t, _ := strings.Cut(k, " ")
		if match(m, t) {
			total += n
		}
	}
	return total
}

// Snapshot returns a copy of the counts keyed "METHOD armType".
func (c Counters) Snapshot() map[string]int {
	c.c.mu.Lock()
	defer c.c.mu.Unlock()
	out := make(map[string]int, len(c.c.n))
	for k, n := range c.c.n {
		out[k] = n
	}
	return out
}

// Reset zeroes every counter.
func (c Counters) Reset() {
	c.c.mu.Lock()
	c.c.n = map[string]int{}
	c.c.mu.Unlock()
}

// String lists the counts one per line, sorted, for test failure messages.
func (c Counters) String() string {
	snap := c.Snapshot()
	keys := make([]string, 0, len(snap))
	for k := range snap {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "%s %d\n", k, snap[k])
	}
	return b.String()
}

// Summary is one line of totals by method, e.g. "requests=12 get=0 list=8
// put=2 patch=0 delete=0 post=0 poll=2", for `azsvc -v` and
// `emulator serve --stats` (scripts/bench.sh parses it).
func (c Counters) Summary() string {
	methods := []string{MethodGet, MethodList, MethodPut, MethodPatch, MethodDelete, MethodPost, MethodPoll}
	var b strings.Builder
	fmt.Fprintf(&b, "requests=%d", c.Total())
	for _, m := range methods {
		fmt.Fprintf(&b, " %s=%d", strings.ToLower(m), c.Count(m, ""))
	}
	return b.String()
}
