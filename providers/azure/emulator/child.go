package emulator

import (
	"net/http"
	"strings"

	"github.com/azsvc/azsvc/providers/azure/internal/armjson"
)

func findChild(parent obj, prop, name string) obj {
	for _, it := range getObjs(getObj(parent, "properties"), prop) {
		if strings.EqualFold(getStr(it, "name"), name) {
			return it
		}
	}
	return nil
}

// serveChild serves an inline child (an LB pool, an NSG rule, a subnet…).
// A child write is a write of the whole parent, validated as a whole.
func (e *Emulator) serveChild(w http.ResponseWriter, r *http.Request, a *address, top *kind, spec *childSpec, failOp bool) *armError {
	topAddr := *a
	topAddr.segs = a.segs[:2]
	pk := key(topAddr.id())
	parent := e.store.get(pk)
	if parent == nil {
		return resourceNotFound(&topAddr)
	}
	prop, name := a.segs[2], a.segs[3]
	child := findChild(parent.body(), prop, name)
	if r.Method == http.MethodGet {
		if child == nil {
			return childNotFound(a.id())
		}
		writeJSON(w, http.StatusOK, e.withState(pk, child))
		return nil
	}
	if !spec.writable || (r.Method != http.MethodPut && r.Method != http.MethodDelete) {
		return methodNotAllowed(r, a)
	}
	if r.Method == http.MethodDelete && child == nil {
		w.WriteHeader(http.StatusNoContent)
		return nil
	}
	if err := e.lockCheck(pk); err != nil {
		return err
	}
	if err := checkPreconditions(r, child, a.id()); err != nil {
		return err
	}
	c := &writeCtx{e: e, t: e.store.begin(), k: top, a: &topAddr, id: topAddr.id(), old: parent.body(), body: copyObj(parent.body()), child: true}
	if r.Method == http.MethodDelete {
		return e.deleteChild(w, r, c, spec, prop, child, failOp)
	}
	return e.putChild(w, r, c, spec, prop, name, child, failOp)
}

func (e *Emulator) putChild(w http.ResponseWriter, r *http.Request, c *writeCtx, spec *childSpec, prop, name string, child obj, failOp bool) *armError {
	if spec.mustExist && child == nil {
		return childNotFound(c.id + "/" + prop + "/" + name)
	}
	if !validName(name) {
		return badRequest("InvalidResourceName", "Resource name %s is invalid.", name)
	}
	body, err := decodeBody(r)
	if err != nil {
		return err
	}
	if err := bindBody(body, c.k.armType+"/"+prop, r.Method); err != nil {
		return err
	}
	if child != nil {
		name = getStr(child, "name")
	}
	body["name"] = name
	p := props(c.body)
	items := getObjs(p, prop)
	replaced := false
	for i, it := range items {
		if strings.EqualFold(getStr(it, "name"), name) {
			items[i], replaced = body, true
		}
	}
	if !replaced {
		items = append(items, body)
	}
	setObjs(p, prop, items)
	if spec.afterPut != nil {
		c.after = func(c *writeCtx) *armError { return spec.afterPut(c, findChild(c.body, prop, name)) }
	}
	if err := e.write(c); err != nil {
		return err
	}
	saved := findChild(e.store.get(key(c.id)).body(), prop, name)
	if spec.mustExist { // PLS connection approval is synchronous (arm-rules §3.1)
		writeJSON(w, http.StatusOK, saved)
		return nil
	}
	status := http.StatusOK
	if child == nil {
		status = http.StatusCreated
	}
	op := e.startOp(key(c.id), spec.lro, failOp)
	e.operationHeaders(w, r, c.a, spec.lro, op, getStr(c.body, "location"))
	writeJSON(w, status, e.withState(key(c.id), saved))
	return nil
}

func (e *Emulator) deleteChild(w http.ResponseWriter, r *http.Request, c *writeCtx, spec *childSpec, prop string, child obj, failOp bool) *armError {
	if !failOp {
		p := props(c.body)
		items := getObjs(p, prop)
		kept := items[:0]
		for _, it := range items {
			if !strings.EqualFold(getStr(it, "name"), getStr(child, "name")) {
				kept = append(kept, it)
			}
		}
		setObjs(p, prop, kept)
		if spec.afterDel != nil {
			c.after = func(c *writeCtx) *armError { return spec.afterDel(c, child) }
		}
		if err := e.write(c); err != nil {
			return err
		}
	}
	op := e.startOp(key(c.id), lroNRP, failOp)
	e.operationHeaders(w, r, c.a, lroNRP, op, getStr(c.old, "location"))
	w.WriteHeader(http.StatusAccepted)
	return nil
}

func (e *Emulator) listTop(w http.ResponseWriter, r *http.Request, a *address, top *kind) *armError {
	prefix := "/subscriptions/" + a.sub + "/"
	if a.rg != "" {
		if e.store.get(key(a.rgID())) == nil {
			return rgNotFound(a.rg)
		}
		prefix = a.rgID() + "/providers/" + a.namespace + "/" + a.segs[0] + "/"
	}
	return e.listKeys(w, r, top, e.store.keysOfType(top.armType, prefix))
}

func (e *Emulator) listSeparate(w http.ResponseWriter, r *http.Request, a *address, k *kind) *armError {
	parent := *a
	parent.segs = a.segs[:len(a.segs)-1]
	if e.store.get(key(parent.id())) == nil {
		return resourceNotFound(&parent)
	}
	return e.listKeys(w, r, k, e.store.keysOfType(k.armType, a.id()+"/"))
}

func (e *Emulator) listKeys(w http.ResponseWriter, r *http.Request, k *kind, keys []string) *armError {
	return e.writePage(w, r, len(keys), func(i int) []byte { return e.render(e.store.get(keys[i]), k, r) })
}

func (e *Emulator) listChildren(w http.ResponseWriter, r *http.Request, a *address) *armError {
	topAddr := *a
	topAddr.segs = a.segs[:2]
	parent := e.store.get(key(topAddr.id()))
	if parent == nil {
		return resourceNotFound(&topAddr)
	}
	items := getObjs(getObj(parent.body(), "properties"), a.segs[2])
	return e.writePage(w, r, len(items), func(i int) []byte {
		raw, _ := armjson.Append(nil, items[i])
		return raw
	})
}

// withState shows a child with its parent's operation state, so a client
// polls until the parent's operation ends.
func (e *Emulator) withState(parentKey string, child obj) obj {
	state := e.ops.provisioningState(parentKey, e.opts.OperationTimeout)
	if state == "" {
		return child
	}
	c := make(obj, len(child))
	for k, v := range child {
		c[k] = v
	}
	p := make(obj)
	for k, v := range getObj(child, "properties") {
		p[k] = v
	}
	p["provisioningState"] = state
	c["properties"] = p
	return c
}
