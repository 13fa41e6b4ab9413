package main

import "fmt"

// errNotImplemented is what the commands of later milestones return until
// they are filled in: a runtime error (exit 1) after the flags were checked.
func errNotImplemented(command string, issue int) error {
	return fmt.Errorf("azsvc %s is not implemented yet (issue %d)", command, issue)
}
