package emulator

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
)

// Transport returns a RoundTripper that serves every request (any host) by
// calling the handler directly: no sockets, no TLS.
func (e *Emulator) Transport() http.RoundTripper { return transport{h: e.Handler()} }

type transport struct{ h http.Handler }

func (t transport) RoundTrip(req *http.Request) (*http.Response, error) {
	if err := req.Context().Err(); err != nil {
		return nil, err
	}
	r := req.Clone(req.Context())
	if req.Body != nil {
		defer req.Body.Close()
	} else {
		r.Body = http.NoBody
	}
	r.RequestURI = req.URL.RequestURI()
	if r.Host == "" {
		r.Host = req.URL.Host
	}
	rec := &recorder{header: http.Header{}}
	t.h.ServeHTTP(rec, r)
	if rec.status == 0 {
		rec.status = http.StatusOK
	}
	body := rec.buf.Bytes()
	return &http.Response{
		Status:        fmt.Sprintf("%d %s", rec.status, http.StatusText(rec.status)),
		StatusCode:    rec.status,
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        rec.header,
		Body:          io.NopCloser(bytes.NewReader(body)),
		ContentLength: int64(len(body)),
		Request:       req,
	}, nil
}

// recorder is the minimal ResponseWriter the transport needs.
type recorder struct {
	header http.Header
	status int
	buf    bytes.Buffer
}

func (r *recorder) Header() http.Header { return r.header }

func (r *recorder) WriteHeader(status int) {
	if r.status == 0 {
		r.status = status
	}
}

func (r *recorder) Write(b []byte) (int, error) {
	r.WriteHeader(http.StatusOK)
	return r.buf.Write(b)
}
