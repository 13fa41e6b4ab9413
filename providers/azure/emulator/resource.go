package emulator

import (
	"io"
	"net/http"
	"strings"

	"github.com/azsvc/azsvc/providers/azure/internal/armjson"
)

func decodeBody(r *http.Request) (obj, *armError) {
	data, err := io.ReadAll(io.LimitReader(r.Body, 64<<20))
	if err != nil {
		return nil, badRequest("InvalidRequestContent", "The request content could not be read: %v", err)
	}
	v, err := armjson.Decode(data)
	body, ok := v.(obj)
	if err != nil || !ok {
		return nil, badRequest("InvalidRequestContent", "The request content was invalid and could not be deserialized: %v", err)
	}
	return body, nil
}

// resolve canonicalises the address of a separately stored resource:
// Private DNS lower-cases the names below the zone.
func (k *kind) resolve(a *address) {
	if k.lowerName {
		for i := 3; i < len(a.segs); i += 2 {
			a.segs[i] = strings.ToLower(a.segs[i])
		}
	}
}

func (e *Emulator) serveResource(w http.ResponseWriter, r *http.Request, a *address, k *kind, failOp bool) *armError {
	k.resolve(a)
	if len(a.segs) > 2 && e.store.get(key(a.idOf(len(a.segs)-2))) == nil {
		parent := *a
		parent.segs = a.segs[:len(a.segs)-2]
		return resourceNotFound(&parent)
	}
	switch r.Method {
	case http.MethodGet:
		en := e.lookup(k, a.id())
		if en == nil {
			return resourceNotFound(a)
		}
		writeRaw(w, http.StatusOK, e.render(en, k, r))
		return nil
	case http.MethodPut, http.MethodPatch:
		if k.readOnly {
			return methodNotAllowed(r, a)
		}
		return e.putResource(w, r, a, k, failOp)
	case http.MethodDelete:
		if k.readOnly {
			return methodNotAllowed(r, a)
		}
		return e.deleteResource(w, r, a, k, failOp)
	}
	return methodNotAllowed(r, a)
}

func (e *Emulator) lockCheck(k string) *armError {
	if op := e.ops.pending(k, e.opts.OperationTimeout); op != nil {
		return newErr(http.StatusConflict, "AnotherOperationInProgress",
			"Another operation on this or dependent resource is in progress. To retrieve status of the operation use operation %s.", op.id)
	}
	return nil
}

func (e *Emulator) putResource(w http.ResponseWriter, r *http.Request, a *address, k *kind, failOp bool) *armError {
	id := a.id()
	rk := key(id)
	cur := e.lookup(k, id)
	if err := e.lockCheck(rk); err != nil {
		return err
	}
	var old obj
	if cur != nil {
		old = cur.body()
	}
	if err := checkPreconditions(r, old, id); err != nil {
		return err
	}
	if !k.nameOK(a.name()) {
		return badRequest("InvalidResourceName", "Resource name %s is invalid. The name can be up to 80 characters long. It must begin with a word character, and it must end with a word character or with '_'. The name may contain word characters or '.', '-', '_'.", a.name())
	}
	body, err := decodeBody(r)
	if err != nil {
		return err
	}
	if err := bindBody(body, k.armType, r.Method); err != nil {
		return err
	}
	if r.Method == http.MethodPatch {
		if old == nil {
			return resourceNotFound(a)
		}
		body = mergePatch(old, body)
	}
	c := &writeCtx{e: e, t: e.store.begin(), k: k, a: a, id: id, old: old, body: body}
	if err := e.write(c); err != nil {
		return err
	}
	status := http.StatusOK
	if cur == nil {
		status = http.StatusCreated
	}
	style := k.lro
	if r.Method == http.MethodPatch && style == lroNRP {
		style = lroNone // NRP's UpdateTags is synchronous
	}
	op := e.startOp(rk, style, failOp)
	e.operationHeaders(w, r, a, style, op, getStr(body, "location"))
	if style == lroDNS {
		op.result = k
		writeRaw(w, http.StatusAccepted, []byte("{}"))
		return nil
	}
	writeRaw(w, status, e.render(e.store.get(rk), k, r))
	return nil
}

// write validates c.body as a whole, stages it with whatever else it
// changes, commits and saves. Nothing changes when validation fails.
func (e *Emulator) write(c *writeCtx) *armError {
	if err := c.fill(); err != nil {
		return err
	}
	if c.k.prepare != nil {
		if err := c.k.prepare(c); err != nil {
			return err
		}
	}
	if c.after != nil {
		if err := c.after(c); err != nil {
			return err
		}
	}
	c.t.stage(c.k.armType, c.body)
	return e.commit(c.t)
}

func (e *Emulator) commit(t *tx) *armError {
	t.commit()
	return e.persist()
}

func (e *Emulator) startOp(rk string, style lroStyle, failOp bool) *operation {
	var failure *armError
	if failOp {
		failure = newErr(http.StatusInternalServerError, "InternalServerError", "The operation failed (injected fault).")
	}
	need := e.opts.InProgressPolls
	if style == lroNone {
		need, failure = 0, nil
	}
	if failure != nil {
		need = max(need, 1)
	}
	return e.ops.start(rk, need, failure)
}

func mergePatch(old, patch obj) obj {
	out := copyObj(old)
	for k, v := range patch {
		if k == "properties" {
			p := props(out)
			for pk, pv := range getObj(patch, "properties") {
				p[pk] = pv
			}
			continue
		}
		out[k] = v
	}
	return out
}

func (e *Emulator) deleteResource(w http.ResponseWriter, r *http.Request, a *address, k *kind, failOp bool) *armError {
	id := a.id()
	rk := key(id)
	cur := e.lookup(k, id)
	if cur == nil {
		w.WriteHeader(http.StatusNoContent)
		return nil
	}
	if err := e.lockCheck(rk); err != nil {
		return err
	}
	if err := checkPreconditions(r, cur.body(), id); err != nil {
		return err
	}
	if failOp && k.lro == lroNone {
		// A synchronous delete has no operation to fail: it fails at once,
		// deleting nothing (answering 200 without deleting told the
		// client a delete happened that did not).
		return newErr(http.StatusInternalServerError, "InternalServerError", "The operation failed (injected fault).")
	}
	if !failOp {
		c := &writeCtx{e: e, t: e.store.begin(), k: k, a: a, id: id, old: cur.body()}
		if k.onDelete != nil {
			if err := k.onDelete(c); err != nil {
				return err
			}
		}
		c.t.remove(rk)
		if err := e.commit(c.t); err != nil {
			return err
		}
	}
	if k.lro == lroNone {
		w.WriteHeader(http.StatusOK)
		return nil
	}
	op := e.startOp(rk, k.lro, failOp)
	e.operationHeaders(w, r, a, k.lro, op, getStr(cur.body(), "location"))
	w.WriteHeader(http.StatusAccepted)
	return nil
}

// render returns the GET body of an entry: the stored body plus what is
// derived at read time (operation state, back-references, counts).
func (e *Emulator) render(en *entry, k *kind, r *http.Request) []byte {
	state := e.ops.provisioningState(key(en.id), e.opts.OperationTimeout)
	if state == "" && k.decorate == nil {
		return en.raw
	}
	body := en.body()
	b := make(obj, len(body))
	for f, v := range body {
		b[f] = v
	}
	p := make(obj)
	for f, v := range getObj(body, "properties") {
		p[f] = v
	}
	b["properties"] = p
	if state != "" {
		p["provisioningState"] = state
	}
	if k.decorate != nil {
		k.decorate(e, b, r)
	}
	raw, _ := armjson.Append(nil, b)
	return raw
}
