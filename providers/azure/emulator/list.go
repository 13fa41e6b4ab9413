package emulator

import (
	"bytes"
	"net/http"
	"net/url"
	"strconv"
)

// writePage answers a list request with one page of n items and, when more
// remain, a nextLink carrying $skiptoken (the offset of the next page).
func (e *Emulator) writePage(w http.ResponseWriter, r *http.Request, n int, item func(i int) []byte) *armError {
	start := 0
	if tok := r.URL.Query().Get("$skiptoken"); tok != "" {
		v, err := strconv.Atoi(tok)
		if err != nil || v < 0 {
			return badRequest("InvalidSkipToken", "The $skiptoken %q is invalid.", tok)
		}
		start = min(v, n)
	}
	end := min(start+e.opts.PageSize, n)
	// One allocation of the page's size: a page of 40 load balancers of
	// 10,000 Services is tens of megabytes.
	items, size := make([][]byte, end-start), 512
	for i := range items {
		items[i] = item(start + i)
		size += len(items[i]) + 1
	}
	buf := bytes.NewBuffer(make([]byte, 0, size))
	buf.WriteString(`{"value":[`)
	for i, it := range items {
		if i > 0 {
			buf.WriteByte(',')
		}
		buf.Write(it)
	}
	buf.WriteByte(']')
	if end < n {
		q := url.Values{}
		q.Set("api-version", r.URL.Query().Get("api-version"))
		q.Set("$skiptoken", strconv.Itoa(end))
		next := baseURL(r) + r.URL.Path + "?" + q.Encode()
		buf.WriteString(`,"nextLink":`)
		buf.WriteString(strconv.Quote(next))
	}
	buf.WriteByte('}')
	writeRaw(w, http.StatusOK, buf.Bytes())
	return nil
}
