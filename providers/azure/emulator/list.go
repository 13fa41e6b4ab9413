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
	var buf bytes.Buffer
	buf.WriteString(`{"value":[`)
	for i := start; i < end; i++ {
		if i > start {
			buf.WriteByte(',')
		}
		buf.Write(item(i))
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
