package emulator

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/azsvc/azsvc/providers/azure/internal/armjson"
)

// armError is an ARM error envelope plus its HTTP status (CloudError in the
// Microsoft.Network swagger; arm-rules §2).
type armError struct {
	Status  int        `json:"-"`
	Code    string     `json:"code"`
	Message string     `json:"message"`
	Details []armError `json:"details"`
}

func (e *armError) Error() string { return fmt.Sprintf("%d %s: %s", e.Status, e.Code, e.Message) }

func newErr(status int, code, format string, args ...any) *armError {
	return &armError{Status: status, Code: code, Message: fmt.Sprintf(format, args...), Details: []armError{}}
}

func badRequest(code, format string, args ...any) *armError {
	return newErr(http.StatusBadRequest, code, format, args...)
}

// invalidReference is the NRP error for a reference that does not resolve (arm-rules §2.2).
func invalidReference(target, source string) *armError {
	return badRequest("InvalidResourceReference",
		"Resource %s referenced by resource %s was not found. Please make sure that the referenced resource exists, and that both resources are in the same region.",
		target, source)
}

func resourceNotFound(a *address) *armError {
	return newErr(http.StatusNotFound, "ResourceNotFound",
		"The Resource '%s/%s' under resource group '%s' was not found. For more details please go to https://aka.ms/ARMResourceNotFoundFix",
		a.namespace, strings.Join(a.segs, "/"), a.rg)
}

func childNotFound(id string) *armError {
	return newErr(http.StatusNotFound, "NotFound", "Resource %s not found.", id)
}

func rgNotFound(rg string) *armError {
	return newErr(http.StatusNotFound, "ResourceGroupNotFound", "Resource group '%s' could not be found.", rg)
}

func preconditionFailed(sent, current, id string) *armError {
	e := newErr(http.StatusPreconditionFailed, "PreconditionFailed", "Precondition failed.")
	e.Details = []armError{{Code: "PreconditionFailedEtagMismatch", Details: []armError{},
		Message: fmt.Sprintf("Etag provided in if-match header %s does not match etag %s of resource %s in NRP data store.", sent, current, id)}}
	return e
}

func writeError(w http.ResponseWriter, e *armError) {
	w.Header().Set("x-ms-error-code", e.Code)
	writeJSON(w, e.Status, obj{"error": e})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	var b []byte
	var err error
	if o, ok := v.(obj); ok && o["error"] == nil {
		b, err = armjson.Append(nil, o)
	} else {
		b, err = json.Marshal(v)
	}
	if err != nil {
		status, b = http.StatusInternalServerError, []byte(`{"error":{"code":"InternalServerError","message":"encoding the response failed"}}`)
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}
