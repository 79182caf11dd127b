package account

import (
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/bomber-game/bomber/rules/record"
)

// A log reads back as the moves it was written from, whatever their times
// (going back, or at the ends of int64) and notation (spaces included).
func TestMoveLogRoundTrip(t *testing.T) {
	cases := map[string][]record.Move{
		"none": nil,
		"one":  {{Seat: 0, Text: "a1", At: 1764000000123456789}},
		"bomber": {
			{Seat: 0, Text: "board 0123456789", At: 1764000000000000000},
			{Seat: 1, Text: "3 4", At: 1764000002500000000},
			{Seat: 0, Text: " spaced  notation ", At: 1764000002500000000},
			{Seat: 3, Text: "back in time", At: 1763999999000000000},
		},
		"extremes": {
			{Seat: 2, Text: "min", At: math.MinInt64},
			{Seat: 1, Text: "max", At: math.MaxInt64},
			{Seat: 0, Text: "zero", At: 0},
			{Seat: 1, Text: "Ünïcødé ♟", At: -1},
		},
	}
	for name, moves := range cases {
		log := string(appendMoveLog(nil, moves))
		got, err := parseMoveLog(log, len(moves))
		if err != nil || !reflect.DeepEqual(got, moves) {
			t.Errorf("%s: %q read back as %v, %v; want %v", name, log, got, err, moves)
		}
	}
	if log := string(appendMoveLog(nil, cases["bomber"][:2])); log != "0 1764000000000000000 board 0123456789\n1 2500000000 3 4" {
		t.Errorf("log %q: want each move's time since the one before", log)
	}
}

// A log that disagrees with the record's move count, or is not a log, is
// refused rather than read as fewer or other moves.
func TestMoveLogRefusesWhatItDidNotWrite(t *testing.T) {
	for _, c := range []struct {
		log string
		n   int
	}{
		{"", 1},
		{"0 1 a", 0},
		{"0 1 a", 2},
		{"0 1 a\n1 2 b", 1},
		{"0 1 a\n", 1},
		{"0 1", 1},
		{"0 1 ", 1},
		{"x 1 a", 1},
		{"0 y a", 1},
		{"4 1 a", 1},
		{"-1 1 a", 1},
		{"0 99999999999999999999 a", 1},
		{"0 1 a", MaxMoves + 1},
	} {
		got, err := parseMoveLog(c.log, c.n)
		if !errors.Is(err, errMoveLog) || got != nil {
			t.Errorf("parseMoveLog(%q, %d) = %v, %v; want an error wrapping errMoveLog", c.log, c.n, got, err)
		}
	}
}

// FuzzMoveLog: the reader never panics, refuses with errMoveLog, and what
// it accepts is that many valid moves, which the writer writes back into a
// log that reads as the same moves.
func FuzzMoveLog(f *testing.F) {
	f.Add("0 1764000000000000000 a1\n1 2500000000 b7\n0 -1250000 c3", 3)
	f.Add("3 -9223372036854775808 x  y", 1)
	f.Add("", 0)
	f.Add("0 1 a\n\n1 2 b", 3)
	f.Fuzz(func(t *testing.T, log string, n int) {
		moves, err := parseMoveLog(log, n)
		if err != nil {
			if !errors.Is(err, errMoveLog) || moves != nil {
				t.Fatalf("refused with %v and %d moves", err, len(moves))
			}
			return
		}
		if len(moves) != n {
			t.Fatalf("%d moves read, the record says %d", len(moves), n)
		}
		for i, m := range moves {
			if m.Seat < 0 || m.Seat >= MaxSeats || m.Text == "" || strings.Contains(m.Text, "\n") {
				t.Fatalf("move %d read as %+v", i+1, m)
			}
		}
		again, err := parseMoveLog(string(appendMoveLog(nil, moves)), n)
		if err != nil || !reflect.DeepEqual(again, moves) {
			t.Fatalf("written back and read again: %v, %v; want %v", again, err, moves)
		}
	})
}
