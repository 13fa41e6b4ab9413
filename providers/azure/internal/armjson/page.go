package armjson

import "fmt"

// Page walks an ARM list page, {"value":[…],"nextLink":"…"}, calling item
// with each element of value decoded as DecodeInts decodes it, one at a
// time: a page of large bodies is never held decoded as a whole. It returns
// the page's nextLink ("" on the last page).
func Page(data []byte, item func(map[string]any) error) (nextLink string, err error) {
	p := &jsonParser{data: data, ints: true}
	p.space()
	if p.i >= len(p.data) || p.data[p.i] != '{' {
		return "", p.errorf("a list page is a JSON object")
	}
	p.i++
	sawValue := false
	for first := true; ; first = false {
		p.space()
		if p.i < len(p.data) && p.data[p.i] == '}' && first {
			p.i++
			break
		}
		k, err := p.key()
		if err != nil {
			return "", err
		}
		switch k {
		case "value":
			if sawValue {
				return "", p.errorf("%s twice in one page", `"value"`)
			}
			sawValue = true
			err = p.items(item)
		case "nextLink":
			nextLink, err = p.optionalString()
		default:
			_, err = p.value(1)
		}
		if err != nil {
			return "", err
		}
		if done, err := p.endOfObject(); err != nil || done {
			if err != nil {
				return "", err
			}
			break
		}
	}
	p.space()
	if p.i != len(p.data) {
		return "", p.errorf("unexpected data after the JSON value")
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

func (p *jsonParser) items(item func(map[string]any) error) error {
	if p.i >= len(p.data) || p.data[p.i] != '[' {
		if err := p.literal("null"); err == nil {
			return nil
		}
		return p.errorf("value is not an array")
	}
	p.i++
	p.space()
	if p.i < len(p.data) && p.data[p.i] == ']' {
		p.i++
		return nil
	}
	for n := 0; ; n++ {
		p.space()
		v, err := p.value(2)
		if err != nil {
			return err
		}
		m, ok := v.(obj)
		if !ok {
			return fmt.Errorf("value[%d] is not a JSON object", n)
		}
		if err := item(m); err != nil {
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

func (p *jsonParser) optionalString() (string, error) {
	if p.i < len(p.data) && p.data[p.i] == 'n' {
		return "", p.literal("null")
	}
	if p.i >= len(p.data) || p.data[p.i] != '"' {
		return "", p.errorf("nextLink is not a string")
	}
	return p.str()
}
