package emulator

import (
	"net/http"
	"strings"
	"time"
)

func (e *Emulator) serveHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("x-ms-request-id", newGUID())
	h.Set("Cache-Control", "no-cache")
	if err := readBody(r); err != nil {
		writeError(w, err)
		return
	}
	a, bad, ok := parseRequestPath(r.URL)
	if r.URL.Query().Get("api-version") == "" {
		writeError(w, badRequest("MissingApiVersionParameter", "The api-version query parameter (?api-version=) is required for all requests."))
		return
	}
	if bad != "" {
		writeError(w, badRequest("InvalidResourceName", "Resource name %q is invalid.", bad))
		return
	}
	if !ok {
		writeError(w, newErr(http.StatusNotFound, "InvalidRequestUri", "The request URI %s is not a valid ARM resource URI.", r.URL.Path))
		return
	}
	method := classify(a, r.Method)
	e.counters.add(method, a.armType())
	failOp := false
	for _, f := range e.faults.pick(method, a.armType(), a.name()) {
		switch f.Kind {
		case FaultLatency:
			select {
			case <-time.After(f.Latency):
			case <-r.Context().Done():
				return
			}
		case FaultFailOperation:
			failOp = true
		default:
			if err := faultError(f, w); err != nil {
				writeError(w, err)
				return
			}
		}
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if err := e.checkAPIVersion(r, a); err != nil {
		writeError(w, err)
		return
	}
	if err := e.spendWrite(w, method); err != nil {
		writeError(w, err)
		return
	}
	if err := e.route(w, r, a, failOp); err != nil {
		writeError(w, err)
	}
}

func isPoll(a *address) (id string, result, ok bool) {
	s := a.segs
	switch {
	case a.rg == "" && len(s) == 4 && s[0] == "locations" && (s[2] == "operations" || s[2] == "operationResults"):
		return s[3], s[2] == "operationResults", true
	case a.rg != "" && len(s) == 2 && (s[0] == "privateDnsOperationStatuses" || s[0] == "privateDnsOperationResults"):
		return s[1], s[0] == "privateDnsOperationResults", true
	}
	return "", false, false
}

func classify(a *address, method string) string {
	if _, _, poll := isPoll(a); poll {
		return MethodPoll
	}
	if method == http.MethodGet && len(a.segs)%2 == 1 {
		return MethodList
	}
	return method
}

func (e *Emulator) route(w http.ResponseWriter, r *http.Request, a *address, failOp bool) *armError {
	if a.namespace == "" {
		if a.rg == "" {
			return newErr(http.StatusNotFound, "InvalidRequestUri", "Subscription-level requests are not served by the emulator.")
		}
		return e.serveRG(w, r, a)
	}
	if id, result, ok := isPoll(a); ok {
		e.servePoll(w, r, id, result)
		return nil
	}
	top := e.kinds[strings.ToLower(a.namespace+"/"+a.segs[0])]
	if top == nil {
		return newErr(http.StatusNotFound, "InvalidResourceType",
			"The resource type '%s' could not be found in the namespace '%s'.", a.segs[0], a.namespace)
	}
	if len(a.segs) == 1 {
		return e.listTop(w, r, a, top)
	}
	if a.rg == "" {
		return newErr(http.StatusNotFound, "InvalidRequestUri", "The request URI %s is not a valid ARM resource URI.", r.URL.Path)
	}
	if e.store.get(key(a.rgID())) == nil {
		return rgNotFound(a.rg)
	}
	if len(a.segs) == 3 && top.armType == typeZone && (a.segs[2] == "ALL" || a.segs[2] == "A" || a.segs[2] == "SOA") {
		if e.store.get(key(a.idOf(2))) == nil {
			return resourceNotFound(&address{sub: a.sub, rg: a.rg, namespace: a.namespace, segs: a.segs[:2]})
		}
		return e.listRecordSets(w, r, a)
	}
	if k := e.kinds[strings.ToLower(a.armType())]; k != nil {
		if len(a.segs)%2 == 1 {
			return e.listSeparate(w, r, a, k)
		}
		return e.serveResource(w, r, a, k, failOp)
	}
	spec := top.children[a.segs[2]]
	if spec == nil || len(a.segs) > 4 {
		return newErr(http.StatusNotFound, "InvalidResourceType",
			"The resource type '%s' could not be found in the namespace '%s'.", a.armType(), a.namespace)
	}
	if len(a.segs) == 3 {
		return e.listChildren(w, r, a)
	}
	return e.serveChild(w, r, a, top, spec, failOp)
}

func methodNotAllowed(r *http.Request, a *address) *armError {
	return newErr(http.StatusMethodNotAllowed, "MethodNotAllowed",
		"The HTTP method %s is not supported for resource type %s.", r.Method, a.armType())
}

// checkPreconditions applies If-Match and If-None-Match (arm-rules §2.3).
func checkPreconditions(r *http.Request, current obj, id string) *armError {
	if im := r.Header.Get("If-Match"); im != "" {
		if current == nil {
			e := preconditionFailed(weakForm(im), "(none)", id)
			e.Details[0].Message = "Resource " + id + " does not exist; if-match header " + im + " cannot match."
			return e
		}
		cur := getStr(current, "etag")
		if im != "*" && normalizeETag(im) != normalizeETag(cur) {
			return preconditionFailed(weakForm(im), weakForm(cur), id)
		}
	}
	if inm := r.Header.Get("If-None-Match"); inm == "*" && current != nil {
		return newErr(http.StatusPreconditionFailed, "PreconditionFailed",
			"The resource %s already exists and the request carries If-None-Match: *.", id)
	}
	return nil
}

func normalizeETag(s string) string {
	return strings.Trim(strings.TrimPrefix(strings.TrimSpace(s), "W/"), `"`)
}

func weakForm(s string) string { return `W/"` + normalizeETag(s) + `"` }

func (e *Emulator) serveRG(w http.ResponseWriter, r *http.Request, a *address) *armError {
	k := key(a.rgID())
	cur := e.store.get(k)
	switch r.Method {
	case http.MethodGet, http.MethodHead:
		if cur == nil {
			return rgNotFound(a.rg)
		}
		writeRaw(w, http.StatusOK, cur.raw)
		return nil
	case http.MethodPut:
		body, err := decodeBody(r)
		if err != nil {
			return err
		}
		loc := getStr(body, "location")
		if loc == "" {
			return badRequest("LocationRequired", "The location property is required for this definition.")
		}
		if err := checkTags(body); err != nil {
			return err
		}
		body["id"], body["name"], body["type"] = a.rgID(), a.rg, typeRG
		body["location"] = strings.ToLower(strings.ReplaceAll(loc, " ", ""))
		body["properties"] = obj{"provisioningState": "Succeeded"}
		e.store.put(k, newEntry(typeRG, body))
		if err := e.persist(); err != nil {
			return err
		}
		status := http.StatusOK
		if cur == nil {
			status = http.StatusCreated
		}
		writeRaw(w, status, e.store.get(k).raw)
		return nil
	}
	return methodNotAllowed(r, a)
}

func writeRaw(w http.ResponseWriter, status int, raw []byte) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write(raw)
}
