package aeroplane

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/bomber-game/bomber/rules"
)

// Name is the game's short name.
const Name = "aeroplane"

// Spec describes Aeroplane Chess for the daemon: 2 to 4 players. The dice
// rule out taking a move back; no draw offers. The computer moves for a seat whose clock
// ran out (a turn is a roll and, at most, a choice of piece).
func Spec() rules.Spec {
	return rules.Spec{
		Name:         Name,
		Title:        "Aeroplane Chess",
		MinPlayers:   2,
		MaxPlayers:   maxColours,
		BotOnTimeout: true,
		NewBot:       func(seed uint64) rules.Bot { return NewBot(seed) },
		Options:      optionSpecs(),
		New: func(players int, opts rules.Options, rng rules.Rand) (rules.Game, error) {
			g, err := New(players, opts, rng)
			if err != nil {
				return nil, err // a nil *Game in the interface would not compare equal to nil
			}
			return g, nil
		},
	}
}

// Game is one match of Aeroplane Chess. The zero value is not usable; call New.
type Game struct {
	players  int
	set      Settings
	rng      rules.Rand
	pos      [maxColours][Pieces]int8 // progress of each piece, Camp..Centre
	turn     rules.Player             // the player to roll or move
	die      int8                     // the face to use; 0 while a roll is expected
	sixes    int8                     // sixes rolled in a row this turn, counting die
	sixMoved [2]uint8                 // pieces (bit per piece) moved with this turn's first and second six
	winner   rules.Player             // -1 while running
	resigned bool                     // the game ended because every other seat resigned
	gone     uint8                    // seats that resigned and left (bit per seat)
	record   []Entry
}

// New starts a game for 2-4 players; rng supplies every die roll.
func New(players int, opts rules.Options, rng rules.Rand) (*Game, error) {
	if players < 2 || players > maxColours {
		return nil, fmt.Errorf("%w: %s takes 2 to %d players, not %d", rules.ErrPlayers, Name, maxColours, players)
	}
	set, err := ParseSettings(opts)
	if err != nil {
		return nil, err
	}
	if rng == nil {
		return nil, fmt.Errorf("%s: no source of randomness", Name)
	}
	g := &Game{players: players, set: set, rng: rng, winner: -1}
	for c := range g.pos {
		for i := range g.pos[c] {
			g.pos[c][i] = Camp
		}
	}
	return g, nil
}

// Name is "aeroplane".
func (g *Game) Name() string { return Name }

// Players is the number of seats.
func (g *Game) Players() int { return g.players }

// Settings are the rule options this game was started with.
func (g *Game) Settings() Settings { return g.set }

// Position is the progress (Camp, Start, 1..Centre) of piece i of seat p.
func (g *Game) Position(p rules.Player, i int) int { return int(g.pos[p][i]) }

// Die is the rolled face waiting to be used, or 0 while a roll is expected.
func (g *Game) Die() int { return int(g.die) }

// Turn is the player to roll or move (the last mover once the game is over).
func (g *Game) Turn() rules.Player { return g.turn }

// ToMove appends the player to act, none once the game is over.
func (g *Game) ToMove(buf []rules.Player) []rules.Player {
	if g.winner >= 0 {
		return buf
	}
	return append(buf, g.turn)
}

// Legal appends "roll" while a roll is expected, else one move per piece
// that can use the die.
func (g *Game) Legal(p rules.Player, buf []rules.Move) []rules.Move {
	if g.winner >= 0 || p != g.turn {
		return buf
	}
	if g.die == 0 {
		return append(buf, Roll())
	}
	for i := range Pieces {
		if g.canMove(p, i, int(g.die)) {
			buf = append(buf, MovePiece(i))
		}
	}
	return buf
}

// canMove reports whether piece i of p can use face.
func (g *Game) canMove(p rules.Player, i, face int) bool {
	switch at := g.pos[p][i]; {
	case at == Camp:
		return g.set.launches(face)
	case at == Centre:
		return false
	}
	return true
}

// anyMove reports whether p can use face with some piece.
func (g *Game) anyMove(p rules.Player, face int) bool {
	for i := range Pieces {
		if g.canMove(p, i, face) {
			return true
		}
	}
	return false
}

// inPlay reports whether p has a piece out of camp and not yet home.
func (g *Game) inPlay(p rules.Player) bool {
	for _, at := range g.pos[p] {
		if at != Camp && at != Centre {
			return true
		}
	}
	return false
}

// Gone reports whether seat p resigned and left the game.
func (g *Game) Gone(p rules.Player) bool { return p >= 0 && int(p) < g.players && g.gone&(1<<p) != 0 }

// DrawByAgreement is false: a race has no draws (docs/games/aeroplane.md).
func (g *Game) DrawByAgreement() bool { return false }

// Outcome is Won with the first player home with all four pieces, or with
// the last seat left when every other seat resigned.
func (g *Game) Outcome() rules.Outcome {
	if g.winner < 0 {
		return rules.Outcome{Status: rules.Running}
	}
	if g.resigned {
		return rules.Outcome{Status: rules.Won, Winners: []rules.Player{g.winner}, Reason: "every other seat resigned"}
	}
	return rules.Outcome{Status: rules.Won, Winners: []rules.Player{g.winner}, Reason: "all four pieces home"}
}

// Scores appends each seat's number of pieces home (0 for a seat that
// left: its pieces are off the board).
func (g *Game) Scores(buf []int) []int {
	for p := range g.players {
		n := 0
		for _, at := range g.pos[p] {
			if at == Centre {
				n++
			}
		}
		buf = append(buf, n)
	}
	return buf
}

// Clone returns an independent copy. Unlike the rules.Game default, the
// copy rolls with a private generator seeded from the position, not with
// the game's Rand: rolling on a clone must neither shift the real game's
// dice (that would break replaying a game from its seed and moves) nor
// reveal them (a clone sharing a copied stream would show the next face).
func (g *Game) Clone() rules.Game {
	c := *g
	c.record = slices.Clone(g.record)
	c.rng = rand.New(rand.NewPCG(g.fingerprint(), 0xc10e))
	return &c
}

// Redact returns a clone: the only hidden information is the future dice,
// and a clone rolls with its own generator seeded from the position, never
// with (or from the state of) the real game's Rand.
func (g *Game) Redact(rules.Player) rules.Game { return g.Clone() }

// fingerprint hashes the position (FNV-1a), so clones made at different
// points of a game roll differently.
func (g *Game) fingerprint() uint64 {
	h := uint64(14695981039346656037)
	mix := func(b int) {
		h ^= uint64(uint8(b))
		h *= 1099511628211
	}
	for _, row := range g.pos {
		for _, a := range row {
			mix(int(a))
		}
	}
	for _, v := range []int{int(g.turn), int(g.die), int(g.sixes), int(g.gone), len(g.record), len(g.record) >> 8, len(g.record) >> 16} {
		mix(v)
	}
	return h
}
