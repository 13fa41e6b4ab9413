package emulator

import (
	"encoding/json"
	"net/http"
	"net/url"
	"testing"
)

// pollLocation follows a Private DNS write's Location URL until it stops
// answering 202, as the JS SDK does for a PATCH (final-state-via location),
// and returns the last answer.
func pollLocation(t *testing.T, e *Emulator, location string) (int, obj) {
	t.Helper()
	u, err := url.Parse(location)
	if err != nil || location == "" {
		t.Fatalf("Location header %q", location)
	}
	for range 10 {
		w := do(t, e, "GET", u.RequestURI(), "")
		if w.Code == http.StatusAccepted {
			continue
		}
		var body obj
		_ = json.Unmarshal(w.Body.Bytes(), &body)
		return w.Code, body
	}
	t.Fatal("the operation never ended")
	return 0, nil
}

// Issue 21 item 9: when a Private DNS zone's or link's PUT or PATCH is done,
// its Location URL answers 200 with the resource, as ARM does; it answered
// 204 with no body, which the JS SDK takes as the PATCH's (empty) result. A
// delete's Location URL still ends with no body.
func TestPrivateDNSLocationAnswersTheResource(t *testing.T) {
	en := newEnv(t, Options{}) // operations take one InProgress poll
	zone := id("privateDnsZones", "privatelink.example.com")
	link := zone + "/virtualNetworkLinks/link"
	writes := []struct{ method, path, body, tag string }{
		{"PUT", zone, `{"location":"global"}`, ""},
		{"PATCH", zone, `{"tags":{"team":"a"}}`, "a"},
		{"PUT", link, `{"location":"global","properties":{"virtualNetwork":{"id":"` + id("virtualNetworks", "vnet") + `"},"registrationEnabled":false}}`, ""},
		{"PATCH", link, `{"tags":{"team":"b"}}`, "b"},
	}
	for _, wr := range writes {
		w := do(t, en.e, wr.method, wr.path+dnsAPIVersion, wr.body)
		if w.Code != http.StatusAccepted {
			t.Fatalf("%s %s: %d %s", wr.method, wr.path, w.Code, w.Body.String())
		}
		code, body := pollLocation(t, en.e, w.Header().Get("Location"))
		if code != http.StatusOK || !sameID(getStr(body, "id"), wr.path) ||
			getStr(getObj(body, "properties"), "provisioningState") != "Succeeded" || getStr(getObj(body, "tags"), "team") != wr.tag {
			t.Fatalf("%s %s: the Location URL answered %d %v, want 200 and the resource", wr.method, wr.path, code, body)
		}
	}
	w := do(t, en.e, "DELETE", link+dnsAPIVersion, "")
	if code, body := pollLocation(t, en.e, w.Header().Get("Location")); code != http.StatusNoContent || body != nil {
		t.Fatalf("DELETE: the Location URL answered %d %v, want 204", code, body)
	}
}

func sameID(a, b string) bool { return key(a) == key(b) }
