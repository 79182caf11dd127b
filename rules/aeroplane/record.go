package aeroplane

import (
	"bufio"
	"fmt"
	"strconv"
	"strings"

	"github.com/bomber-game/bomber/rules"
)

// Entry is one line of a game record: a roll and the face it gave, a move
// and the piece moved, or a resignation.
type Entry struct {
	Player rules.Player
	Roll   bool // a roll (Value is the face 1..6), else a move (Value is the piece 0..3)
	Resign bool // the seat resigned (Roll false, Value 0)
	Value  int
}

// Record is a whole game as text can carry it: seats, options, and every
// roll and move in order. The rolls make it replayable without the seed.
type Record struct {
	Players  int
	Settings Settings
	Entries  []Entry
}

// Record returns the game so far.
func (g *Game) Record() Record {
	return Record{Players: g.players, Settings: g.set, Entries: append([]Entry(nil), g.record...)}
}

// String writes the record in its text format:
//
//	aeroplane
//	players 2
//	option six-bias on
//	...
//	yellow roll 6
//	yellow move 0
func (r Record) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\nplayers %d\n", Name, r.Players)
	keys := optionKeys()
	for k, v := range r.Settings.values() {
		fmt.Fprintf(&b, "option %s %s\n", keys[k], onOff(v))
	}
	for _, e := range r.Entries {
		switch {
		case e.Resign:
			fmt.Fprintf(&b, "%s resign\n", ColourName(e.Player))
		case e.Roll:
			fmt.Fprintf(&b, "%s roll %d\n", ColourName(e.Player), e.Value)
		default:
			fmt.Fprintf(&b, "%s move %d\n", ColourName(e.Player), e.Value)
		}
	}
	return b.String()
}

// ParseRecord reads a record written by Record.String. Blank lines and
// lines starting with '#' are ignored; options left out take their
// defaults. It checks the form only: Replay checks the moves.
func ParseRecord(text string) (Record, error) {
	var r Record
	opts := rules.Options{}
	stage := 0 // 0: header, 1: players, 2: options or entries, 3: entries
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(nil, 1<<16)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		bad := func(why string) (Record, error) {
			return Record{}, fmt.Errorf("%w: record line %d %q: %s", rules.ErrNotation, n, line, why)
		}
		switch {
		case stage == 0:
			if line != Name {
				return bad("want the header " + Name)
			}
			stage = 1
		case stage == 1:
			if len(f) != 2 || f[0] != "players" {
				return bad(`want "players N"`)
			}
			k, err := strconv.Atoi(f[1])
			if err != nil || k < 2 || k > maxColours {
				return bad("players must be 2 to 4")
			}
			r.Players, stage = k, 2
		case stage == 2 && f[0] == "option":
			if len(f) != 3 {
				return bad(`want "option KEY VALUE"`)
			}
			if _, dup := opts[f[1]]; dup {
				return bad("option given twice")
			}
			opts[f[1]] = f[2]
			if _, err := ParseSettings(rules.Options{f[1]: f[2]}); err != nil {
				return bad(err.Error())
			}
		default:
			stage = 3
			e, err := parseEntry(f, r.Players)
			if err != nil {
				return bad(err.Error())
			}
			r.Entries = append(r.Entries, e)
		}
	}
	if err := sc.Err(); err != nil {
		return Record{}, fmt.Errorf("%w: record: %v", rules.ErrNotation, err)
	}
	if stage < 2 {
		return Record{}, fmt.Errorf("%w: record has no %s header and players line", rules.ErrNotation, Name)
	}
	set, err := ParseSettings(opts)
	if err != nil {
		return Record{}, fmt.Errorf("%w: record: %v", rules.ErrNotation, err)
	}
	r.Settings = set
	return r, nil
}

// parseEntry reads "COLOUR roll F", "COLOUR move N" or "COLOUR resign".
func parseEntry(f []string, players int) (Entry, error) {
	if (len(f) != 3 || f[1] == "resign") && (len(f) != 2 || f[1] != "resign") {
		return Entry{}, fmt.Errorf(`want "COLOUR roll F", "COLOUR move N" or "COLOUR resign"`)
	}
	p := rules.Player(-1)
	for c := range rules.Player(players) {
		if f[0] == ColourName(c) {
			p = c
		}
	}
	if p < 0 {
		return Entry{}, fmt.Errorf("no seat is %s", f[0])
	}
	if f[1] == "resign" {
		return Entry{Player: p, Resign: true}, nil
	}
	v, err := strconv.Atoi(f[2])
	switch {
	case err != nil:
		return Entry{}, fmt.Errorf("%q is not a number", f[2])
	case f[1] == "roll" && v >= 1 && v <= 6:
		return Entry{Player: p, Roll: true, Value: v}, nil
	case f[1] == "move" && v >= 0 && v < Pieces:
		return Entry{Player: p, Value: v}, nil
	}
	return Entry{}, fmt.Errorf("want roll 1..6 or move 0..3")
}

// recordedDie answers the next roll from a record, then falls back to rng.
type recordedDie struct {
	face int // 1..6 for the next draw, 0 when the record has none
	rng  rules.Rand
}

// IntN gives face-1, which drawDie turns back into face for any n.
func (d *recordedDie) IntN(n int) int {
	if d.face > 0 {
		v := d.face - 1
		d.face = 0
		return v
	}
	return d.rng.IntN(n)
}

// Replay plays a record on a new game, taking each roll's face from the
// record; rolls after the record's end draw from rng. It fails (wrapping
// ErrNotYourTurn, ErrIllegal or ErrGameOver) at the first entry the rules
// refuse.
func Replay(r Record, rng rules.Rand) (*Game, error) {
	if rng == nil {
		return nil, fmt.Errorf("%s: replay needs a Rand for the rolls after the record", Name)
	}
	die := &recordedDie{rng: rng}
	g, err := New(r.Players, r.Settings.Options(), die)
	if err != nil {
		return nil, err
	}
	var steps []rules.Step
	for k, e := range r.Entries {
		m := MovePiece(e.Value)
		if e.Resign {
			m = Resign()
		} else if e.Roll {
			if e.Value < 1 || e.Value > 6 {
				return nil, fmt.Errorf("%w: record entry %d rolls %d", rules.ErrIllegal, k+1, e.Value)
			}
			m, die.face = Roll(), e.Value
		} else if e.Value < 0 || e.Value >= Pieces {
			return nil, fmt.Errorf("%w: record entry %d moves piece %d", rules.ErrIllegal, k+1, e.Value)
		}
		steps, err = g.Play(e.Player, m, steps[:0])
		die.face = 0
		if err != nil {
			return nil, fmt.Errorf("record entry %d (%s %s): %w", k+1, ColourName(e.Player), formatMove(m), err)
		}
	}
	return g, nil
}
