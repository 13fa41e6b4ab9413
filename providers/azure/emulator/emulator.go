// Package emulator is a local, in-process Azure Resource Manager for the
// networking resource types azsvc manages. It speaks ARM's REST protocol
// (arm-rules §1, §3), enforces what real ARM enforces (§2), injects faults,
// counts calls and persists its state as a JSON file of GET-shaped bodies.
//
// SDK clients reach it like any cloud: a cloud.Configuration whose
// ResourceManager endpoint is Endpoint, a transport that calls
// Emulator.Transport, and any token credential:
//
//	opts := &arm.ClientOptions{ClientOptions: policy.ClientOptions{
//		Cloud:     cloud.Configuration{Services: map[cloud.ServiceName]cloud.ServiceConfiguration{
//			cloud.ResourceManager: {Audience: "https://management.azure.com", Endpoint: emulator.Endpoint}}},
//		Transport: doer{e.Transport()}, // Do(req) = RoundTrip(req)
//	}}
//
// Long-running operations answer InProgress once (Options.InProgressPolls)
// with Retry-After-Ms, so PollUntilDone sleeps about a millisecond per write.
package emulator

import (
	"fmt"
	"net/http"
	"os"
	"sync"
	"time"
)

// Endpoint is the base URL the in-process transport answers for. It is https
// because azcore's bearer-token policy refuses plain http; the in-process
// transport never does TLS.
const Endpoint = "https://emulator.azsvc.local"

// Options configure an Emulator. The zero value is an in-memory emulator with
// fast long-running operations.
type Options struct {
	StatePath string  // "" keeps the state in memory; else loaded by Open, journaled on every write (persist.go)
	Seed      int64   // makes probabilistic faults deterministic
	Faults    []Fault // injected failures, matched in order

	PageSize          int           // list page size; 0 means 100
	InProgressPolls   int           // status polls answering InProgress before an operation ends; 0 means 1
	InstantOperations bool          // operations are done at once (no InProgress poll at all)
	RetryAfter        time.Duration // sent as Retry-After-Ms on operations; 0 means 1ms
	OperationTimeout  time.Duration // an operation nobody polls ends after this; 0 means 2s

	// WriteBudget > 0 limits write requests to WriteBudget per WriteWindow
	// (0 means 5 minutes), sliding, as ARM does; every write answer then
	// carries x-ms-ratelimit-remaining-subscription-writes, and a write past
	// the budget gets 429 with Retry-After (budget.go).
	WriteBudget int
	WriteWindow time.Duration

	// Placeholders accepts, as a probe's port or a rule's backend port, the
	// placeholders that stand for node ports the API server has not
	// assigned yet (plan.IsPortPlaceholder): only the throwaway emulator
	// of a base→head plan (azsvc plan --base) is given them. ARM refuses
	// such a port, as this emulator otherwise does.
	Placeholders bool

	// WriteFault, when set, is asked before every write to the state's
	// files (journal appends, a new snapshot) with the file's path; an
	// error it returns fails that write before any byte is written, as a
	// full disk would. It rehearses a full disk in tests.
	WriteFault func(path string) error
}

func (o Options) withDefaults() Options {
	if o.PageSize <= 0 {
		o.PageSize = 100
	}
	if o.InProgressPolls <= 0 {
		o.InProgressPolls = 1
	}
	if o.InstantOperations {
		o.InProgressPolls = 0
	}
	if o.RetryAfter <= 0 {
		o.RetryAfter = time.Millisecond
	}
	if o.OperationTimeout <= 0 {
		o.OperationTimeout = 2 * time.Second
	}
	return o
}

// Emulator is an ARM emulator. It is safe for concurrent use; requests are
// served one at a time, like the serial apply they stand in for.
type Emulator struct {
	opts     Options
	mu       sync.Mutex
	store    *store
	kinds    map[string]*kind
	ops      *operations
	faults   *faultSet
	counters Counters
	budget   *writeBudget
	lock     *fileLock

	// Persistence (persist.go, journal.go): the snapshot the journal
	// extends, and the journal, opened by the first write (a session that
	// only reads leaves both files as they are). journalSize is the size
	// of its whole lines, also while it is not open.
	base         string
	snapshotSize int64
	journal      *os.File
	journalSize  int64
	journalFound bool // a journal extending the snapshot was loaded
	compactMin   int64
	hooks        *persistHooks
	// broken is set when a failed journal append could not be cut off:
	// the journal ends in a torn line, and no write is accepted after it.
	broken error
}

// Open creates an emulator, loading opts.StatePath when the file exists. A
// state file that cannot be read or parsed is an error and is left untouched.
func Open(opts Options) (*Emulator, error) {
	opts = opts.withDefaults()
	e := &Emulator{
		opts:     opts,
		store:    newStore(),
		kinds:    newKinds(),
		ops:      newOperations(),
		faults:   newFaultSet(opts.Seed, opts.Faults),
		counters: newCounters(),
		budget:   newWriteBudget(opts.WriteBudget, opts.WriteWindow),

		compactMin: compactAt,
	}
	if opts.StatePath == "" {
		return e, nil
	}
	lock, err := acquireLock(opts.StatePath)
	if err != nil {
		return nil, err
	}
	e.lock = lock
	if err := e.load(); err != nil {
		lock.release()
		return nil, err
	}
	return e, nil
}

// Close folds the journal this emulator wrote into the state file and
// releases the state file's lock. An emulator that served no write leaves
// the files as they were, a journal left by an earlier process included:
// reading never needs a fold. A fold that fails (a full disk) is no error:
// the journal holds every write acknowledged, and the next Open replays it.
func (e *Emulator) Close() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.lock == nil {
		return nil
	}
	if e.journal != nil {
		_ = e.compact()
	}
	err := e.closeJournal()
	e.lock.release()
	e.lock = nil
	return err
}

// Save writes the whole state file now and empties the journal (every
// write is journaled as it is made, so this is never needed for safety).
func (e *Emulator) Save() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.compact()
}

// Handler serves ARM REST.
func (e *Emulator) Handler() http.Handler { return http.HandlerFunc(e.serveHTTP) }

// Counters returns the live call counters.
func (e *Emulator) Counters() Counters { return e.counters }

func (e *Emulator) String() string {
	return fmt.Sprintf("emulator(%d resources)", len(e.store.entries))
}
