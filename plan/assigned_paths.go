package plan

// AssignedPath is a value of a resource the API server assigns: its name
// (Path ["name"]), when built from a UID not assigned yet or from an
// unknown port, or a ServerAssigned marker in its properties.
type AssignedPath struct {
	Path    []string `json:"path"`
	Service string   `json:"service"`
	Field   string   `json:"field"`
}

// AssignedPaths lists them for r, the name first, then properties in key
// order; never nil.
func AssignedPaths(r *Resource) []AssignedPath {
	out := []AssignedPath{}
	if r == nil {
		return out
	}
	assignedIn([]string{"properties"}, r.Properties, &out)
	if ShowName(r.Name()) == r.Name() {
		return out
	}
	name := AssignedPath{Path: []string{"name"}, Field: FieldUID}
	if len(r.Services) == 1 {
		name.Service = r.Services[0]
	}
	if p := UIDPrefixIn(r.Name()); (p == "" || !IsUIDPlaceholder(p)) && len(out) > 0 {
		name.Service, name.Field = out[0].Service, out[0].Field // the port the name is built from
	}
	return append([]AssignedPath{name}, out...)
}

func assignedIn(path []string, v any, out *[]AssignedPath) {
	EachLeafPath(path, v, func(p []string, leaf any) {
		if t, ok := leaf.(serverValue); ok {
			*out = append(*out, AssignedPath{Path: p, Service: t.Service, Field: t.Field})
		}
	})
}
