package rules

import (
	"strings"
	"testing"
)

// TestCheckNamesTheFirstUnknownKey: several unknown keys always get the
// same answer, the first in key order (a cluster's copies of the hub each
// check a table's options and must send the same error text).
func TestCheckNamesTheFirstUnknownKey(t *testing.T) {
	o := Options{"zz": "1", "rows": "3", "mm": "1", "bb": "1", "qq": "2"}
	for range 50 { // map order changes from one range to the next
		err := o.Check("rows")
		if err == nil || !strings.Contains(err.Error(), `"bb"`) {
			t.Fatalf("Check: %v, want the unknown key \"bb\"", err)
		}
	}
}
