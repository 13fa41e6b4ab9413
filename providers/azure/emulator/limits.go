package emulator

import (
	"bytes"
	"io"
	"net/http"
	"sort"
	"unicode/utf8"
)

// ARM's request and tag limits. ARM refuses a request body over 4 MB with
// 413 RequestContentTooLarge (Azure/azure-resource-manager-rpc#138 documents
// the limit; MicrosoftDocs/azure-docs#74251 and Azure/ALZ-Bicep#833 show the
// status, code and message). Tags: at most 50 per resource, names of at most
// 512 characters, values of at most 256 (learn.microsoft.com, "Use tags to
// organize your Azure resources", Limitations; the value error's code and
// message are ARM's, Azure-Samples/azure-search-openai-demo#1997).
const (
	maxRequestBody = 4 << 20
	maxTags        = 50
	maxTagName     = 512
	maxTagValue    = 256
)

func contentTooLarge() *armError {
	return newErr(http.StatusRequestEntityTooLarge, "RequestContentTooLarge",
		"The request content size exceeds the maximum size of 4 MB.")
}

// readBody reads a request's body into memory before the request waits for
// the emulator, refusing one over maxRequestBody without reading past the
// limit: by its Content-Length when it declares one, else once the limit
// is passed. The body is then read again from memory.
func readBody(r *http.Request) *armError {
	if r.Body == nil || r.Body == http.NoBody {
		return nil
	}
	if r.ContentLength > maxRequestBody {
		return contentTooLarge()
	}
	data, err := io.ReadAll(io.LimitReader(r.Body, maxRequestBody+1))
	if err != nil {
		return badRequest("InvalidRequestContent", "The request content could not be read: %v", err)
	}
	if len(data) > maxRequestBody {
		return contentTooLarge()
	}
	r.Body = io.NopCloser(bytes.NewReader(data))
	return nil
}

// checkTags applies ARM's tag limits to a body's tags. The value's error is
// ARM's; the name's follows it, and TooManyTags is the emulator's own code
// (no ARM source found for either).
func checkTags(body obj) *armError {
	tags := getObj(body, "tags")
	if len(tags) > maxTags {
		return badRequest("TooManyTags", "The resource has %d tags; a resource can have at most %d tag name/value pairs.", len(tags), maxTags)
	}
	names := make([]string, 0, len(tags))
	for name := range tags {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if utf8.RuneCountInString(name) > maxTagName {
			return badRequest("InvalidTagNameLength",
				"Tag name too large.  Following tag name '%s' exceeded the maximum length. Maximum allowed length for tag name - '%d' characters.", name, maxTagName)
		}
		if v, _ := tags[name].(string); utf8.RuneCountInString(v) > maxTagValue {
			return badRequest("InvalidTagValueLength",
				"Tag value too large.  Following tag value '%s' exceeded the maximum length. Maximum allowed length for tag value - '%d' characters.", v, maxTagValue)
		}
	}
	return nil
}
