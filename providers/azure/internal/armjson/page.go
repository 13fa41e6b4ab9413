package armjson

import "fmt"

// Walk decodes the JSON object data member by member. The member named
// array must be an array (or null); instead of decoding it whole, Walk calls
// item with each element, decoded, and the element's bytes. Every other
// member is decoded and handed to other. ints decodes numbers as
// DecodeInts does. A second member named array is an error: its elements
// could not be taken back. found reports whether the array member was there.
func Walk(data []byte, array string, ints bool, item func(v any, raw []byte) error, other func(key string, v any) error) (found bool, err error) {
	p := &jsonParser{data: data, ints: ints}
	p.space()
	if p.i >= len(p.data) || p.data[p.i] != '{' {
		return false, p.errorf("want a JSON object")
	}
	p.i++
	sawArray := false
	for first := true; ; first = false {
		p.space()
		if first && p.i < len(p.data) && p.data[p.i] == '}' {
			p.i++
			break
		}
		k, err := p.key()
		if err != nil {
			return sawArray, err
		}
		switch {
		case k == array && sawArray:
			return sawArray, p.errorf("%q twice in one object", array)
		case k == array:
			sawArray = true
			err = p.items(item)
		default:
			var v any
			if v, err = p.value(1); err == nil {
				err = other(k, v)
			}
		}
		if err != nil {
			return sawArray, err
		}
		done, err := p.endOfObject()
		if err != nil {
			return sawArray, err
		}
		if done {
			break
		}
	}
	p.space()
	if p.i != len(p.data) {
		return sawArray, p.errorf("unexpected data after the JSON value")
	}
	return sawArray, nil
}

// Page walks an ARM list page, {"value":[…],"nextLink":"…"}, calling item
// with each element of value decoded as DecodeInts decodes it, one at a
// time: a page of large bodies is never held decoded as a whole. It returns
// the page's nextLink ("" on the last page).
func Page(data []byte, item func(map[string]any) error) (nextLink string, err error) {
	n := 0
	_, err = Walk(data, "value", true, func(v any, _ []byte) error {
		m, ok := v.(obj)
		if !ok {
			return fmt.Errorf("value[%d] is not a JSON object", n)
		}
		n++
		return item(m)
	}, func(key string, v any) error {
		if key != "nextLink" || v == nil {
			return nil
		}
		s, ok := v.(string)
		if !ok {
			return fmt.Errorf("nextLink is not a string")
		}
		nextLink = s
		return nil
	})
	if err != nil {
		return "", err
	}
	return nextLink, nil
}

// key reads `"name":`.
func (p *jsonParser) key() (string, error) {
	if p.i >= len(p.data) || p.data[p.i] != '"' {
		return "", p.errorf("expected a string key")
	}
	k, err := p.str()
	if err != nil {
		return "", err
	}
	p.space()
	if p.i >= len(p.data) || p.data[p.i] != ':' {
		return "", p.errorf("expected ':'")
	}
	p.i++
	p.space()
	return k, nil
}

// endOfObject consumes the ',' between members or the closing '}'.
func (p *jsonParser) endOfObject() (bool, error) {
	p.space()
	if p.i >= len(p.data) {
		return false, p.errorf("unexpected end of object")
	}
	switch p.data[p.i] {
	case '}':
		p.i++
		return true, nil
	case ',':
		p.i++
		return false, nil
	}
	return false, p.errorf("expected ',' or '}'")
}

func (p *jsonParser) items(item func(v any, raw []byte) error) error {
	if p.i >= len(p.data) || p.data[p.i] != '[' {
		if err := p.literal("null"); err == nil {
			return nil
		}
		return p.errorf("want an array")
	}
	p.i++
	p.space()
	if p.i < len(p.data) && p.data[p.i] == ']' {
		p.i++
		return nil
	}
	for {
		p.space()
		start := p.i
		v, err := p.value(2)
		if err != nil {
			return err
		}
		if err := item(v, p.data[start:p.i:p.i]); err != nil {
			return err
		}
		p.space()
		if p.i >= len(p.data) {
			return p.errorf("unexpected end of array")
		}
		if p.data[p.i] == ']' {
			p.i++
			return nil
		}
		if p.data[p.i] != ',' {
			return p.errorf("expected ',' or ']'")
		}
		p.i++
	}
}
