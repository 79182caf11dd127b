// Package rulestest checks that a rules.Game implementation keeps the
// contract of package rules. Every game package runs Conformance in its tests.
package rulestest

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/rules/record"
)

// Config bounds a conformance run.
type Config struct {
	Players  int           // seats; 0 means spec.MinPlayers
	Options  rules.Options // passed to spec.New
	Games    int           // random games to play; 0 means 20
	MaxPlies int           // a game still running after this many moves is left unfinished; 0 means 2000
	Seed     uint64        // base seed; game i uses Seed+i
	// MoveFilter, when set, restricts the random player's choice (for
	// example to keep draw offers from ending every game at once).
	MoveFilter func(rules.Move) bool
	// Bot, when set, makes a bot for seat p; BotGames games (0 means 2) are
	// then played with bots in some seats and random players in the others.
	Bot      func(p rules.Player, seed uint64) rules.Bot
	BotGames int
	// DrawByAgreement is what the game's documentation (docs/games) says
	// of draws by agreement with these Options: the game must answer the
	// same, since the server refuses or allows a table's draw offer by it.
	DrawByAgreement bool
}

// Conformance plays random games of spec and checks the rules contract:
//
//   - New refuses unsupported seat counts and unknown options, and accepts
//     exactly the values spec.Options describes;
//   - every legal move plays without error and round-trips through its
//     notation for the seat that makes it;
//   - seats not to move have no legal move and are refused with
//     ErrNotYourTurn; a refused move (out of turn or malformed) changes
//     nothing any seat or spectator can see (View and Observe), nor the
//     legal moves, scores or outcome, nor anything hidden: the replay,
//     which makes no refused move, must give the same steps throughout;
//   - Observe is deterministic, does not share memory with the game,
//     agrees with ToMove, Outcome and Scores, and gives viewers whose View
//     text is the same the same data;
//   - a hidden step belongs to a real seat;
//   - Redact(p) shows p (and a spectator) exactly what the game shows them,
//     keeps p's legal moves, and is independent: playing on it changes
//     nothing real, and the real game playing on does not change it; once
//     the game has shown it holds secrets (a hidden step or a secret move),
//     the redacted copy shows every other seat no more than a spectator sees;
//   - a secret move (rules.SecretMoves) cannot be told from another secret
//     move by anyone but its mover;
//   - DrawByAgreement answers as Config says and never changes; where it
//     is false no seat ever has a draw offer among its legal moves and the
//     offer is refused; where it is true some game lists one;
//   - KindResign is accepted from any seat still playing, on turn or not,
//     round-trips through notation and ends or thins the game as package
//     rules says;
//   - clones are independent;
//   - every game, stored as a record.Game (notation and seed, as the server
//     stores it), replays through record.Replay to the game played live:
//     the same steps, outcome, scores and every seat's View and Observe;
//   - a finished game lists nobody to move and refuses moves with ErrGameOver;
//   - with Config.Bot, bots given only their rules.Seat choose moves the
//     game accepts, never resign, and do not disturb the real game.
func Conformance(t testing.TB, spec rules.Spec, cfg Config) {
	t.Helper()
	if cfg.Players == 0 {
		cfg.Players = spec.MinPlayers
	}
	if cfg.Games == 0 {
		cfg.Games = 20
	}
	if cfg.MaxPlies == 0 {
		cfg.MaxPlies = 2000
	}
	if cfg.BotGames == 0 {
		cfg.BotGames = 2
	}
	checkNew(t, spec, cfg)
	if t.Failed() {
		return
	}
	finished, offered := 0, false
	for i := range cfg.Games {
		r := newRun(t, spec, cfg, cfg.Seed+uint64(i))
		if i%3 == 2 {
			// Every third game has a seat resign at a set ply (if the game
			// lasts), off turn in every other one, then now and then.
			k := i / 3
			r.resignAt = []int{2, 0, 7, 25, 1, 60}[k%6]
			r.resignOffTurn = k%2 == 0
		}
		if r.play() {
			finished++
		}
		offered = offered || r.offered
		r.replay()
		if t.Failed() {
			return
		}
	}
	if cfg.DrawByAgreement && !offered {
		t.Errorf("%s: DrawByAgreement is true but no seat of %d random games ever had a draw offer to make", spec.Name, cfg.Games)
	}
	if finished == 0 {
		t.Errorf("%s: none of %d random games finished within %d moves", spec.Name, cfg.Games, cfg.MaxPlies)
	}
	if cfg.Bot == nil {
		return
	}
	for i := range cfg.BotGames {
		seed := cfg.Seed + 1_000_000 + uint64(i)
		r := newRun(t, spec, cfg, seed)
		r.bots = make([]rules.Bot, cfg.Players)
		for p := range r.bots {
			if (i+p)%2 == 0 {
				r.bots[p] = cfg.Bot(rules.Player(p), seed)
			}
		}
		r.play()
		r.replay()
		if t.Failed() {
			return
		}
	}
}

// checkNew checks seat counts and options against the spec.
func checkNew(t testing.TB, spec rules.Spec, cfg Config) {
	t.Helper()
	rng := rand.New(rand.NewPCG(1, 2))
	if _, err := spec.New(spec.MaxPlayers+1, cfg.Options, rng); !errors.Is(err, rules.ErrPlayers) {
		t.Errorf("%s: New with %d players: err %v, want ErrPlayers", spec.Name, spec.MaxPlayers+1, err)
	}
	if _, err := spec.New(spec.MinPlayers-1, cfg.Options, rng); !errors.Is(err, rules.ErrPlayers) {
		t.Errorf("%s: New with %d players: err %v, want ErrPlayers", spec.Name, spec.MinPlayers-1, err)
	}
	if _, err := spec.New(cfg.Players, rules.Options{"no-such-option": "1"}, rng); !errors.Is(err, rules.ErrOption) {
		t.Errorf("%s: New with an unknown option: err %v, want ErrOption", spec.Name, err)
	}
	try := func(key, value string) error {
		_, err := spec.New(cfg.Players, rules.Options{key: value}, rand.New(rand.NewPCG(1, 2)))
		return err
	}
	accept := func(o rules.OptionSpec, v string) {
		if err := try(o.Key, v); err != nil {
			t.Errorf("%s: option %s=%q, which the spec allows, is refused: %v", spec.Name, o.Key, v, err)
		}
	}
	refuse := func(o rules.OptionSpec, v string) {
		if err := try(o.Key, v); !errors.Is(err, rules.ErrOption) {
			t.Errorf("%s: option %s=%q, outside the spec: err %v, want ErrOption", spec.Name, o.Key, v, err)
		}
	}
	seen := map[string]bool{}
	for _, o := range spec.Options {
		if o.Key == "" || o.Doc == "" || seen[o.Key] {
			t.Errorf("%s: option spec %+v: empty key or doc, or key listed twice", spec.Name, o)
			continue
		}
		seen[o.Key] = true
		accept(o, o.Default)
		switch o.Kind {
		case rules.OptionInt:
			d, err := strconv.Atoi(o.Default)
			if o.Min > o.Max || err != nil || d < o.Min || d > o.Max {
				t.Errorf("%s: option %s: default %q outside [%d, %d]", spec.Name, o.Key, o.Default, o.Min, o.Max)
			}
			accept(o, strconv.Itoa(o.Min))
			accept(o, strconv.Itoa(o.Max))
			refuse(o, strconv.Itoa(o.Min-1))
			refuse(o, strconv.Itoa(o.Max+1))
			refuse(o, "many")
		case rules.OptionBool:
			accept(o, "true")
			accept(o, "false")
			refuse(o, "maybe")
		case rules.OptionChoice:
			if len(o.Choices) == 0 || !slices.Contains(o.Choices, o.Default) {
				t.Errorf("%s: option %s: default %q not among choices %q", spec.Name, o.Key, o.Default, o.Choices)
			}
			for _, c := range o.Choices {
				accept(o, c)
			}
			refuse(o, "no-such-choice")
		case rules.OptionText:
		default:
			t.Errorf("%s: option %s: unknown kind %d", spec.Name, o.Key, o.Kind)
		}
	}
	for k := range cfg.Options {
		if !seen[k] {
			t.Errorf("%s: option %q is accepted by New but missing from Spec.Options", spec.Name, k)
		}
	}
}

// seedOf is the 32-byte table seed of conformance game n.
func seedOf(n uint64) [32]byte {
	var s [32]byte
	binary.LittleEndian.PutUint64(s[:8], n)
	copy(s[8:], "rulestest conformance")
	return s
}

// run is one game played live, with what the server would store of it.
type run struct {
	t             testing.TB
	spec          rules.Spec
	cfg           Config
	n             uint64
	seed          [32]byte
	g             rules.Game
	pick          *rand.Rand
	moves         []record.Move
	steps         [][]rules.Step // the steps each move caused, live
	gone          []bool         // seats that resigned
	resignAt      int            // the ply of the first resignation; -1 for none
	resignOffTurn bool           // the first resignation is by a seat not to move, if any
	hidden        bool           // the game has shown it holds secrets
	bots          []rules.Bot    // by seat; nil seats play at random
	offered       bool           // a seat had a draw offer among its legal moves
}

func newRun(t testing.TB, spec rules.Spec, cfg Config, n uint64) *run {
	t.Helper()
	r := &run{t: t, spec: spec, cfg: cfg, n: n, seed: seedOf(n), pick: rand.New(rand.NewPCG(n, 7)), gone: make([]bool, cfg.Players), resignAt: -1}
	g, err := spec.New(cfg.Players, cfg.Options, record.Rand(r.seed))
	if err != nil {
		t.Fatalf("%s: New(%d): %v", spec.Name, cfg.Players, err)
	}
	if g.Name() != spec.Name || g.Players() != cfg.Players {
		t.Fatalf("%s: game reports name %q and %d players", spec.Name, g.Name(), g.Players())
	}
	if g.DrawByAgreement() != cfg.DrawByAgreement {
		t.Fatalf("%s with options %v: DrawByAgreement is %v, its documentation says %v", spec.Name, cfg.Options, g.DrawByAgreement(), cfg.DrawByAgreement)
	}
	if g.DrawByAgreement() && !spec.Draws {
		// the catalogue tells clients a game without Draws never has them
		t.Fatalf("%s with options %v has draws by agreement, but its Spec says it has none", spec.Name, cfg.Options)
	}
	r.g = g
	return r
}

func (r *run) fatalf(format string, args ...any) {
	r.t.Helper()
	r.t.Fatalf("%s game %d, move %d: %s", r.spec.Name, r.n, len(r.moves)+1, fmt.Sprintf(format, args...))
}

// play plays the game at random (or by bots) and reports whether it ended.
func (r *run) play() bool {
	r.t.Helper()
	g := r.g
	var toMove []rules.Player
	var legal []rules.Move
	for ply := 0; ply < r.cfg.MaxPlies; ply++ {
		toMove = g.ToMove(toMove[:0])
		out := g.Outcome()
		if len(toMove) == 0 {
			if out.Status == rules.Running {
				r.fatalf("nobody to move but the game is running")
			}
			r.checkOver()
			return true
		}
		if out.Status != rules.Running {
			r.fatalf("game ended (%v) but %v still to move", out.Status, toMove)
		}
		for q, gone := range r.gone {
			if gone && slices.Contains(toMove, rules.Player(q)) {
				r.fatalf("seat %d resigned but is to move", q)
			}
		}
		r.checkObserve(g)
		if r.resignAt >= 0 && (ply == r.resignAt || ply > r.resignAt && r.pick.IntN(30) == 0) {
			r.resignOne(toMove, ply == r.resignAt && r.resignOffTurn)
			continue
		}
		p := toMove[r.pick.IntN(len(toMove))]
		all := g.Legal(p, nil)
		legal = append(legal[:0], all...)
		if r.cfg.MoveFilter != nil {
			legal = slices.DeleteFunc(legal, func(m rules.Move) bool { return !r.cfg.MoveFilter(m) })
		}
		if len(legal) == 0 {
			r.fatalf("player %d is to move but has no legal move", p)
		}
		r.checkRefused(toMove, p, legal)
		r.checkDraws(ply, p, all)
		var m rules.Move
		if r.bots != nil && r.bots[p] != nil {
			m = r.botMove(p)
		} else {
			m = legal[r.pick.IntN(len(legal))]
		}
		text := g.FormatMove(m)
		back, err := g.ParseMove(p, text)
		if err != nil || back != m {
			r.fatalf("move %+v formats as %q, which parses back as %+v (err %v)", m, text, back, err)
		}
		if sm, ok := g.(rules.SecretMoves); ok && sm.SecretMove(m) {
			r.hidden = true
			r.checkSecret(sm, p, m, all)
		}
		if ply%17 == 0 {
			checkClone(r, p, m)
		}
		var held rules.Game
		var heldSnap snapshot
		if ply < 4 || ply%7 == 0 {
			held = r.checkRedact(p, m)
			heldSnap = snap(held)
		}
		steps, err := g.Play(p, m, nil)
		if err != nil {
			r.fatalf("legal move %q by player %d refused: %v", text, p, err)
		}
		r.checkSteps(steps)
		r.record(p, text, steps)
		if held != nil {
			if d := heldSnap.diff(snap(held)); d != "" {
				r.fatalf("playing on the real game changed a redacted copy (%s)", d)
			}
		}
	}
	return false
}

func (r *run) record(p rules.Player, text string, steps []rules.Step) {
	r.moves = append(r.moves, record.Move{Seat: p, Text: text})
	r.steps = append(r.steps, slices.Clone(steps))
}

// checkSteps checks that a hidden step belongs to a real seat.
func (r *run) checkSteps(steps []rules.Step) {
	r.t.Helper()
	n := rules.Player(r.g.Players())
	for _, s := range steps {
		if s.Player < rules.Spectator || s.Player >= n {
			r.fatalf("step %+v names no seat", s)
		}
		if s.Hidden {
			r.hidden = true
			if s.Player < 0 {
				r.fatalf("hidden step %+v belongs to no seat: nobody may see it", s)
			}
			if !s.VisibleTo(s.Player) || s.VisibleTo(rules.Spectator) {
				r.fatalf("hidden step %+v: VisibleTo is wrong", s)
			}
		}
	}
}

// botMove asks seat p's bot for a move through its Seat alone.
func (r *run) botMove(p rules.Player) rules.Move {
	r.t.Helper()
	before := snap(r.g)
	m, err := r.bots[p].Choose(rules.SeatOf(r.g, p))
	if err != nil {
		r.fatalf("bot for seat %d: %v", p, err)
	}
	if d := before.diff(snap(r.g)); d != "" {
		r.fatalf("bot for seat %d changed the real game (%s)", p, d)
	}
	if m.Kind == rules.KindResign {
		r.fatalf("bot for seat %d resigned", p)
	}
	return m
}

// checkRefused makes moves the game must refuse and checks they change
// nothing: by every seat not to move, and a malformed move by p.
func (r *run) checkRefused(toMove []rules.Player, p rules.Player, legal []rules.Move) {
	r.t.Helper()
	g := r.g
	probe, ok := rules.Move{}, false
	for _, m := range legal {
		if m.Kind < rules.KindOfferDraw {
			probe, ok = m, true
			break
		}
	}
	for q := rules.Player(0); int(q) < g.Players(); q++ {
		if slices.Contains(toMove, q) {
			continue
		}
		if extra := g.Legal(q, nil); len(extra) != 0 {
			r.fatalf("player %d is not to move but has %d legal moves", q, len(extra))
		}
		if ok {
			r.refuse(q, probe, rules.ErrNotYourTurn)
		}
	}
	garbage := rules.Move{Kind: rules.KindOfferDraw - 1, Len: rules.MoveArgs}
	for i := range garbage.Arg {
		garbage.Arg[i] = 0xFF
	}
	r.refuse(p, garbage, nil)
}

// checkDraws checks p's legal moves against the game's DrawByAgreement,
// which must not change as the game goes on: a game without draws by
// agreement never lists a draw offer and refuses one.
func (r *run) checkDraws(ply int, p rules.Player, legal []rules.Move) {
	r.t.Helper()
	if r.g.DrawByAgreement() != r.cfg.DrawByAgreement {
		r.fatalf("DrawByAgreement changed to %v during the game", r.g.DrawByAgreement())
	}
	offer := rules.Move{Kind: rules.KindOfferDraw}
	if !slices.Contains(legal, offer) {
		if ply == 0 && !r.cfg.DrawByAgreement {
			r.refuse(p, offer, nil)
		}
		return
	}
	if !r.cfg.DrawByAgreement {
		r.fatalf("DrawByAgreement is false but player %d may offer a draw", p)
	}
	r.offered = true
}

// refuse plays m for q, which the game must refuse (with want, when set),
// and checks that nothing anyone can see or do changed. What nobody can see
// (a hidden counter, a generator's state) is checked by the replay, which
// makes none of the refused moves yet must give the same steps throughout.
func (r *run) refuse(q rules.Player, m rules.Move, want error) {
	r.t.Helper()
	g := r.g
	before := snap(g)
	_, err := g.Play(q, m, nil)
	switch {
	case err == nil:
		r.fatalf("move %+v by player %d should be refused but was played", m, q)
	case want != nil && !errors.Is(err, want):
		r.fatalf("move %+v by player %d: err %v, want %v", m, q, err, want)
	case !errors.Is(err, rules.ErrNotYourTurn) && !errors.Is(err, rules.ErrIllegal) && !errors.Is(err, rules.ErrGameOver):
		r.fatalf("move %+v by player %d: err %v wraps none of the rules sentinels", m, q, err)
	}
	after := snap(g)
	if d := before.diff(after); d != "" {
		r.fatalf("a refused move by player %d changed the game (%s)", q, d)
	}
}

// checkObserve checks every viewer's Observe against the game.
func (r *run) checkObserve(g rules.Game) {
	r.t.Helper()
	toMove := g.ToMove(nil)
	scores := g.Scores(nil)
	status := g.Outcome().Status
	texts := map[string]rules.View{} // View text -> Observe of the first viewer with it
	for v := rules.Spectator; int(v) < g.Players(); v++ {
		a := g.Observe(v)
		if w, ok := texts[g.View(v)]; ok && (!bytes.Equal(w.Cells, a.Cells) || !bytes.Equal(w.Extra, a.Extra)) {
			r.fatalf("viewers %d and %d get the same View text but different Observe data: Observe holds more than View", w.Viewer, v)
		} else if !ok {
			texts[g.View(v)] = rules.View{Viewer: v, Cells: bytes.Clone(a.Cells), Extra: bytes.Clone(a.Extra)}
		}
		if a.Viewer != v || a.Status != status || !slices.Equal(a.ToMove, toMove) || !slices.Equal(a.Scores, scores) {
			r.fatalf("Observe(%d) = viewer %d, %v, to move %v, scores %v; the game says %v, to move %v, scores %v",
				v, a.Viewer, a.Status, a.ToMove, a.Scores, status, toMove, scores)
		}
		b := g.Observe(v)
		if !equalView(a, b) {
			r.fatalf("Observe(%d) is not deterministic: %+v then %+v", v, a, b)
		}
		saved := rules.View{Viewer: a.Viewer, Status: a.Status, ToMove: slices.Clone(a.ToMove), Scores: slices.Clone(a.Scores),
			Cells: bytes.Clone(a.Cells), Extra: bytes.Clone(a.Extra)}
		for _, s := range [][]byte{a.Cells, a.Extra} {
			for i := range s {
				s[i] ^= 0xFF
			}
		}
		for i := range a.Scores {
			a.Scores[i]++
		}
		for i := range a.ToMove {
			a.ToMove[i]++
		}
		if !equalView(b, saved) {
			r.fatalf("Observe(%d) hands out shared memory: changing one view changed another", v)
		}
		if c := g.Observe(v); !equalView(c, saved) {
			r.fatalf("Observe(%d) shares memory with the game: changing one view changed another", v)
		}
	}
}

// checkRedact checks Redact for every seat and returns a redaction for p
// taken now, for the caller to check it does not follow the real game.
func (r *run) checkRedact(p rules.Player, m rules.Move) rules.Game {
	r.t.Helper()
	g := r.g
	spec := g.Observe(rules.Spectator)
	for s := rules.Player(0); int(s) < g.Players(); s++ {
		x := g.Redact(s)
		if x.Name() != g.Name() || x.Players() != g.Players() {
			r.fatalf("Redact(%d) is a %q game for %d", s, x.Name(), x.Players())
		}
		if !equalView(x.Observe(s), g.Observe(s)) || x.View(s) != g.View(s) {
			r.fatalf("Redact(%d) shows seat %d something else than the game does:\n%s\nwant\n%s", s, s, x.View(s), g.View(s))
		}
		if !equalView(x.Observe(rules.Spectator), spec) || x.View(rules.Spectator) != g.View(rules.Spectator) {
			r.fatalf("Redact(%d) shows a spectator something else than the game does", s)
		}
		if !slices.Equal(x.ToMove(nil), g.ToMove(nil)) || !slices.Equal(x.Legal(s, nil), g.Legal(s, nil)) ||
			!slices.Equal(x.Scores(nil), g.Scores(nil)) || x.Outcome().Status != g.Outcome().Status ||
			x.DrawByAgreement() != g.DrawByAgreement() {
			r.fatalf("Redact(%d) changes who is to move, seat %d's legal moves, the scores, the status or whether draws may be agreed", s, s)
		}
		if r.hidden {
			for q := rules.Player(0); int(q) < g.Players(); q++ {
				if q == s {
					continue
				}
				o := x.Observe(q)
				o.Viewer = rules.Spectator
				if !equalView(o, spec) {
					r.fatalf("Redact(%d) shows seat %d more than a spectator sees: %+v, spectator %+v", s, q, o, spec)
				}
			}
		}
		legal := g.Legal(s, nil)
		if len(legal) == 0 {
			continue
		}
		mv := legal[r.pick.IntN(len(legal))]
		if s == p {
			mv = m
		}
		before := snap(g)
		if _, err := x.Play(s, mv, nil); err != nil {
			r.fatalf("Redact(%d) refused seat %d's legal move %q: %v", s, s, g.FormatMove(mv), err)
		}
		if d := before.diff(snap(g)); d != "" {
			r.fatalf("playing on Redact(%d) changed the real game (%s)", s, d)
		}
	}
	return g.Redact(p)
}

// checkSecret plays m and another secret move of p on two clones: nobody
// but p may be able to tell them apart.
func (r *run) checkSecret(sm rules.SecretMoves, p rules.Player, m rules.Move, legal []rules.Move) {
	r.t.Helper()
	var other []rules.Move
	for _, l := range legal {
		if l != m && sm.SecretMove(l) {
			other = append(other, l)
		}
	}
	if len(other) == 0 {
		return
	}
	m2 := other[r.pick.IntN(len(other))]
	a, b := r.g.Clone(), r.g.Clone()
	sa, errA := a.Play(p, m, nil)
	sb, errB := b.Play(p, m2, nil)
	if errA != nil || errB != nil {
		r.fatalf("legal secret moves refused on clones: %v / %v", errA, errB)
	}
	for v := rules.Spectator; int(v) < r.g.Players(); v++ {
		if v == p {
			continue
		}
		if !equalView(a.Observe(v), b.Observe(v)) || a.View(v) != b.View(v) {
			r.fatalf("viewer %d can tell seat %d's secret move %q from %q", v, p, r.g.FormatMove(m), r.g.FormatMove(m2))
		}
		if !slices.Equal(visible(sa, v), visible(sb, v)) {
			r.fatalf("the steps shown to viewer %d tell seat %d's secret move %q from %q", v, p, r.g.FormatMove(m), r.g.FormatMove(m2))
		}
	}
}

func visible(steps []rules.Step, v rules.Player) []rules.Step {
	var out []rules.Step
	for _, s := range steps {
		if s.VisibleTo(v) {
			out = append(out, s)
		}
	}
	return out
}

// resignOne makes a random seat still playing resign: one not in toMove
// when offTurn and there is one, otherwise any.
func (r *run) resignOne(toMove []rules.Player, offTurn bool) {
	r.t.Helper()
	g := r.g
	var alive, off []rules.Player
	for q, gone := range r.gone {
		if !gone {
			alive = append(alive, rules.Player(q))
			if !slices.Contains(toMove, rules.Player(q)) {
				off = append(off, rules.Player(q))
			}
		}
	}
	if offTurn && len(off) > 0 {
		alive = off
	}
	q := alive[r.pick.IntN(len(alive))]
	m := rules.Move{Kind: rules.KindResign}
	text := g.FormatMove(m)
	if back, err := g.ParseMove(q, text); err != nil || back != m {
		r.fatalf("resignation formats as %q, which parses back for seat %d as %+v (err %v)", text, q, back, err)
	}
	steps, err := g.Play(q, m, nil)
	if err != nil {
		r.fatalf("seat %d may not resign: %v", q, err)
	}
	r.checkSteps(steps)
	r.record(q, text, steps)
	r.gone[q] = true
	out := g.Outcome()
	switch left := alive[:0]; {
	case g.Players() == 2:
		if out.Status != rules.Won || !slices.Equal(out.Winners, []rules.Player{1 - q}) {
			r.fatalf("seat %d resigned a two-player game: outcome %+v, want seat %d to win", q, out, 1-q)
		}
	default:
		for p, gone := range r.gone {
			if !gone {
				left = append(left, rules.Player(p))
			}
		}
		if len(left) == 1 && (out.Status != rules.Won || !slices.Equal(out.Winners, left)) {
			r.fatalf("seat %d resigned leaving seat %d alone: outcome %+v, want seat %d to win", q, left[0], out, left[0])
		}
		if len(left) > 1 {
			if out.Status != rules.Running {
				r.fatalf("seat %d resigned with %d seats left: the game ended (%+v)", q, len(left), out)
			}
			if len(g.Legal(q, nil)) != 0 {
				r.fatalf("seat %d resigned but still has legal moves", q)
			}
		}
	}
}

func checkClone(r *run, p rules.Player, m rules.Move) {
	r.t.Helper()
	g := r.g
	before := snap(g)
	c := g.Clone()
	if d := before.diff(snap(c)); d != "" {
		r.fatalf("clone differs from the original (%s)", d)
	}
	if _, err := c.Play(p, m, nil); err != nil {
		r.fatalf("clone refused a legal move: %v", err)
	}
	if d := before.diff(snap(g)); d != "" {
		r.fatalf("playing on a clone changed the original (%s)", d)
	}
}

func (r *run) checkOver() {
	r.t.Helper()
	g := r.g
	out := g.Outcome()
	if out.Status == rules.Won && len(out.Winners) == 0 {
		r.fatalf("won with no winner")
	}
	if out.Reason == "" {
		r.t.Errorf("%s game %d: outcome has no reason", r.spec.Name, r.n)
	}
	r.checkObserve(g)
	for p := rules.Player(0); int(p) < g.Players(); p++ {
		if n := len(g.Legal(p, nil)); n != 0 {
			r.fatalf("game over but player %d has %d legal moves", p, n)
		}
		if _, err := g.Play(p, rules.Move{}, nil); !errors.Is(err, rules.ErrGameOver) {
			r.fatalf("move after the end: err %v, want ErrGameOver", err)
		}
		if _, err := g.Play(p, rules.Move{Kind: rules.KindResign}, nil); !errors.Is(err, rules.ErrGameOver) {
			r.fatalf("resignation after the end: err %v, want ErrGameOver", err)
		}
	}
	if n := len(g.Scores(nil)); n != g.Players() {
		r.t.Errorf("%s game %d: %d scores for %d players", r.spec.Name, r.n, n, g.Players())
	}
}

// replay stores the game as the server does and replays it from its seed
// and notation: move by move the steps must be those of the live game, and
// record.Replay must arrive at the live game's outcome, scores and views.
func (r *run) replay() {
	r.t.Helper()
	out := r.g.Outcome()
	reason := map[rules.Status]record.Reason{rules.Running: record.Aborted, rules.Won: record.Won, rules.Drawn: record.Drawn}[out.Status]
	rec := &record.Game{
		Game: r.spec.Name, Options: r.cfg.Options, Seats: make([]record.Seat, r.g.Players()), Seed: r.seed,
		Moves: r.moves, Outcome: out, Scores: r.g.Scores(nil), Reason: reason,
	}
	g, err := r.spec.New(len(rec.Seats), rec.Options, record.Rand(rec.Seed))
	if err != nil {
		r.fatalf("replay: %v", err)
	}
	for i, mv := range rec.Moves {
		m, err := g.ParseMove(mv.Seat, mv.Text)
		if err != nil {
			r.t.Fatalf("%s game %d: replaying move %d %q: %v", r.spec.Name, r.n, i+1, mv.Text, err)
		}
		steps, err := g.Play(mv.Seat, m, nil)
		if err != nil || !slices.Equal(steps, r.steps[i]) {
			r.t.Fatalf("%s game %d: replayed move %d %q by seat %d gave steps %v (err %v), live %v", r.spec.Name, r.n, i+1, mv.Text, mv.Seat, steps, err, r.steps[i])
		}
	}
	rg, err := record.Replay(r.spec, rec)
	if err != nil {
		r.t.Fatalf("%s game %d: record.Replay: %v", r.spec.Name, r.n, err)
	}
	live := snap(r.g)
	if d := live.diff(snap(rg)); d != "" {
		r.t.Fatalf("%s game %d: record.Replay does not reproduce the game played live (%s)", r.spec.Name, r.n, d)
	}
	if o := rg.Outcome(); o.Reason != out.Reason {
		r.t.Fatalf("%s game %d: replayed outcome %+v, live %+v", r.spec.Name, r.n, o, out)
	}
}

// snapshot is everything any viewer can see of a game and what each seat may do.
type snapshot struct {
	parts []string // labelled
	legal [][]rules.Move
}

func snap(g rules.Game) snapshot {
	var s snapshot
	add := func(label string, v any) { s.parts = append(s.parts, fmt.Sprintf("%s: %v", label, v)) }
	out := g.Outcome()
	add("outcome", fmt.Sprintf("%v %v %q", out.Status, out.Winners, out.Reason))
	add("scores", g.Scores(nil))
	add("to move", g.ToMove(nil))
	for v := rules.Spectator; int(v) < g.Players(); v++ {
		add(fmt.Sprintf("View(%d)", v), "\n"+g.View(v))
		o := g.Observe(v)
		add(fmt.Sprintf("Observe(%d)", v), fmt.Sprintf("viewer %d %v to move %v scores %v cells %x extra %x", o.Viewer, o.Status, o.ToMove, o.Scores, o.Cells, o.Extra))
		if v >= 0 {
			s.legal = append(s.legal, g.Legal(v, nil))
		}
	}
	return s
}

// diff names the first thing that differs between a and b, "" when none.
func (a snapshot) diff(b snapshot) string {
	for i := range a.parts {
		if i >= len(b.parts) || a.parts[i] != b.parts[i] {
			other := ""
			if i < len(b.parts) {
				other = b.parts[i]
			}
			return fmt.Sprintf("%s\nthen %s", a.parts[i], other)
		}
	}
	for p := range a.legal {
		if p >= len(b.legal) || !slices.Equal(a.legal[p], b.legal[p]) {
			return fmt.Sprintf("seat %d's legal moves", p)
		}
	}
	return ""
}

func equalView(a, b rules.View) bool {
	return a.Viewer == b.Viewer && a.Status == b.Status && slices.Equal(a.ToMove, b.ToMove) &&
		slices.Equal(a.Scores, b.Scores) && bytes.Equal(a.Cells, b.Cells) && bytes.Equal(a.Extra, b.Extra)
}
