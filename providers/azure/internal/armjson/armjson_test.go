package armjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// The codec must agree with encoding/json on every input: same value or
// both an error when decoding, byte-identical output when encoding.
func FuzzJSONCodec(f *testing.F) {
	for _, s := range []string{`{}`, `[]`, `{"a":[1,2.5,-3e-9,1e21,true,false,null],"b":{"c":"x\u00e9\ud83d\ude00<&>\u2028"}}`,
		`"\ud800"`, `{"a":1,}`, `01`, `1.`, `"\x01"`, `[1 2]`, `{"a" 1}`, "\"\xff\"", `  3  `, `-0`, `1E+2`} {
		f.Add([]byte(s))
	}
	paths, _ := filepath.Glob("/work/shared/reference/arm-examples/*.json")
	for _, p := range paths {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var want any
		wantErr := json.Unmarshal(data, &want)
		got, err := Decode(data)
		if (err != nil) != (wantErr != nil) {
			t.Fatalf("decode %q: error %v, encoding/json error %v", data, err, wantErr)
		}
		if err != nil {
			return
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("decode %q: %#v, encoding/json %#v", data, got, want)
		}
		wantOut, wantErr := json.Marshal(want)
		out, err := Append(nil, got)
		if (err != nil) != (wantErr != nil) || string(out) != string(wantOut) {
			t.Fatalf("encode: %s (%v), encoding/json %s (%v)", out, err, wantOut, wantErr)
		}
	})
}

// DecodeInts must agree with encoding/json's UseNumber decoding followed by
// turning integral numbers that fit an int into ints, the rest into float64.
func FuzzDecodeInts(f *testing.F) {
	for _, s := range []string{`{"a":[1,2.5,-3e-9,1e21,1.0,1E2,-0,9223372036854775807,9223372036854775808]}`, `[1 2]`, `-01`, `{}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		var want any
		wantErr := dec.Decode(&want)
		if wantErr == nil && dec.More() {
			wantErr = errors.New("trailing data")
		}
		if wantErr == nil {
			if _, err := dec.Token(); err != io.EOF {
				wantErr = errors.New("trailing data")
			}
		}
		if wantErr == nil && !finite(want) {
			// encoding/json without UseNumber refuses such numbers too.
			wantErr = errors.New("number out of range")
		}
		got, err := DecodeInts(data)
		if (err != nil) != (wantErr != nil) {
			t.Fatalf("decode %q: error %v, encoding/json error %v", data, err, wantErr)
		}
		if err == nil && !reflect.DeepEqual(got, intsOf(want)) {
			t.Fatalf("decode %q: %#v, want %#v", data, got, intsOf(want))
		}
	})
}

func finite(v any) bool {
	switch t := v.(type) {
	case map[string]any:
		for _, x := range t {
			if !finite(x) {
				return false
			}
		}
	case []any:
		for _, x := range t {
			if !finite(x) {
				return false
			}
		}
	case json.Number:
		_, err := t.Float64()
		return err == nil
	}
	return true
}

func intsOf(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			t[k] = intsOf(x)
		}
	case []any:
		for i, x := range t {
			t[i] = intsOf(x)
		}
	case json.Number:
		if i, err := t.Int64(); err == nil && i >= math.MinInt && i <= math.MaxInt {
			return int(i)
		}
		f, _ := t.Float64()
		return f
	}
	return v
}

func TestPage(t *testing.T) {
	tests := []struct {
		name, page string
		want       []string
		next       string
		err        bool
	}{
		{"items and next", `{"value":[{"id":"a","n":1},{"id":"b"}],"nextLink":"https://x/?$skiptoken=2"}`, []string{"a", "b"}, "https://x/?$skiptoken=2", false},
		{"last page", `{"nextLink":null,"value":[]}`, nil, "", false},
		{"no value", `{}`, nil, "", false},
		{"extra fields", `{"odata":{"x":[1]},"value":[{"id":"a"}]}`, []string{"a"}, "", false},
		{"not an object", `[]`, nil, "", true},
		{"item not an object", `{"value":[1]}`, nil, "", true},
		{"truncated", `{"value":[{"id":"a"}`, []string{"a"}, "", true},
		{"trailing", `{"value":[]} x`, nil, "", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var ids []string
			next, err := Page([]byte(tc.page), func(m map[string]any) error {
				ids = append(ids, m["id"].(string))
				if n, ok := m["n"]; ok && n != 1 {
					t.Errorf("n = %#v, want int 1", n)
				}
				return nil
			})
			if (err != nil) != tc.err || next != tc.next || !reflect.DeepEqual(ids, tc.want) {
				t.Fatalf("Page(%s) = %q, %v, ids %v; want %q, error %v, ids %v", tc.page, next, err, ids, tc.next, tc.err, tc.want)
			}
		})
	}
}

// Page must accept exactly the pages DecodeInts accepts whose value is an
// array of objects (or absent or null) and whose nextLink is a string (or
// absent or null), and hand over the same items.
func FuzzPage(f *testing.F) {
	for _, s := range []string{`{"value":[{"id":"a","n":1}],"nextLink":"x"}`, `{"value":null}`, `{"value":[1]}`, `{"nextLink":2}`, `{"a":1,"a":2}`, `{"value":[{}],"value":[]}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var got []any
		next, err := Page(data, func(m map[string]any) error { got = append(got, m); return nil })
		if err != nil && strings.Contains(err.Error(), "twice in one object") {
			return // encoding/json keeps the last "value"; Page refuses
		}
		whole, wholeErr := DecodeInts(data)
		page, isObj := whole.(map[string]any)
		valid := wholeErr == nil && isObj
		var want []any
		if valid {
			switch v := page["value"].(type) {
			case nil:
			case []any:
				for _, it := range v {
					if _, ok := it.(map[string]any); !ok {
						valid = false
					}
				}
				want = v
			default:
				valid = false
			}
			switch l := page["nextLink"].(type) {
			case nil, string:
				if s, _ := l.(string); valid && err == nil && s != next {
					t.Fatalf("Page(%q) nextLink %q, want %q", data, next, s)
				}
			default:
				valid = false
			}
		}
		if valid != (err == nil) {
			t.Fatalf("Page(%q) error %v; whole decode error %v, valid page %v", data, err, wholeErr, valid)
		}
		if err == nil && len(got)+len(want) > 0 && !reflect.DeepEqual(got, want) {
			t.Fatalf("Page(%q) items %#v, want %#v", data, got, want)
		}
	})
}
