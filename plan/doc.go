// Package plan is the domain of azsvc's planning core: the resources azsvc
// plans (Kind, normalised case-insensitive Key and parsed ID, Resource,
// State), what a plan is made of (Change with its typed Reason, Step,
// Blocked with its BlockCode, Plan), the markers for values only Azure can
// assign (Unknown, AfterApply and its conventions), typed views of the ARM
// properties the core reads (props.go), and the body semantics of a PUT
// (Merge, Overlay, WithoutAbsent).
//
// It holds data and rules about data, no I/O and no English: renderers word
// reasons and block codes. The planning steps live in subpackages, each one
// job, run in this order by cmd/azsvc/internal/engine:
//
//	desired  Services + azure.json → desired State (CCM's view of one Service)
//	resolve  desired + observed → final desired state, removals, conflicts
//	diff     resolved vs observed → Changes (child granularity, typed reasons)
//	graph    Changes + references → ordered Steps (one write per parent)
//	limits   Steps → ARM limit uses and refusals
//	planfile Plan ↔ saved plan file, and its preconditions
//
// plan and its subpackages import nothing else from the module.
package plan
