package rules

import (
	"errors"
	"strings"
	"testing"
)

func TestOptions(t *testing.T) {
	o := Options{"capture": "off", "rows": "5", "bad": "x"}
	if err := o.Check("capture", "rows"); !errors.Is(err, ErrOption) {
		t.Fatalf("Check with unknown key: %v, want ErrOption", err)
	}
	if err := o.Check("capture", "rows", "bad"); err != nil {
		t.Fatalf("Check: %v", err)
	}
	tests := []struct {
		name    string
		got     func() (any, error)
		want    any
		wantErr bool
	}{
		{"bool off", func() (any, error) { return o.Bool("capture", true) }, false, false},
		{"bool default", func() (any, error) { return o.Bool("missing", true) }, true, false},
		{"bool bad", func() (any, error) { return o.Bool("bad", true) }, true, true},
		{"int", func() (any, error) { return o.Int("rows", 3, 3, 8) }, 5, false},
		{"int default", func() (any, error) { return o.Int("missing", 3, 3, 8) }, 3, false},
		{"int range", func() (any, error) { return o.Int("rows", 3, 6, 8) }, 3, true},
		{"int bad", func() (any, error) { return o.Int("bad", 3, 0, 9) }, 3, true},
	}
	for _, tt := range tests {
		got, err := tt.got()
		if (err != nil) != tt.wantErr || (err != nil && !errors.Is(err, ErrOption)) {
			t.Errorf("%s: err %v, wantErr %v", tt.name, err, tt.wantErr)
		}
		if got != tt.want {
			t.Errorf("%s: got %v, want %v", tt.name, got, tt.want)
		}
	}
}

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
