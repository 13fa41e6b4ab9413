package plan

// A base→head plan writes what the base input would build into a
// throwaway emulator, the placeholders of values the API server assigns
// included (Placeholder), and reads it back as the state the head input is
// planned against. There, a placeholder is turned back into its marker, so
// that the diff compares the same unknown on both sides as equal and the
// renderers word it instead of printing a number no port can be.

// Placeholders indexes the markers of st's properties by the placeholder a
// written body holds for each.
type Placeholders map[placeholderKey]any

type placeholderKey struct {
	number int64
	text   string
}

func keyOfPlaceholder(v any) (placeholderKey, bool) {
	switch t := v.(type) {
	case string:
		return placeholderKey{text: t}, t != ""
	}
	if n, ok := Number(v); ok && IsPortPlaceholder(int64(n)) {
		return placeholderKey{number: int64(n)}, true
	}
	return placeholderKey{}, false
}

// PlaceholdersOf collects the markers of st.
func PlaceholdersOf(st *State) Placeholders {
	out := Placeholders{}
	for _, r := range st.resources {
		eachLeaf(r.Properties, func(v any) {
			if ph, ok := Placeholder(v); ok {
				if k, ok := keyOfPlaceholder(ph); ok {
					out[k] = v
				}
			}
		})
	}
	return out
}

// Restore replaces, in the properties of st's resources, every placeholder
// of p by its marker. Only strings p knows are touched: a number is a
// placeholder only in the range no port reaches.
func (p Placeholders) Restore(st *State) {
	if len(p) == 0 {
		return
	}
	for _, r := range st.resources {
		if r.Properties == nil {
			continue
		}
		MapLeaves(r.Properties, func(v any) any {
			if k, ok := keyOfPlaceholder(v); ok {
				if m, ok := p[k]; ok {
					return m
				}
			}
			return v
		})
	}
}
