package engine

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/azsvc/azsvc/apply"
	"github.com/azsvc/azsvc/plan/planfile"
)

// targetSettings are the settings that choose a target.
var targetSettings = []string{"target", "state", "arm-endpoint"}

// TargetOfSaved points s at the target saved was made against: a saved
// plan applies where it was planned, whatever azsvc.yaml or the
// environment say for fresh plans. Target settings given on the command
// line must name that same target; otherwise the plan is refused (exit 5)
// before any credential is tried or state file created.
func TargetOfSaved(s *Settings, saved *planfile.Plan) error {
	rec := saved.Sources.Target
	if rec.Kind == "" {
		return nil // made by a build that did not record it: CheckSaved compares descriptions
	}
	if rec.Kind == "emulator" {
		// Plans record the absolute path; older ones the path as given,
		// which is all there is to go on.
		rec.State = absPath(rec.State)
	}
	given := Settings{Origins: map[string]Origin{}, ARMToken: s.ARMToken}
	for _, name := range targetSettings {
		if o, ok := s.Origins[name]; ok && o.Rank == RankFlag {
			given.Origins[name] = o
			switch name {
			case "target":
				given.Target = s.Target
			case "state":
				given.StatePath = s.StatePath
			case "arm-endpoint":
				given.ARMEndpoint = s.ARMEndpoint
			}
		}
	}
	if len(given.Origins) > 0 {
		choice, err := ChooseTarget(given, rec.Kind == "azure")
		if err == nil && chosen(choice.Kind, given) != rec {
			err = fmt.Errorf("%s", choice.Why)
		}
		if err != nil {
			return &apply.StaleError{Changed: []apply.Drift{{Address: "target",
				Detail: fmt.Sprintf("plan was made for %s, not the target the command line names (%v)", saved.Target, err)}}}
		}
	}
	if err := stateExists(rec, s.Emulator != nil); err != nil {
		return err
	}
	s.Target, s.StatePath, s.ARMEndpoint = rec.Kind, rec.State, rec.Endpoint
	origins := make(map[string]Origin, len(s.Origins)+len(targetSettings))
	for k, v := range s.Origins {
		origins[k] = v
	}
	s.Origins = origins
	if rec.Kind == "endpoint" {
		s.Target = TargetAuto
	}
	for _, name := range targetSettings {
		s.Origins[name] = Origin{Rank: RankFlag, Where: "the saved plan"}
	}
	return nil
}

// stateExists refuses a saved plan whose local emulator state file is
// gone (or was never there: the plan is applied from another machine):
// opening it would start an empty emulator, and the plan would only look
// stale. shared is a test's in-process emulator, which has no file.
func stateExists(rec planfile.TargetSource, shared bool) error {
	if rec.Kind != "emulator" || shared {
		return nil
	}
	if _, err := os.Stat(rec.State); errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("the plan was made against the local emulator state %s, which does not exist: "+
			"restore that file, or plan again against the state you have", rec.State)
	}
	return nil
}
