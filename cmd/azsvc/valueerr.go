package main

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/spf13/pflag"
)

// flagValueError says in the user's words why value is no value for flag
// f: strconv's "strconv.ParseBool: parsing ..." is Go, not an answer. An
// error of the flag's own Value (a size, a write budget) already is one
// and is kept.
func flagValueError(f *pflag.Flag, value string, err error) error {
	var num *strconv.NumError
	if !errors.As(err, &num) {
		return err
	}
	want := "a value of type " + f.Value.Type()
	switch num.Func {
	case "ParseBool":
		want = "true or false"
	case "ParseInt", "ParseUint", "Atoi":
		want = "a whole number"
	case "ParseFloat":
		want = "a number"
	}
	if errors.Is(num.Err, strconv.ErrRange) {
		return fmt.Errorf("%q is out of range for --%s", value, f.Name)
	}
	return fmt.Errorf("%q is not %s", value, want)
}

// invalidFlagValue rewrites pflag's error for a bad value on the command
// line; it returns nil for any other error.
func invalidFlagValue(err error) error {
	var bad *pflag.InvalidValueError
	if !errors.As(err, &bad) {
		return nil
	}
	f := bad.GetFlag()
	return usageErrorf("invalid value for --%s: %w", f.Name, flagValueError(f, bad.GetValue(), errors.Unwrap(bad)))
}
