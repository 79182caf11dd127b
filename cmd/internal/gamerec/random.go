package gamerec

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/rules/games"
	"github.com/bomber-game/bomber/rules/record"
)

// PlayRandom plays a game of the named kind with random legal board moves
// (never a draw offer or resignation) for the given seats and returns its
// record: "won" or "drawn" when the rules end it within maxMoves, else
// "aborted". The moves and the game's own chance both follow from seed, so
// the same arguments give the same record. It makes real records for tests
// and demonstrations.
func PlayRandom(name string, seats []record.Seat, opts rules.Options, seed record.Seed, start time.Time, maxMoves int) (record.Game, error) {
	spec, ok := games.Lookup(name)
	if !ok {
		return record.Game{}, fmt.Errorf("unknown game %q", name)
	}
	g, err := spec.New(len(seats), opts, record.Rand(seed))
	if err != nil {
		return record.Game{}, err
	}
	pick := rand.New(rand.NewPCG(binary.LittleEndian.Uint64(seed[:8]), binary.LittleEndian.Uint64(seed[8:16])))
	rec := record.Game{Game: name, Options: opts, Seats: seats, Seed: seed, Leaver: rules.Spectator, Start: start.UnixNano()}
	var movers []rules.Player
	var legal []rules.Move
	for len(rec.Moves) < maxMoves {
		movers = g.ToMove(movers[:0])
		if len(movers) == 0 {
			break
		}
		p := movers[pick.IntN(len(movers))]
		legal = legal[:0]
		for _, m := range g.Legal(p, nil) {
			if m.Kind < rules.KindOfferDraw {
				legal = append(legal, m)
			}
		}
		if len(legal) == 0 {
			return rec, fmt.Errorf("%s: seat %d is to move but has no board move", name, p)
		}
		m := legal[pick.IntN(len(legal))]
		text := g.FormatMove(m)
		if _, err := g.Play(p, m, nil); err != nil {
			return rec, fmt.Errorf("%s: legal move %s refused: %w", name, text, err)
		}
		rec.Moves = append(rec.Moves, record.Move{Seat: p, Text: text, At: start.Add(time.Duration(len(rec.Moves)+1) * time.Second).UnixNano()})
	}
	rec.MoveCount = len(rec.Moves)
	rec.End = start.Add(time.Duration(len(rec.Moves)+1) * time.Second).UnixNano()
	rec.Outcome, rec.Scores = g.Outcome(), g.Scores(nil)
	switch rec.Outcome.Status {
	case rules.Won:
		rec.Reason = record.Won
	case rules.Drawn:
		rec.Reason = record.Drawn
	default:
		rec.Reason = record.Aborted
	}
	return rec, nil
}
