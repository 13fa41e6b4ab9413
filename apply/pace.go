package apply

import "time"

// ARM counts writes per subscription: Microsoft.Network allows 1,000 writes
// (PUT and DELETE) per 5 minutes (arm-rules §2.3), and says how many are
// left in x-ms-ratelimit-remaining-subscription-writes on every write.
const (
	NetworkWriteBudget = 1000
	NetworkWriteWindow = 5 * time.Minute
)

// MinDuration is the least time n writes take when ARM allows budget writes
// per window and the budget is spent at that rate: ARM's limit is shared
// with every other writer in the subscription (CCM among them), so a run
// cannot count on a full budget at its start. Zero when n fits in one budget.
func MinDuration(n, budget int, window time.Duration) time.Duration {
	if budget <= 0 || n <= budget {
		return 0
	}
	return time.Duration(float64(window) * float64(n) / float64(budget))
}

// RateLimited is implemented by providers that see ARM's rate-limit
// headers (providers/azure.Provider).
type RateLimited interface {
	// RemainingWrites is the x-ms-ratelimit-remaining-subscription-writes
	// value of the last response that carried one; ok is false before any.
	RemainingWrites() (n int, ok bool)
}

// Pacing tunes how apply spends ARM's write budget. The zero value paces
// against Microsoft.Network's 5-minute window and leaves no reserve.
type Pacing struct {
	// Window is ARM's observation window for writes (default 5 minutes).
	Window time.Duration
	// Reserve is how many writes apply leaves unspent for other writers
	// in the subscription.
	Reserve int
	// Off disables pacing: apply then only reacts to 429s.
	Off bool
}

func (p Pacing) withDefaults() Pacing {
	if p.Window <= 0 {
		p.Window = NetworkWriteWindow
	}
	p.Reserve = max(p.Reserve, 0)
	return p
}

// pacer decides how long to wait before a write so that it does not go out
// into a spent budget. It models ARM's window as sliding: each write apply
// made frees its slot one window after it was sent. After each write it
// reads what ARM says is left; before the next, it counts the writes of its
// own that have left the window since and, when nothing would be left but
// the reserve, waits for the next of them to leave. A budget that is spent
// by others, not by apply, frees no slot apply knows of: apply then sends,
// and ARM's 429 and its Retry-After take over (RetryPolicy).
type pacer struct {
	opts    Pacing
	limits  RateLimited
	sent    []time.Time // apply's writes, oldest first, within a window of the last reading
	left    int         // writes ARM said were left at its last reading
	readAt  time.Time
	known   bool
	largest int // the largest budget seen: left plus apply's writes in the window
}

func newPacer(opts Pacing, prov Provider) *pacer {
	p := &pacer{opts: opts.withDefaults()}
	if rl, ok := prov.(RateLimited); ok && !p.opts.Off {
		p.limits = rl
	}
	return p
}

// wait returns how long to wait before the next write at now, and the
// writes the budget is estimated to hold then.
func (p *pacer) wait(now time.Time) (time.Duration, int) {
	if p.limits == nil || !p.known {
		return 0, -1
	}
	freed, left := p.freedBy(now), p.left
	if left+freed > p.opts.Reserve {
		return 0, left + freed
	}
	next := freed + p.opts.Reserve - left // index of the write whose expiry frees enough
	if next >= len(p.sent) {
		return 0, left + freed
	}
	return p.sent[next].Add(p.opts.Window).Sub(now), left + freed
}

// freedBy counts apply's writes that left the window between the last
// reading and now.
func (p *pacer) freedBy(now time.Time) int {
	n := 0
	for _, t := range p.sent {
		if !t.Add(p.opts.Window).After(now) && t.Add(p.opts.Window).After(p.readAt) {
			n++
		}
	}
	return n
}

// wrote records a write whose answer came at now, and what ARM said was
// left after it. ARM counted the write at some moment before now, so it
// leaves ARM's window no later than one window after now. When ARM says
// more is left than apply's own writes leaving the window explain, some of
// them left earlier (ARM counted them before apply saw their answers): the
// oldest are dropped, so the next wait is for a write ARM still counts.
func (p *pacer) wrote(now time.Time) {
	if p.limits == nil {
		return
	}
	expected := p.left + p.freedBy(now) - 1
	p.sent = append(p.sent, now)
	cut := 0
	for cut < len(p.sent) && !p.sent[cut].Add(p.opts.Window).After(now) {
		cut++
	}
	left, ok := p.limits.RemainingWrites()
	if ok && p.known && left > expected {
		cut += left - expected
	}
	p.sent = p.sent[min(cut, len(p.sent)-1):]
	if ok {
		p.left, p.readAt, p.known = left, now, true
		p.largest = max(p.largest, left+len(p.sent))
	}
}

// eta estimates the time the steps left take: the pace of the writes so far
// and, when the budget is smaller than what is left, the rate ARM allows.
func (p *pacer) eta(stepsLeft, stepsDone int, elapsed time.Duration, now time.Time) time.Duration {
	if stepsDone == 0 || stepsLeft == 0 {
		return 0
	}
	d := elapsed / time.Duration(stepsDone) * time.Duration(stepsLeft)
	if p.limits == nil || !p.known || p.largest <= 0 {
		return d
	}
	_, avail := p.wait(now)
	if over := stepsLeft - max(avail-p.opts.Reserve, 0); over > 0 {
		d = max(d, time.Duration(float64(p.opts.Window)*float64(over)/float64(p.largest)))
	}
	return d
}
