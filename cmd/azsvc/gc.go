package main

import "runtime/debug"

// inputGCPercent is the garbage collector's target for commands that read
// many manifests. Decoding keeps nearly everything it allocates (each
// Service keeps its YAML tree for diagnostic positions), so the default
// target re-marks the same live heap at every doubling for little gain.
// Measured with validate on 5,000 and 50,000 generated Services: 17-18%
// less CPU at 400 than at 100, for 1-3% more peak RSS.
const inputGCPercent = 400

// raiseGCTarget sets inputGCPercent unless GOGC chooses a target.
func raiseGCTarget(lookupEnv func(string) (string, bool)) {
	if _, set := lookupEnv("GOGC"); !set {
		debug.SetGCPercent(inputGCPercent)
	}
}
