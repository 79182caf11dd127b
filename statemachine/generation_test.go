package statemachine

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"github.com/bomber-game/bomber/segment"
)

// TestOlderLogsReplayAsTheirBuildDrew: settings put in the log by a build
// before generations (their JSON names none) put the world in generation
// 0, where a game's seed comes from the world's generator, as that build
// drew it, so its log and captures replay as it applied them. Settings of
// this build (ConfigInput) move the world to this generation: a table
// opened from then on draws from its own generator, and the older table
// still draws from the world's. A snapshot keeps both.
func TestOlderLogsReplayAsTheirBuildDrew(t *testing.T) {
	r := &rig{tb: t, h: New(Config{Games: Catalogue()}), now: int64(time.Second)}
	h := r.h
	old, err := json.Marshal(Config{})
	if err != nil {
		t.Fatal(err)
	}
	h.Step(0, Input{Kind: InConfig, Text: string(old)})
	h.Step(0, SeedInput(1))
	for c, name := range []string{"Albert", "Beth", "Cindy", "Dora"} { // after the settings: not loggedIn
		r.login(ConnID(c+1), name, hubFeatures)
	}
	world := func() []byte { b, _ := h.rng.MarshalBinary(); return b }
	// open makes a checkers table of a and b, and reports whether starting
	// its game (their Ready, a table input) drew from the world's generator
	open := func(a, b ConnID) (*table, bool) {
		r.msg(a, segment.Create, segment.CreateMsg{Game: "checkers", Seats: 2}.Append(nil))
		id := h.tableSeq
		r.msg(b, segment.Join, segment.JoinMsg{Table: id, Seat: 0xFF}.Append(nil))
		before := world()
		r.msg(a, segment.Ready, nil)
		r.msg(b, segment.Ready, nil)
		tb := h.tables[id]
		if tb == nil || tb.phase != phasePlaying {
			t.Fatalf("table %d did not start", id)
		}
		return tb, !bytes.Equal(before, world())
	}

	older, drew := open(1, 2)
	if h.generation != 0 || older.rng != nil || !drew {
		t.Fatalf("under an older build's settings: generation %d, table generator %v, world's drawn %v; want 0, none, drawn", h.generation, older.rng != nil, drew)
	}
	h.Step(r.now, ConfigInput(Config{Games: Catalogue()}))
	newer, drew := open(3, 4)
	if h.generation != Generation || newer.rng == nil || drew {
		t.Fatalf("under this build's settings: generation %d, table generator %v, world's drawn %v; want %d, one, not drawn", h.generation, newer.rng != nil, drew, Generation)
	}
	// the older table's next game still takes its seed from the world's
	r.msg(1, segment.Resign, nil)
	before, seed := world(), older.seed
	r.msg(1, segment.Ready, nil)
	r.msg(2, segment.Ready, nil)
	if older.phase != phasePlaying || older.seed == seed || bytes.Equal(before, world()) {
		t.Fatalf("the older table's rematch: phase %d, new seed %v, world's drawn %v", older.phase, older.seed != seed, !bytes.Equal(before, world()))
	}

	if got := restored(t, h); got.generation != Generation || got.tables[older.id].rng != nil || got.tables[newer.id].rng == nil {
		t.Errorf("restored: generation %d, older table's generator %v, newer's %v", got.generation, got.tables[older.id].rng != nil, got.tables[newer.id].rng != nil)
	}
}

// TestTimeAtTablesByGeneration: in a world of generation 1 (a log or
// capture of that build), the one tick lets a table's turn clock run out,
// as that build did, and a table tick is a bad input that changes
// nothing. From generation 2 on the world's tick leaves the table alone:
// time passing names the table (TickInputs), and its table tick ends the
// game on time.
func TestTimeAtTablesByGeneration(t *testing.T) {
	gen1, err := json.Marshal(configJSON{Config{}, 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, gen := range []uint32{1, Generation} {
		r := loggedIn(t, hubFeatures, "Albert", "Beth")
		h := r.h
		if gen == 1 {
			h.Step(r.now, Input{Kind: InConfig, Text: string(gen1)})
		}
		r.msg(1, segment.Create, segment.CreateMsg{Game: "checkers", Seats: 2, Options: []segment.KV{{Key: "clock.move", Value: "10"}}}.Append(nil))
		tb := h.tables[h.tableSeq]
		r.msg(2, segment.Join, segment.JoinMsg{Table: tb.id, Seat: 0xFF}.Append(nil))
		r.msg(1, segment.Ready, nil)
		r.msg(2, segment.Ready, nil)
		if tb.phase != phasePlaying {
			t.Fatalf("generation %d: the game did not start", gen)
		}
		r.now += int64(11 * time.Second)
		ins := h.TickInputs(r.now, nil)
		if gen == 1 {
			h.Step(r.now, Input{Kind: InTableTick, Table: tb.id})
			if tb.phase != phasePlaying || h.stats.BadInputs != 1 {
				t.Fatalf("generation 1: a table tick ended the game (phase %d) or was not counted bad (%d)", tb.phase, h.stats.BadInputs)
			}
			if len(ins) != 1 || ins[0].Kind != InTick {
				t.Fatalf("generation 1: time passing takes %v, want the one tick", ins)
			}
			h.Step(r.now, ins[0])
			if tb.phase == phasePlaying {
				t.Fatal("generation 1: the tick did not end the game whose clock ran out")
			}
			continue
		}
		h.Step(r.now, Input{Kind: InTick})
		if tb.phase != phasePlaying {
			t.Fatalf("generation %d: the world's tick ended a table's game", gen)
		}
		if len(ins) != 2 || ins[0] != (Input{Kind: InTableTick, Table: tb.id}) || ins[1].Kind != InTick {
			t.Fatalf("generation %d: time passing takes %v, want table %d's tick, then the world's", gen, ins, tb.id)
		}
		h.Step(r.now, ins[0])
		if tb.phase == phasePlaying || h.stats.ClockExpiries != 1 {
			t.Fatalf("generation %d: the table's tick did not end the game on time (phase %d, expiries %d)", gen, tb.phase, h.stats.ClockExpiries)
		}
	}
}

// TestSettingsThisBuildCannotApplyChangeNothing: settings in the log that
// name a reply-code table or a first guesser this build does not have, or
// a generation newer than its own (a corrupt log, or a newer build's), are
// skipped like settings that do not parse: the world keeps going by the
// ones before, so every copy of it stays one this build can snapshot and
// restore (a reply-code table it lacks would be indexed out of range at
// the next reply).
func TestSettingsThisBuildCannotApplyChangeNothing(t *testing.T) {
	for _, c := range []configJSON{
		{Config: Config{Dialect: Document + 1}, Generation: Generation},
		{Config: Config{First: Invitee + 1}, Generation: Generation},
		{Config: Config{OfferTTL: time.Minute}, Generation: Generation + 1},
	} {
		h := New(Config{Games: Catalogue()})
		before := h.Config()
		j, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		h.Step(0, Input{Kind: InConfig, Text: string(j)})
		if got := h.Config(); got.Dialect != before.Dialect || got.First != before.First || got.OfferTTL != before.OfferTTL || h.generation != Generation || h.stats.BadInputs != 1 {
			t.Errorf("settings %s: dialect %d, first %d, offer TTL %v, generation %d, bad inputs %d; want the settings before, generation %d and one bad input",
				j[:min(len(j), 60)], got.Dialect, got.First, got.OfferTTL, h.generation, h.stats.BadInputs, Generation)
		}
		restored(t, h)
	}
}
