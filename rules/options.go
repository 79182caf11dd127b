package rules

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
)

// Check reports the first key of o, in key order, that is not among known.
func (o Options) Check(known ...string) error {
	// in key order: the same options must always get the same answer (a
	// cluster's copies of the hub each check them, and must agree)
	for _, k := range slices.Sorted(maps.Keys(o)) {
		if !slices.Contains(known, k) {
			return fmt.Errorf("%w: unknown key %q", ErrOption, k)
		}
	}
	return nil
}

// Bool reads key as a boolean ("true"/"false", "1"/"0", "on"/"off"), def when absent.
func (o Options) Bool(key string, def bool) (bool, error) {
	v, ok := o[key]
	if !ok {
		return def, nil
	}
	switch v {
	case "true", "1", "on", "yes":
		return true, nil
	case "false", "0", "off", "no":
		return false, nil
	}
	return def, fmt.Errorf("%w: %s=%q is not a boolean", ErrOption, key, v)
}

// Int reads key as an integer in [lo, hi], def when absent.
func (o Options) Int(key string, def, lo, hi int) (int, error) {
	v, ok := o[key]
	if !ok {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < lo || n > hi {
		return def, fmt.Errorf("%w: %s=%q is not an integer in [%d, %d]", ErrOption, key, v, lo, hi)
	}
	return n, nil
}
