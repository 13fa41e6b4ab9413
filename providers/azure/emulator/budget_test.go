package emulator

import (
	"net/http"
	"strconv"
	"testing"
	"time"
)

func TestWriteBudget(t *testing.T) {
	const window = 300 * time.Millisecond
	en := newEnv(t, Options{InstantOperations: true, WriteBudget: 3, WriteWindow: window})
	time.Sleep(window) // the baseline's writes leave the window
	put := func(name string) *http.Response {
		w := do(t, en.e, "PUT", id("publicIPAddresses", name)+apiVersion, `{"location":"eastus"}`)
		return w.Result()
	}
	for i, want := range []string{"2", "1", "0"} {
		resp := put("p" + strconv.Itoa(i))
		if resp.StatusCode != http.StatusCreated || resp.Header.Get("x-ms-ratelimit-remaining-subscription-writes") != want {
			t.Fatalf("write %d: %d, %s writes left, want 201 and %s", i+1, resp.StatusCode,
				resp.Header.Get("x-ms-ratelimit-remaining-subscription-writes"), want)
		}
	}
	if w := do(t, en.e, "GET", id("publicIPAddresses", "p0")+apiVersion, ""); w.Code != http.StatusOK || w.Header().Get("x-ms-ratelimit-remaining-subscription-writes") != "" {
		t.Fatalf("a read: %d, writes header %q", w.Code, w.Header().Get("x-ms-ratelimit-remaining-subscription-writes"))
	}
	resp := put("p3")
	ms, _ := strconv.Atoi(resp.Header.Get("Retry-After-Ms"))
	if resp.StatusCode != http.StatusTooManyRequests || ms <= 0 || ms > int(window/time.Millisecond) ||
		resp.Header.Get("x-ms-ratelimit-remaining-subscription-writes") != "0" {
		t.Fatalf("write past the budget: %d, Retry-After-Ms %q, headers %v", resp.StatusCode, resp.Header.Get("Retry-After-Ms"), resp.Header)
	}
	if en.e.store.get(key(id("publicIPAddresses", "p3"))) != nil {
		t.Fatal("a throttled write was applied")
	}
	time.Sleep(time.Duration(ms) * time.Millisecond)
	if resp := put("p3"); resp.StatusCode != http.StatusCreated {
		t.Fatalf("after Retry-After: %d", resp.StatusCode)
	}
}

func TestObservationWindow(t *testing.T) {
	for d, want := range map[time.Duration]string{5 * time.Minute: "00:05:00", time.Hour + 90*time.Second: "01:01:30", 300 * time.Millisecond: "00:00:00"} {
		if got := observationWindow(d); got != want {
			t.Errorf("observationWindow(%s) = %s, want %s", d, got, want)
		}
	}
}
