package emulator

import (
	"net/http"
	"strconv"
	"time"
)

// lroStyle is how a resource type reports long-running operations (arm-rules §3.1).
type lroStyle int

const (
	lroNone lroStyle = iota // synchronous (record sets, PLS connection approval)
	lroNRP                  // Azure-AsyncOperation at locations/{region}/operations/{id}
	lroDNS                  // 202 {} and privateDnsOperationStatuses/{id}
)

type operation struct {
	id      string
	resKey  string
	need    int // InProgress polls before the end
	polls   int
	created time.Time
	failure *armError // non-nil: the operation ends Failed with this error
	done    bool
	// result is the kind of the resource a Private DNS PUT or PATCH wrote:
	// its result URL answers the resource once done; nil for a delete.
	result *kind
}

type operations struct {
	byID   map[string]*operation
	byRes  map[string]*operation // latest unfinished operation per resource
	failed map[string]bool       // resources whose last operation failed
}

func newOperations() *operations {
	return &operations{byID: map[string]*operation{}, byRes: map[string]*operation{}, failed: map[string]bool{}}
}

func (o *operations) start(resKey string, need int, failure *armError) *operation {
	if len(o.byID) > 10000 {
		o.prune()
	}
	op := &operation{id: newGUID(), resKey: resKey, need: need, created: time.Now(), failure: failure}
	o.byID[op.id] = op
	delete(o.failed, resKey)
	if need > 0 || failure != nil {
		o.byRes[resKey] = op
	} else {
		op.done = true
	}
	return op
}

func (o *operations) prune() {
	for id, op := range o.byID {
		if op.done {
			delete(o.byID, id)
		}
	}
}

func (o *operations) finish(op *operation) {
	op.done = true
	if o.byRes[op.resKey] == op {
		delete(o.byRes, op.resKey)
	}
	if op.failure != nil {
		o.failed[op.resKey] = true
	}
}

// pending returns the unfinished operation on a resource, ending it first if
// nobody polled it within timeout.
func (o *operations) pending(resKey string, timeout time.Duration) *operation {
	op := o.byRes[resKey]
	if op != nil && time.Since(op.created) > timeout {
		o.finish(op)
		return nil
	}
	return op
}

// poll advances an operation by one status request.
func (o *operations) poll(op *operation, timeout time.Duration) {
	if op.done {
		return
	}
	op.polls++
	if op.polls > op.need || time.Since(op.created) > timeout {
		o.finish(op)
	}
}

// provisioningState is what a GET shows for a resource while operations run.
func (o *operations) provisioningState(resKey string, timeout time.Duration) string {
	if o.pending(resKey, timeout) != nil {
		return "Updating"
	}
	if o.failed[resKey] {
		return "Failed"
	}
	return ""
}

func (op *operation) status() string {
	switch {
	case !op.done:
		return "InProgress"
	case op.failure != nil:
		return "Failed"
	}
	return "Succeeded"
}

func (op *operation) body() obj {
	b := obj{"name": op.id, "status": op.status(), "startTime": op.created.UTC().Format(time.RFC3339Nano)}
	if op.failure != nil && op.done {
		b["error"] = obj{"code": op.failure.Code, "message": op.failure.Message, "details": []any{}}
	}
	return b
}

func setRetryAfter(h http.Header, d time.Duration) {
	ms := max((d + time.Millisecond - 1).Milliseconds(), 1) // rounded up: a client waiting this long is not early
	h.Set("Retry-After-Ms", strconv.FormatInt(ms, 10))
	h.Set("Retry-After", strconv.FormatInt((ms+999)/1000, 10))
}

// operationHeaders sets the polling headers of a write response (arm-rules §3.1).
func (e *Emulator) operationHeaders(w http.ResponseWriter, r *http.Request, a *address, style lroStyle, op *operation, location string) {
	base := baseURL(r)
	v := "?api-version=" + r.URL.Query().Get("api-version")
	var status, result string
	switch style {
	case lroNRP:
		if location == "" {
			location = "global"
		}
		prefix := base + "/subscriptions/" + a.sub + "/providers/Microsoft.Network/locations/" + location
		status, result = prefix+"/operations/"+op.id+v, prefix+"/operationResults/"+op.id+v
		w.Header().Set("Azure-AsyncNotification", "Enabled")
	case lroDNS:
		prefix := base + a.rgID() + "/providers/Microsoft.Network/"
		status, result = prefix+"privateDnsOperationStatuses/"+op.id+v, prefix+"privateDnsOperationResults/"+op.id+v
	default:
		return
	}
	w.Header().Set("Azure-AsyncOperation", status)
	if r.Method == http.MethodDelete || style == lroDNS {
		w.Header().Set("Location", result)
	}
	// No Retry-After here: azcore would sleep before its first poll. The
	// InProgress poll answers carry Retry-After-Ms instead (arm-rules §3.2).
}

// servePoll answers a status URL (operations, privateDnsOperationStatuses)
// with {"status":…} and a result URL (operationResults, privateDnsOperationResults)
// with 202 until the operation ends.
func (e *Emulator) servePoll(w http.ResponseWriter, r *http.Request, id string, result bool) {
	op := e.ops.byID[id]
	if op == nil {
		writeError(w, newErr(http.StatusNotFound, "OperationNotFound", "Operation %s was not found.", id))
		return
	}
	e.ops.poll(op, e.opts.OperationTimeout)
	if !op.done {
		setRetryAfter(w.Header(), e.opts.RetryAfter)
	}
	switch {
	case !result:
		writeJSON(w, http.StatusOK, op.body())
	case !op.done:
		w.Header().Set("Location", baseURL(r)+r.URL.RequestURI())
		w.WriteHeader(http.StatusAccepted)
	case op.failure != nil:
		writeError(w, op.failure)
	case op.result != nil && e.store.get(op.resKey) != nil:
		// Private DNS answers its Location URL with the resource written
		// (issue 21: the JS SDK reads a PATCH's result from it).
		writeRaw(w, http.StatusOK, e.render(e.store.get(op.resKey), op.result, r))
	default:
		w.WriteHeader(http.StatusNoContent)
	}
}

func baseURL(r *http.Request) string {
	scheme := r.URL.Scheme
	if scheme == "" {
		scheme = "http"
		if r.TLS != nil {
			scheme = "https"
		}
	}
	host := r.Host
	if host == "" {
		host = r.URL.Host
	}
	return scheme + "://" + host
}
