package emulator

import (
	"net/http"
	"strings"
	"testing"
)

// TestEscapedSlashStaysInItsSegment: the emulator routes on the escaped
// path, so "%2F" inside a name or group never splits it into two segments
// that address another resource (as routing on the decoded path did). The
// resource such a request aims at is untouched.
func TestEscapedSlashStaysInItsSegment(t *testing.T) {
	en := newEnv(t, Options{InstantOperations: true})
	victim := id("publicIPAddresses", "victim")
	body := `{"location":"eastus","sku":{"name":"Standard"},"properties":{"publicIPAllocationMethod":"Static"}}`
	if w := do(t, en.e, "PUT", victim+apiVersion, body); w.Code >= 300 {
		t.Fatalf("create victim: %d %s", w.Code, w.Body.String())
	}
	before := do(t, en.e, "GET", victim+apiVersion, "").Body.String()
	rgPrefix := victim[:strings.Index(victim, "/providers/")]
	for _, path := range []string{
		id("publicIPAddresses", "x%2F..%2Fvictim"),
		id("publicIPAddresses", "x%2Fvictim"),
		id("publicIPAddresses", "victim%2F"),
		rgPrefix + "%2F..%2Frg/providers/Microsoft.Network/publicIPAddresses/victim",
		strings.Replace(victim, "/resourceGroups/", "/resourceGroups/x%2F..%2F", 1),
	} {
		for _, method := range []string{"PUT", "DELETE", "GET"} {
			w := do(t, en.e, method, path+apiVersion, body)
			if w.Code != http.StatusBadRequest || errorCode(t, w) != "InvalidResourceName" {
				t.Errorf("%s %s: %d %s, want 400 InvalidResourceName", method, path, w.Code, w.Body.String())
			}
		}
	}
	if after := do(t, en.e, "GET", victim+apiVersion, "").Body.String(); after != before {
		t.Errorf("victim changed:\n%s\n%s", before, after)
	}
	// Other escapes decode into the one segment they belong to.
	if w := do(t, en.e, "PUT", id("publicIPAddresses", "a%3Fb")+apiVersion, body); w.Code != http.StatusBadRequest || errorCode(t, w) != "InvalidResourceName" {
		t.Errorf("name a?b: %d %s", w.Code, w.Body.String())
	}
	if w := do(t, en.e, "PUT", id("publicIPAddresses", "ok%2Dname")+apiVersion, body); w.Code >= 300 {
		t.Errorf("escaped but valid name ok-name: %d %s", w.Code, w.Body.String())
	}
	if w := do(t, en.e, "GET", id("publicIPAddresses", "ok-name")+apiVersion, ""); w.Code != http.StatusOK {
		t.Errorf("ok-name not stored under its decoded name: %d", w.Code)
	}
}
