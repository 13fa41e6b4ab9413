package planfile

import (
	"fmt"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/resolve"
)

// RecordOf is azsvc's record of what a plan leaves in Azure once applied:
// the desired body of every resource it writes or finds as wanted, as
// resolve decided them, leaving out what is blocked or serves only
// Services CCM fails. `plan --since FILE` compares it with ARM to find
// what changed outside azsvc since (diff.Drift). Values Azure assigns stay
// markers; those copied from another resource are compared with that
// resource as it is then.
func RecordOf(p *plan.Plan, res *resolve.Resolved) []Resource {
	blocked := make(map[string]bool, len(p.Blocked))
	for _, b := range p.Blocked {
		blocked[b.Address] = true
	}
	out := []Resource{}
	for _, e := range plan.NewIndex(res.Desired).Entries {
		r := e.R
		if res.Conflicts[e.Key] || blocked[r.ID.Address()] || res.AllFailed(r.Services) {
			continue
		}
		out = append(out, saved(r, false))
	}
	return out
}

// RecordState returns the record of a saved plan, and its changes by key;
// an error when the file holds no record (written before format 2.1).
func (s *Plan) RecordState() ([]*plan.Resource, map[plan.Key]*plan.Change, error) {
	if s.Record == nil {
		return nil, nil, fmt.Errorf("it holds no record of what it would write (format_version %s): save a plan with this azsvc (plan --out) to compare with later", s.FormatVersion)
	}
	out := make([]*plan.Resource, 0, len(s.Record))
	for i := range s.Record {
		r, err := s.Record[i].resource()
		if err != nil {
			return nil, nil, fmt.Errorf("record %d (%s): %w", i, s.Record[i].ID, err)
		}
		out = append(out, r)
	}
	p, err := s.Restore()
	if err != nil {
		return nil, nil, err
	}
	planned := make(map[plan.Key]*plan.Change, len(p.Changes))
	for _, c := range p.Changes {
		planned[c.Key()] = c
	}
	return out, planned, nil
}
