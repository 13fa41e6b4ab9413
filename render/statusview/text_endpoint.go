package statusview

import (
	"fmt"

	"github.com/azsvc/azsvc/plan/conditions"
)

// endpoint writes one PrivateEndpoint object's block.
func (t *textWriter) endpoint(e conditions.Endpoint, source string) {
	t.header("PrivateEndpoint", e.Name, source)
	t.conditions(e.Conditions, e.IPAddress)
	if e.Endpoint.Address != "" {
		h := "Private endpoint " + name(lastName(e.Endpoint.Address)) + ": "
		if e.Endpoint.Exists {
			h += orNone(q(e.IPAddress), "no address yet") + ", connection " + orNone(q(e.Connection), "state unknown")
		} else {
			h += missing
		}
		if e.PrivateLinkService != "" {
			h += ", to " + q(e.PrivateLinkService)
		}
		if t.wide {
			h += map[bool]string{true: " (manual approval)", false: " (automatic approval)"}[e.Manual]
		}
		t.line(1, h)
		t.id(2, e.Endpoint)
	}
	for _, z := range e.Zones {
		t.zone(z)
	}
}

func (t *textWriter) zone(z conditions.Zone) {
	h := "Zone " + q(z.Name)
	if !z.Exists {
		h += ": " + missing
	}
	t.line(1, h)
	t.id(2, z.Resource)
	for _, l := range z.Links {
		h := "Link " + q(l.Name) + ": "
		if l.Exists {
			h += "to " + orNone(q(l.VirtualNetwork), "no virtual network")
		} else {
			h += missing
		}
		t.line(2, h)
	}
	for _, r := range z.Records {
		h := "A " + q(r.Name) + ": "
		if r.Exists {
			h += t.more(r.IPAddresses)
			if len(r.IPAddresses) == 0 {
				h += "no address"
			}
			if t.wide {
				h += fmt.Sprintf(", TTL %d s", r.TTL)
			}
		} else {
			h += missing
		}
		t.line(2, h)
	}
}
