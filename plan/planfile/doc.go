// Package planfile is the saved form of a plan: what `azsvc plan --out`
// writes and `azsvc apply FILE` reads (ux-anchors §8.6).
//
// A saved plan is JSON with a format_version "MAJOR.MINOR". Compatibility
// rule: a reader accepts every file of its own major version and ignores
// fields it does not know; a new field that readers may ignore bumps the
// minor version, anything else the major. Unknown and AfterApply markers
// are written as {"$azsvc_unknown": {"source": key, "field": name}} so they
// survive the round trip.
//
// Version history: 1.0 wrote impact sentences and blocked reasons as
// English; 1.1 writes the typed reason, cause and block codes instead (the
// renderers word them); 2.0 adds the sources apply makes the plan again
// from and a checksum of the file, both required: apply trusts no plan it
// cannot make again and check, so 1.x files are refused. 2.1 adds the
// record of what the plan leaves in Azure (plan --since compares a later
// ARM with it to find drift) and the drift the plan itself found. 3.0
// names the scope's keys in snake_case like the rest (2.x wrote Go's field
// names), and adds the scope's focus and the cluster objects a plan made
// --from-cluster read. 3.1 adds the context and API server a plan made
// --from-cluster read, where apply takes the lease. 3.2 adds the values the
// API server assigns that the plan needs (apply refuses it), and writes
// their markers as {"$azsvc_assigned": {"service", "field", "placeholder",
// "as"}} ("as" is the placeholder as a body would hold it). 3.3 adds the
// did-you-mean of blocked entries (blocked[].suggestion) and the Services
// outside the input whose resources the plan deletes, as named when it was
// made (removed_services), so show names them too.
package planfile
