package emulator

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
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
		got, err := decodeJSON(data)
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
		out, err := encodeJSON(nil, got)
		if (err != nil) != (wantErr != nil) || string(out) != string(wantOut) {
			t.Fatalf("encode: %s (%v), encoding/json %s (%v)", out, err, wantOut, wantErr)
		}
	})
}
