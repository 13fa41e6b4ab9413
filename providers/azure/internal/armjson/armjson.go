// Package armjson is a generic JSON codec for ARM bodies, shared by the
// provider (reading ARM into plan state) and the emulator (validating and
// storing bodies). A 1,500-child load balancer is decoded on every read and
// on every emulator PUT, and encoding/json's interface decoding and
// reflective map encoding cost several times more than this. Output matches
// encoding/json's (sorted keys, same escapes).
package armjson

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// Decode parses data into map[string]any, []any, string, float64, bool or
// nil, as encoding/json does into an any.
func Decode(data []byte) (any, error) { return decode(data, false) }

// DecodeInts is Decode with integral numbers that fit an int decoded as int,
// the others as float64: observed ARM values then compare equal to the ints
// desired state uses.
func DecodeInts(data []byte) (any, error) { return decode(data, true) }

func decode(data []byte, ints bool) (any, error) {
	p := &jsonParser{data: data, ints: ints}
	p.space()
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.space()
	if p.i != len(p.data) {
		return nil, p.errorf("unexpected data after the JSON value")
	}
	return v, nil
}

type jsonParser struct {
	data []byte
	i    int
	ints bool
}

type obj = map[string]any

const maxJSONDepth = 1000

func (p *jsonParser) errorf(format string, args ...any) error {
	return fmt.Errorf("invalid JSON at offset %d: %s", p.i, fmt.Sprintf(format, args...))
}

func (p *jsonParser) space() {
	for p.i < len(p.data) {
		switch p.data[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *jsonParser) value(depth int) (any, error) {
	if depth > maxJSONDepth {
		return nil, p.errorf("nesting deeper than %d", maxJSONDepth)
	}
	if p.i >= len(p.data) {
		return nil, p.errorf("unexpected end of input")
	}
	switch c := p.data[p.i]; {
	case c == '{':
		return p.object(depth)
	case c == '[':
		return p.array(depth)
	case c == '"':
		return p.str()
	case c == 't':
		return true, p.literal("true")
	case c == 'f':
		return false, p.literal("false")
	case c == 'n':
		return nil, p.literal("null")
	case c == '-' || c >= '0' && c <= '9':
		return p.number()
	}
	return nil, p.errorf("unexpected character %q", p.data[p.i])
}

func (p *jsonParser) literal(word string) error {
	if len(p.data)-p.i < len(word) || string(p.data[p.i:p.i+len(word)]) != word {
		return p.errorf("invalid literal")
	}
	p.i += len(word)
	return nil
}

func (p *jsonParser) object(depth int) (any, error) {
	p.i++
	m := obj{}
	p.space()
	if p.i < len(p.data) && p.data[p.i] == '}' {
		p.i++
		return m, nil
	}
	for {
		p.space()
		if p.i >= len(p.data) || p.data[p.i] != '"' {
			return nil, p.errorf("expected a string key")
		}
		k, err := p.str()
		if err != nil {
			return nil, err
		}
		p.space()
		if p.i >= len(p.data) || p.data[p.i] != ':' {
			return nil, p.errorf("expected ':'")
		}
		p.i++
		p.space()
		v, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		m[k] = v
		p.space()
		if p.i >= len(p.data) {
			return nil, p.errorf("unexpected end of object")
		}
		if p.data[p.i] == '}' {
			p.i++
			return m, nil
		}
		if p.data[p.i] != ',' {
			return nil, p.errorf("expected ',' or '}'")
		}
		p.i++
	}
}

func (p *jsonParser) array(depth int) (any, error) {
	p.i++
	arr := []any{}
	p.space()
	if p.i < len(p.data) && p.data[p.i] == ']' {
		p.i++
		return arr, nil
	}
	for {
		p.space()
		v, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		arr = append(arr, v)
		p.space()
		if p.i >= len(p.data) {
			return nil, p.errorf("unexpected end of array")
		}
		if p.data[p.i] == ']' {
			p.i++
			return arr, nil
		}
		if p.data[p.i] != ',' {
			return nil, p.errorf("expected ',' or ']'")
		}
		p.i++
	}
}

func (p *jsonParser) number() (any, error) {
	start := p.i
	if p.data[p.i] == '-' {
		p.i++
	}
	digits := func() int {
		n := 0
		for p.i < len(p.data) && p.data[p.i] >= '0' && p.data[p.i] <= '9' {
			p.i++
			n++
		}
		return n
	}
	intStart := p.i
	if digits() == 0 || (p.data[intStart] == '0' && p.i-intStart > 1) {
		return nil, p.errorf("invalid number")
	}
	integral := true
	if p.i < len(p.data) && p.data[p.i] == '.' {
		p.i++
		integral = false
		if digits() == 0 {
			return nil, p.errorf("invalid number")
		}
	}
	if p.i < len(p.data) && (p.data[p.i] == 'e' || p.data[p.i] == 'E') {
		p.i++
		integral = false
		if p.i < len(p.data) && (p.data[p.i] == '+' || p.data[p.i] == '-') {
			p.i++
		}
		if digits() == 0 {
			return nil, p.errorf("invalid number")
		}
	}
	lit := string(p.data[start:p.i])
	if p.ints && integral {
		if n, err := strconv.ParseInt(lit, 10, 0); err == nil {
			return int(n), nil
		}
	}
	f, err := strconv.ParseFloat(lit, 64)
	if err != nil {
		return nil, p.errorf("number %s: %v", lit, err)
	}
	return f, nil
}

func (p *jsonParser) str() (string, error) {
	p.i++
	start := p.i
	for p.i < len(p.data) {
		c := p.data[p.i]
		if c == '"' {
			s := string(p.data[start:p.i])
			p.i++
			if !utf8.ValidString(s) {
				return string([]rune(s)), nil // replace invalid UTF-8 as encoding/json does
			}
			return s, nil
		}
		if c == '\\' {
			return p.escapedStr(start)
		}
		if c < 0x20 {
			return "", p.errorf("control character in string")
		}
		p.i++
	}
	return "", p.errorf("unterminated string")
}

func (p *jsonParser) escapedStr(start int) (string, error) {
	buf := append([]byte(nil), p.data[start:p.i]...)
	for p.i < len(p.data) {
		c := p.data[p.i]
		switch {
		case c == '"':
			p.i++
			if !utf8.Valid(buf) {
				return string([]rune(string(buf))), nil
			}
			return string(buf), nil
		case c < 0x20:
			return "", p.errorf("control character in string")
		case c != '\\':
			buf = append(buf, c)
			p.i++
			continue
		}
		if p.i+1 >= len(p.data) {
			return "", p.errorf("unterminated escape")
		}
		e := p.data[p.i+1]
		p.i += 2
		switch e {
		case '"', '\\', '/':
			buf = append(buf, e)
		case 'b':
			buf = append(buf, '\b')
		case 'f':
			buf = append(buf, '\f')
		case 'n':
			buf = append(buf, '\n')
		case 'r':
			buf = append(buf, '\r')
		case 't':
			buf = append(buf, '\t')
		case 'u':
			r, err := p.hexRune()
			if err != nil {
				return "", err
			}
			if utf16.IsSurrogate(r) {
				r = p.lowSurrogate(r)
			}
			buf = utf8.AppendRune(buf, r)
		default:
			return "", p.errorf("invalid escape \\%c", e)
		}
	}
	return "", p.errorf("unterminated string")
}

func (p *jsonParser) hexRune() (rune, error) {
	if len(p.data)-p.i < 4 {
		return 0, p.errorf("short \\u escape")
	}
	v, err := strconv.ParseUint(string(p.data[p.i:p.i+4]), 16, 32)
	if err != nil {
		return 0, p.errorf("invalid \\u escape")
	}
	p.i += 4
	return rune(v), nil
}

// lowSurrogate completes a UTF-16 pair, or yields U+FFFD like encoding/json.
func (p *jsonParser) lowSurrogate(hi rune) rune {
	if len(p.data)-p.i >= 6 && p.data[p.i] == '\\' && p.data[p.i+1] == 'u' {
		save := p.i
		p.i += 2
		if lo, err := p.hexRune(); err == nil {
			if r := utf16.DecodeRune(hi, lo); r != utf8.RuneError {
				return r
			}
		}
		p.i = save
	}
	return utf8.RuneError
}

// Append appends v, as encoding/json.Marshal would encode it.
func Append(buf []byte, v any) ([]byte, error) {
	switch t := v.(type) {
	case nil:
		return append(buf, "null"...), nil
	case bool:
		return strconv.AppendBool(buf, t), nil
	case string:
		return AppendString(buf, t), nil
	case float64:
		return appendFloat(buf, t)
	case int:
		return strconv.AppendInt(buf, int64(t), 10), nil
	case obj:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		buf = append(buf, '{')
		for i, k := range keys {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = AppendString(buf, k)
			buf = append(buf, ':')
			var err error
			if buf, err = Append(buf, t[k]); err != nil {
				return nil, err
			}
		}
		return append(buf, '}'), nil
	case []any:
		buf = append(buf, '[')
		for i, x := range t {
			if i > 0 {
				buf = append(buf, ',')
			}
			var err error
			if buf, err = Append(buf, x); err != nil {
				return nil, err
			}
		}
		return append(buf, ']'), nil
	}
	return nil, fmt.Errorf("cannot encode %T as JSON", v)
}

// appendFloat formats like encoding/json: shortest form, exponent only for
// very large or small magnitudes.
func appendFloat(buf []byte, f float64) ([]byte, error) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return nil, errors.New("cannot encode a non-finite number as JSON")
	}
	abs, format := math.Abs(f), byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	buf = strconv.AppendFloat(buf, f, format, -1, 64)
	if format == 'e' { // clean up e-09 to e-9, as encoding/json does
		if n := len(buf); n >= 4 && buf[n-4] == 'e' && buf[n-3] == '-' && buf[n-2] == '0' {
			buf[n-2] = buf[n-1]
			buf = buf[:n-1]
		}
	}
	return buf, nil
}

const hexDigits = "0123456789abcdef"

// AppendString quotes s with encoding/json's escapes (HTML-safe).
func AppendString(buf []byte, s string) []byte {
	buf = append(buf, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			buf = append(buf, s[start:i]...)
			switch c {
			case '"', '\\':
				buf = append(buf, '\\', c)
			case '\n':
				buf = append(buf, '\\', 'n')
			case '\r':
				buf = append(buf, '\\', 'r')
			case '\t':
				buf = append(buf, '\\', 't')
			case '\b':
				buf = append(buf, '\\', 'b')
			case '\f':
				buf = append(buf, '\\', 'f')
			default:
				buf = append(buf, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			buf = append(buf, s[start:i]...)
			buf = append(buf, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			buf = append(buf, s[start:i]...)
			buf = append(buf, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	buf = append(buf, s[start:]...)
	return append(buf, '"')
}
