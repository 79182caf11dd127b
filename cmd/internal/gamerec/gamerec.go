// Package gamerec replays and exports stored game records for the commands
// that read them (bomberctl, bomber-replay): through their game's Spec
// (rules/games), and in the game's own notation where it has one.
package gamerec

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/rules/aeroplane"
	"github.com/bomber-game/bomber/rules/checkers"
	"github.com/bomber-game/bomber/rules/dots"
	"github.com/bomber-game/bomber/rules/games"
	"github.com/bomber-game/bomber/rules/paisho"
	"github.com/bomber-game/bomber/rules/record"
)

// ErrUnknownGame: the record is of a game this build does not know.
var ErrUnknownGame = errors.New("unknown game")

// Replay plays rec through its game's rules (record.Replay) and checks, more
// strictly than record.Replay alone, that it reproduces what was stored:
// when the rules say the game is over, the stored status and winners must
// be theirs whatever the stored reason (a resignation is a move too), and
// stored scores must be the replayed ones. A difference wraps
// record.ErrMismatch.
func Replay(rec *record.Game) (rules.Game, error) {
	spec, ok := games.Lookup(rec.Game)
	if !ok {
		return nil, fmt.Errorf("%w %q", ErrUnknownGame, rec.Game)
	}
	g, err := record.Replay(spec, rec)
	if err != nil {
		return g, err
	}
	if got := g.Outcome(); got.Status != rules.Running &&
		(got.Status != rec.Outcome.Status || !slices.Equal(got.Winners, rec.Outcome.Winners)) {
		return g, fmt.Errorf("%w: replay gives %s %v, stored %s %v", record.ErrMismatch,
			got.Status, got.Winners, rec.Outcome.Status, rec.Outcome.Winners)
	}
	if got := g.Scores(nil); len(rec.Scores) > 0 && !slices.Equal(got, rec.Scores) {
		return g, fmt.Errorf("%w: replay scores %v, stored %v", record.ErrMismatch, got, rec.Scores)
	}
	return g, nil
}

// Export writes rec in its game's own notation: PDN for checkers, the
// record formats of dots and aeroplane (after '#' comment lines naming the
// seats, which their readers skip), Pai Sho's numbered lines ("1H.S(-8,0)")
// under PDN-style tag pairs, and for other games (bomber) a numbered move
// list under the same tag pairs. Checkers, dots, aeroplane and Pai Sho are
// replayed to write their notation, so a record that does not replay
// cannot be exported in it (its JSON form always can).
func Export(rec *record.Game) (string, error) {
	switch rec.Game {
	case checkers.Name, dots.Name, aeroplane.Name, paisho.Name:
	default:
		return plain(rec), nil
	}
	g, err := Replay(rec)
	if err != nil {
		return "", fmt.Errorf("game %d does not replay, so it has no %s notation: %w", rec.ID, rec.Game, err)
	}
	switch g := g.(type) {
	case *checkers.Game:
		seat := func(i int) string {
			if i < len(rec.Seats) && rec.Seats[i].Name != "" {
				return rec.Seats[i].Name
			}
			return "?"
		}
		// English checkers: the first seat plays Black.
		pdn := g.Record(
			checkers.Tag{Name: "Event", Value: fmt.Sprintf("Bomber game %d", rec.ID)},
			checkers.Tag{Name: "Site", Value: "Bomber"},
			checkers.Tag{Name: "Date", Value: stamp(rec.Start).Format("2006.01.02")},
			checkers.Tag{Name: "Round", Value: "-"},
			checkers.Tag{Name: "Black", Value: seat(0)},
			checkers.Tag{Name: "White", Value: seat(1)},
		)
		if pdn.Result == checkers.ResultUnknown && rec.Outcome.Status == rules.Drawn {
			setResult(&pdn, checkers.ResultDraw) // agreed by the players: the rules never ended it
		}
		return pdn.String(), nil
	case *dots.Game:
		return comments(rec) + g.Record(), nil
	case *aeroplane.Game:
		return comments(rec) + g.Record().String(), nil
	case *paisho.Game:
		return tags(rec) + "\n" + g.Notation(), nil
	}
	return "", fmt.Errorf("no notation for %T", g)
}

// setResult gives a PDN record the result the stored record has.
func setResult(pdn *checkers.Record, result string) {
	pdn.Result = result
	for i := range pdn.Tags {
		if pdn.Tags[i].Name == "Result" {
			pdn.Tags[i].Value = result
		}
	}
}

func stamp(ns int64) time.Time { return time.Unix(0, ns).UTC() }

// SeatName is how a seat is shown: its user, "-" when it stayed empty, and
// " (bot)" when a computer held it.
func SeatName(s record.Seat) string {
	n := s.Name
	if n == "" {
		n = "-"
	}
	if s.Bot {
		n += " (bot)"
	}
	return n
}

// Result says who won in words: "Beth won", "Albert and Novate won" (a tie
// for first), "drawn", or "-" for a game that ended without a result.
func Result(rec *record.Game) string {
	switch rec.Outcome.Status {
	case rules.Drawn:
		return "drawn"
	case rules.Won:
		var names []string
		for _, w := range rec.Outcome.Winners {
			if int(w) < len(rec.Seats) && rec.Seats[w].Name != "" {
				names = append(names, rec.Seats[w].Name)
			} else {
				names = append(names, "seat "+strconv.Itoa(int(w)))
			}
		}
		return strings.Join(names, " and ") + " won"
	}
	return "-"
}

// header is the record's facts as name/value pairs, in display order.
func header(rec *record.Game) [][2]string {
	h := [][2]string{{"Game", rec.Game}, {"Id", strconv.FormatUint(rec.ID, 10)}}
	var bots []string
	for i, s := range rec.Seats {
		h = append(h, [2]string{"Seat" + strconv.Itoa(i), s.Name})
		if s.Bot {
			bots = append(bots, strconv.Itoa(i))
		}
	}
	if len(bots) > 0 {
		h = append(h, [2]string{"Bots", strings.Join(bots, " ")})
	}
	keys := make([]string, 0, len(rec.Options))
	for k := range rec.Options {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		h = append(h, [2]string{"Option", k + "=" + rec.Options[k]})
	}
	if rec.Seed != (record.Seed{}) {
		seed, _ := rec.Seed.MarshalText()
		h = append(h, [2]string{"Seed", string(seed)})
	}
	h = append(h,
		[2]string{"Start", stamp(rec.Start).Format(time.RFC3339Nano)},
		[2]string{"End", stamp(rec.End).Format(time.RFC3339Nano)},
		[2]string{"Reason", rec.Reason.String()},
		[2]string{"Result", Result(rec)})
	if rec.Outcome.Reason != "" {
		h = append(h, [2]string{"Detail", rec.Outcome.Reason})
	}
	if rec.Leaver != rules.Spectator {
		h = append(h, [2]string{"Leaver", strconv.Itoa(int(rec.Leaver))})
	}
	if len(rec.Scores) > 0 {
		var s []string
		for _, x := range rec.Scores {
			s = append(s, strconv.Itoa(x))
		}
		h = append(h, [2]string{"Scores", strings.Join(s, " ")})
	}
	return h
}

var quote = strings.NewReplacer(`\`, `\\`, `"`, `\"`)

// tags writes the header as PDN-style tag pairs.
func tags(rec *record.Game) string {
	var b strings.Builder
	for _, t := range header(rec) {
		fmt.Fprintf(&b, "[%s \"%s\"]\n", t[0], quote.Replace(t[1]))
	}
	return b.String()
}

// plain writes PDN-style tag pairs, a blank line, then one line per move:
// its number, the seat that made it, and the move in the game's notation.
func plain(rec *record.Game) string {
	var b strings.Builder
	b.WriteString(tags(rec))
	b.WriteByte('\n')
	for i, m := range rec.Moves {
		fmt.Fprintf(&b, "%d. %d %s\n", i+1, m.Seat, m.Text)
	}
	return b.String()
}

// comments writes the header as '#' lines.
func comments(rec *record.Game) string {
	var b strings.Builder
	for _, t := range header(rec) {
		fmt.Fprintf(&b, "# %s: %s\n", t[0], t[1])
	}
	return b.String()
}
