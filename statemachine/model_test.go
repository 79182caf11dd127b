package statemachine

import (
	"bytes"
	"flag"
	"fmt"
	"maps"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bomber-game/bomber/account"
	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/rules/record"
	"github.com/bomber-game/bomber/segment"
)

// The product of the table features, as a model-based test: random
// sequences of what players, computers, operators and the shell do (log in,
// create tables of every game with 2-4 seats and clocks, join, watch, give
// seats to the computer, ready, move, offer and answer draws, takebacks and
// rematches, chat, drop, say Bye, resume with old and new tokens, leave, be
// kicked, let time pass, answer computers late, restart from a snapshot
// with or without the connections, shut down) go through the hub's one door,
// and after every step the promises tables make to their players are
// checked against what the step did:
//
//   - every game that started has exactly one record, which the store
//     accepts and which replays through the rules (all of them, once the
//     daemon shuts down);
//   - a seat is acted on (moved, readied, taken, left) only by its
//     occupant's live session, or by the computer where it holds the seat;
//   - clocks run only for the seats to move (CheckInvariants);
//   - no outcome the rules' options forbid (a draw where the game has none,
//     a takeback in a game that cannot take back);
//   - an offer is carried out only with the consent of every seat still in
//     the game (a person's own answer, or a computer's by its policy) and
//     every offer resolves within its time.

var (
	modelSeqs  = flag.Int("model.seqs", 0, "sequences TestModelTables runs (0: its bounded default)")
	modelSteps = flag.Int("model.steps", 0, "steps per sequence of TestModelTables (0: its default)")
)

// TestModelTables runs the model over many random sequences (a bounded
// number in make test; -model.seqs and -model.steps for longer runs, and
// FuzzModelTables under make fuzz).
func TestModelTables(t *testing.T) {
	seqs, steps := 80, 400
	if testing.Short() {
		seqs = 20
	}
	if *modelSeqs > 0 {
		seqs = *modelSeqs
	}
	if *modelSteps > 0 {
		steps = *modelSteps
	}
	var total modelCounts
	for seq := range seqs {
		m := newModel(t, uint64(seq), steps)
		m.run()
		if t.Failed() {
			return
		}
		total.add(m.counts)
	}
	t.Logf("%d sequences, %s", seqs, total)
	// a model that never reaches what it is about proves nothing
	for _, c := range []struct {
		what string
		n    int
	}{{"games started", total.started}, {"games recorded", total.records}, {"moves", total.moves},
		{"computer moves", total.botMoves}, {"offers carried out", total.carried}, {"takebacks", total.takebacks},
		{"resumes", total.resumes}, {"restarts", total.restarts}, {"clock expiries", total.expiries},
		{"pairings", total.pairings}, {"computer games from a seek", total.computerGames}} {
		if c.n == 0 {
			t.Errorf("the model never saw %s", c.what)
		}
	}
}

// FuzzModelTables runs one long sequence per fuzzer input (make fuzz).
func FuzzModelTables(f *testing.F) {
	f.Add(uint64(1), uint16(2000))
	f.Fuzz(func(t *testing.T, seed uint64, steps uint16) {
		newModel(t, seed, int(steps)%4000+100).run()
	})
}

// modelCounts is what a run reached, so the log says how much was checked.
type modelCounts struct {
	steps, started, records, moves, botMoves, carried, takebacks, resumes, restarts, expiries int
	pairings, computerGames                                                                   int
}

func (c *modelCounts) add(o modelCounts) {
	c.steps += o.steps
	c.started += o.started
	c.records += o.records
	c.moves += o.moves
	c.botMoves += o.botMoves
	c.carried += o.carried
	c.takebacks += o.takebacks
	c.resumes += o.resumes
	c.restarts += o.restarts
	c.expiries += o.expiries
	c.pairings += o.pairings
	c.computerGames += o.computerGames
}

func (c modelCounts) String() string {
	return fmt.Sprintf("%d steps: %d games started, %d recorded, %d moves (%d by computers), %d offers carried out (%d takebacks), %d resumes, %d restarts, %d clock expiries, %d pairings, %d computer games from a seek",
		c.steps, c.started, c.records, c.moves, c.botMoves, c.carried, c.takebacks, c.resumes, c.restarts, c.expiries, c.pairings, c.computerGames)
}

// modelUser is one person and the client they use.
type modelUser struct {
	name  string
	conn  ConnID             // their live connection, 0 for none
	token segment.SeatedBody // the last resume token their client was given
}

// seatView is a seat as it stood before a step.
type seatView struct {
	life  seatLife
	s     *session
	ready bool
	auto  bool
}

// tableView is a table as it stood before a step.
type tableView struct {
	seed    [32]byte
	phase   uint8
	moves   int
	draws   bool // the running game allows a draw by agreement
	offer   *offer
	offered uint8 // what the standing offer is for
	seats   []seatView
	rng     string // the table's own generator, as it would draw next
}

type modelRun struct {
	t       testing.TB
	seed    uint64
	limit   int
	rng     *rand.Rand
	h       *Hub
	cfg     Config
	now     int64
	node    uint32 // the incarnation whose connections are live
	opened  uint32 // connections opened in this incarnation
	users   []modelUser
	checks  []Check
	bots    []BotRequest
	started map[[32]byte]bool // games that started, by seed
	records map[[32]byte]int  // records written, by seed
	// consent: by table, the standing offer the model follows and the
	// seats whose person said yes to it with their own input
	consent map[uint32]*modelOffer
	counts  modelCounts
	trail   []string // what the sequence did, for the failure message
}

type modelOffer struct {
	o   *offer
	yes map[rules.Player]bool
}

func newModel(t testing.TB, seed uint64, steps int) *modelRun {
	cfg := Config{Games: Catalogue(), MaxTables: 6, MaxTablesPerUser: 2, MaxWatchers: 2,
		OfferTTL: 10 * time.Second, ResumeGrace: 20 * time.Second, ResumeGraceBye: 5 * time.Second,
		KickGrace: time.Minute, LoginTimeout: time.Minute, ChatRate: 100, ChatBurst: 100, PairComputerAfter: 3 * time.Second}
	m := &modelRun{t: t, seed: seed, limit: steps, rng: rand.New(rand.NewPCG(seed, 0x6d6f64656c)), cfg: cfg,
		node: 1, started: map[[32]byte]bool{}, records: map[[32]byte]int{}, consent: map[uint32]*modelOffer{}}
	for _, n := range []string{"Albert", "Beth", "Cindy", "Dora", "Ed"} {
		m.users = append(m.users, modelUser{name: n})
	}
	m.h = New(cfg)
	m.now = int64(time.Hour)
	m.step(SeedInput(seed), "seed")
	return m
}

func (m *modelRun) fail(format string, args ...any) {
	m.t.Helper()
	tail := m.trail[max(0, len(m.trail)-40):]
	m.t.Fatalf("sequence %d, step %d: %s\nlast steps:\n  %s", m.seed, m.counts.steps, fmt.Sprintf(format, args...), strings.Join(tail, "\n  "))
}

// run plays one sequence, then shuts the daemon down and checks that every
// game that started was recorded once.
func (m *modelRun) run() {
	for m.counts.steps < m.limit && !m.t.Failed() {
		m.act()
	}
	if m.t.Failed() {
		return
	}
	// every standing offer resolves within its time
	m.now += int64(m.cfg.OfferTTL) + 1
	m.tick("past every offer's time")
	for _, id := range m.tableIDs() {
		if o := m.h.tables[id].offer; o != nil {
			m.fail("table %d's offer %d still stands after its time", id, o.what)
		}
	}
	m.counts.pairings, m.counts.computerGames = int(m.h.stats.Pairing.Pairings), int(m.h.stats.Pairing.ComputerGames)
	m.step(Input{Kind: InShutdown}, "shutdown")
	for seed := range m.started {
		if m.records[seed] != 1 {
			m.fail("game %x started and has %d records after the shutdown", seed[:4], m.records[seed])
		}
	}
}

// tick lets time pass at m.now as the shell does, with the inputs
// TickInputs gives: a table tick for each table one of whose own
// deadlines fell, exactly those (due, read from the tables themselves,
// not from the hub's timers), then the world's tick. Now and then a table
// tick for a table with nothing due comes first, as a late or repeated
// one from a cluster's log would: it must change nothing (checkTableTick).
func (m *modelRun) tick(what string) {
	m.t.Helper()
	ins := m.h.TickInputs(m.now, nil)
	want := m.dueTables()
	var got []uint32
	for _, in := range ins[:len(ins)-1] {
		got = append(got, in.Table)
	}
	if !slices.Equal(got, slices.Sorted(maps.Keys(want))) || ins[len(ins)-1].Kind != InTick {
		m.fail("time passing at %d takes %v; want table ticks for %v, then the world's tick", m.now, ins, slices.Sorted(maps.Keys(want)))
	}
	if ids := m.tableIDs(); len(ids) > 0 && m.rng.IntN(4) == 0 {
		id := ids[m.rng.IntN(len(ids))]
		if !want[id] {
			m.step(Input{Kind: InTableTick, Table: id}, fmt.Sprintf("table %d ticks with nothing due", id))
		}
	}
	for _, in := range ins {
		d := "tick"
		if in.Kind == InTableTick {
			d = fmt.Sprintf("table %d ticks", in.Table)
		}
		if what != "" {
			d += " " + what
		}
		m.step(in, d)
	}
	// nothing is left due at that time: a shell that ticks whenever
	// NextDeadline says so would otherwise tick again at once, and on
	if at, ok := m.h.NextDeadline(); ok && at <= m.now {
		m.fail("after time passed at %d, the next deadline is %d", m.now, at)
	}
}

// tableIDs are the hub's tables in id order, so a sequence is the same
// every run.
func (m *modelRun) tableIDs() []uint32 {
	ids := make([]uint32, 0, len(m.h.tables))
	for id := range m.h.tables {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

// send has user u's client send an extended message.
func (m *modelRun) send(u *modelUser, t segment.Type, body []byte, what string) {
	segs := segment.AppendMessage(nil, t, body)
	for i, s := range segs {
		d := what
		if i > 0 {
			d += " (fragment)"
		}
		m.step(Input{Kind: InReceive, Conn: u.conn, Seg: s}, u.name+": "+d)
		if u.conn == 0 {
			return // closed for it
		}
	}
}

// act does one random thing a player, a computer, an operator or the
// shell does, weighted by where the player stands so that games start,
// run and end often.
func (m *modelRun) act() {
	switch r := m.rng.IntN(1000); {
	case r < 130:
		m.answerBot()
		return
	case r < 170:
		m.answerCheck()
		return
	case r < 230:
		m.now += int64(m.rng.IntN(4000)) * int64(time.Millisecond)
		if m.rng.IntN(8) == 0 {
			m.now += int64(m.rng.IntN(40)) * int64(time.Second)
		}
		m.tick("")
		return
	case r < 234:
		u := &m.users[m.rng.IntN(len(m.users))]
		m.step(Input{Kind: InKick, Text: u.name}, "operator kicks "+u.name)
		return
	case r < 238:
		m.restart(m.rng.IntN(2) == 0)
		return
	}
	u := &m.users[m.rng.IntN(len(m.users))]
	s := m.h.sessions[u.conn]
	if s == nil || s.state < ServerStandBy {
		m.login(u)
		return
	}
	t := s.table
	r := m.rng.IntN(100)
	switch {
	case s.x != nil && s.x.seek != nil && r < 80:
		m.seek(u) // mostly waits to be paired
	case r < 4:
		m.drop(u, m.rng.IntN(3) == 0)
	case r < 6:
		m.send(u, segment.Chat, segment.ChatBody{Scope: segment.ScopeTable, Text: "gg"}.Append(nil), "chat")
	case r < 9:
		m.resume(u)
	case r < 12:
		m.offer(u, t)
	case r < 14:
		m.send(u, segment.Leave, nil, "leave")
	case r < 15 && t != nil:
		// placement hints: the seat's own business at its table (most
		// games have none to give: Error)
		m.send(u, segment.HintReq, segment.HintReqMsg{Table: t.id}.Append(nil), "placement hints")
	case t == nil:
		switch {
		case r < 50:
			m.create(u)
		case r < 86:
			m.join(u)
		case r < 92:
			m.seek(u)
		default:
			if id := m.anyTable(); id != 0 {
				m.send(u, segment.Watch, segment.WatchMsg{Table: id, Code: m.h.tables[id].code}.Append(nil), fmt.Sprintf("watch %d", id))
			}
		}
	case t.phase == phaseWaiting:
		switch {
		case r < 70:
			m.send(u, segment.Ready, nil, "ready")
		case r < 78:
			seat := uint8(0xFF)
			if m.rng.IntN(2) == 0 {
				seat = uint8(m.rng.IntN(len(t.seats)))
			}
			m.send(u, segment.Bot, segment.BotMsg{Seat: seat}.Append(nil), fmt.Sprintf("computer for seat %d", seat))
		case r < 90 && t.game != nil:
			m.offer(u, t) // a rematch
		default:
			m.send(u, segment.Leave, nil, "leave")
		}
	default:
		switch {
		case t.offer != nil && r < 50:
			m.offer(u, t) // mostly an answer
		case r < 85:
			m.move(u, s)
		case r < 92:
			m.offer(u, t)
		case r < 95:
			m.send(u, segment.Ready, nil, "ready")
		default:
			m.drop(u, false)
		}
	}
}

// seek has u press "Play now" for a game that pairs, rated or not, with
// one of two time controls or none; cancel its seek; or accept the
// computer (offered or not).
func (m *modelRun) seek(u *modelUser) {
	switch m.rng.IntN(6) {
	case 2, 3, 4:
		if s := m.h.sessions[u.conn]; s.x != nil && s.x.seek != nil {
			return // waits
		}
	case 0:
		m.send(u, segment.Seek, segment.SeekMsg{Action: segment.SeekCancel}.Append(nil), "cancel its seek")
		return
	case 1:
		m.send(u, segment.Seek, segment.SeekMsg{Action: segment.SeekComputer}.Append(nil), "accept the computer")
		return
	}
	games := []string{"dots", "dots", "dots", "checkers"} // mostly one pool, so pairs happen
	sk := segment.SeekMsg{Game: games[m.rng.IntN(len(games))], Rated: uint8(m.rng.IntN(2))}
	if m.rng.IntN(4) == 0 {
		sk.Options = []segment.KV{{Key: "clock.total", Value: "20"}}
	}
	m.send(u, segment.Seek, sk.Append(nil), fmt.Sprintf("seek %s rated=%d %v", sk.Game, sk.Rated, sk.Options))
}

// offer has u propose an offer that fits where its table stands (now and
// then one that does not), or answer (mostly accept) the standing one.
func (m *modelRun) offer(u *modelUser, t *table) {
	what := uint8(1 + m.rng.IntN(3))
	ans := uint8(m.rng.IntN(3))
	switch {
	case t == nil || m.rng.IntN(8) == 0:
	case t.offer != nil && m.rng.IntN(4) > 0:
		what, ans = t.offer.what, segment.OfferAccept
	case t.phase == phasePlaying:
		what, ans = segment.OfferDraw+uint8(2*m.rng.IntN(2)), segment.OfferPropose // a draw or a takeback
	default:
		what, ans = segment.OfferRematch, segment.OfferPropose
	}
	m.send(u, segment.Offer, segment.OfferMsg{What: what, Answer: ans}.Append(nil), fmt.Sprintf("offer %d answer %d", what, ans))
}

// login connects u (a second connection kicks the first) and logs in.
func (m *modelRun) login(u *modelUser) {
	m.opened++
	c := ConnID(uint64(m.node)<<32 | uint64(m.opened))
	if u.conn != 0 && m.rng.IntN(2) == 0 {
		m.drop(u, false)
	}
	u.conn = c
	m.step(Input{Kind: InOpen, Conn: c, Text: "127.0.0.1"}, u.name+": connect")
	hello := segment.HelloMsg{Version: 1, Features: segment.FeatureTables | segment.FeatureChat | segment.FeatureResume |
		segment.FeatureBots | segment.FeatureClocks | segment.FeatureGameFacts | segment.FeaturePairing}
	m.send(u, segment.Hello, hello.Append(nil), "hello")
	if u.conn != 0 {
		m.step(Input{Kind: InReceive, Conn: c, Seg: segment.Name(segment.Info, u.name)}, u.name+": name")
	}
	if u.conn != 0 {
		m.answerCheck()
		m.step(Input{Kind: InReceive, Conn: c, Seg: segment.Name(segment.Passwd, "123")}, u.name+": password")
	}
	if m.rng.IntN(5) > 0 {
		m.answerCheck()
	}
}

// drop closes u's connection, after a Bye when bye.
func (m *modelRun) drop(u *modelUser, bye bool) {
	if u.conn == 0 {
		return
	}
	if bye {
		m.send(u, segment.Bye, nil, "bye")
	}
	if c := u.conn; c != 0 {
		u.conn = 0
		m.step(Input{Kind: InClosed, Conn: c}, u.name+": connection drops")
	}
}

// forget clears the connections the hub closed.
func (m *modelRun) forget() {
	for i := range m.users {
		if m.users[i].conn != 0 && m.h.sessions[m.users[i].conn] == nil {
			m.users[i].conn = 0
		}
	}
}

// anyTable is a random open table's id, or 0.
func (m *modelRun) anyTable() uint32 {
	ids := m.tableIDs()
	if len(ids) == 0 {
		return 0
	}
	return ids[m.rng.IntN(len(ids))]
}

// create has u create a table of a random game, seats and options (clocks,
// the host starting, a separate watchers' chat).
func (m *modelRun) create(u *modelUser) {
	games := m.cfg.Games
	sp := games[m.rng.IntN(len(games))].Spec
	c := segment.CreateMsg{Game: sp.Name, Seats: uint8(sp.MinPlayers + m.rng.IntN(sp.MaxPlayers-sp.MinPlayers+1))}
	if m.rng.IntN(5) == 0 {
		c.Flags = segment.FlagPrivate
	}
	switch sp.Name {
	case "dots":
		c.Options = append(c.Options, segment.KV{Key: "rows", Value: "3"}, segment.KV{Key: "cols", Value: fmt.Sprint(3 + m.rng.IntN(2))})
	case "checkers":
		if m.rng.IntN(2) == 0 {
			c.Options = append(c.Options, segment.KV{Key: "draw_agreement", Value: "false"})
		}
	}
	switch m.rng.IntN(4) {
	case 0:
		c.Options = append(c.Options, segment.KV{Key: "clock.move", Value: fmt.Sprint(2 + m.rng.IntN(6))})
	case 1:
		c.Options = append(c.Options, segment.KV{Key: "clock.total", Value: fmt.Sprint(5 + m.rng.IntN(20))}, segment.KV{Key: "clock.increment", Value: "1"})
	}
	if len(c.Options) > 0 && m.rng.IntN(3) == 0 {
		c.Options = append(c.Options, segment.KV{Key: "clock.pause", Value: "true"})
	}
	if m.rng.IntN(3) == 0 {
		c.Options = append(c.Options, segment.KV{Key: "start", Value: "host"})
	}
	if m.rng.IntN(3) == 0 {
		c.Options = append(c.Options, segment.KV{Key: "chat", Value: "separate"})
	}
	m.send(u, segment.Create, c.Append(nil), fmt.Sprintf("create %s for %d %v", c.Game, c.Seats, c.Options))
}

// join has u take a seat (any, or a chosen one) at a random table; private
// tables are joined with their code, as a link holder would.
func (m *modelRun) join(u *modelUser) {
	id := m.anyTable()
	if id == 0 {
		return
	}
	t := m.h.tables[id]
	seat := uint8(0xFF)
	if m.rng.IntN(3) == 0 {
		seat = uint8(m.rng.IntN(len(t.seats)))
	}
	m.send(u, segment.Join, segment.JoinMsg{Table: id, Seat: seat, Code: t.code}.Append(nil), fmt.Sprintf("join %d seat %d", id, seat))
}

// move has u play a legal move for its seat; now and then its client
// sends a move for another seat of the table it is at (or was at), which
// must be refused.
func (m *modelRun) move(u *modelUser, s *session) {
	t := s.table
	if t == nil || t.game == nil || t.phase != phasePlaying {
		return
	}
	p := s.seat
	if p == rules.Spectator || m.rng.IntN(10) == 0 {
		p = rules.Player(m.rng.IntN(len(t.seats)))
	}
	legal := t.game.Legal(p, nil)
	if len(legal) == 0 {
		return
	}
	mv := legal[m.rng.IntN(len(legal))]
	if m.rng.IntN(40) == 0 {
		mv = rules.Move{Kind: rules.KindResign}
	}
	m.send(u, segment.Move, segment.MoveMsg{Kind: mv.Kind, Len: mv.Len, Arg: mv.Arg}.Append(nil), fmt.Sprintf("move %s as seat %d", t.game.FormatMove(mv), p))
}

// resume has u's client resume with the last token it was given.
func (m *modelRun) resume(u *modelUser) {
	if u.token.Table == 0 {
		return
	}
	tk := u.token
	m.send(u, segment.Resume, segment.ResumeMsg{Table: tk.Table, Seat: tk.Seat, Token: tk.Token, LastSeq: uint32(m.rng.IntN(3))}.Append(nil),
		fmt.Sprintf("resume table %d seat %d", tk.Table, tk.Seat))
}

// answerBot answers a pending computer request: a random one, now and then
// one that came too late.
func (m *modelRun) answerBot() {
	if len(m.bots) == 0 {
		return
	}
	k := m.rng.IntN(len(m.bots))
	b := m.bots[k]
	m.bots = slices.Delete(m.bots, k, k+1)
	a, err := RunBot(b)
	if err != nil {
		m.fail("the computer of %s fails: %v", b.Game, err)
	}
	m.step(Input{Kind: InBot, Bot: a}, fmt.Sprintf("computer at table %d seat %d plays %s", b.Table, b.Seat, a.Move))
}

// answerCheck answers the oldest account check (the password is right).
func (m *modelRun) answerCheck() {
	if len(m.checks) == 0 {
		return
	}
	c := m.checks[0]
	m.checks = m.checks[1:]
	if c.Kind == Ratings { // for a seek: a rating for some games, none for the others
		data := fmt.Sprintf("dots %d 60 12\ncheckers %d 200 2\n", 1450+m.rng.IntN(100), 1300+m.rng.IntN(400))
		m.step(Input{Kind: InReply, Check: c.ID, Answer: Found, Asked: Ratings, Text: data}, "store tells "+c.User+"'s ratings")
		return
	}
	m.step(Input{Kind: InAnswer, Check: c.ID, Answer: Found}, "store answers "+c.User)
}

// restart replaces the hub by one restored from its snapshot: a cluster's
// new leader (the connections live on) or a restarted daemon (its old
// connections are gone: their seats are held).
func (m *modelRun) restart(daemon bool) {
	snap, err := m.h.Snapshot()
	if err != nil {
		m.fail("snapshot: %v", err)
	}
	h, err := Restore(m.cfg, snap)
	if err != nil {
		m.fail("restore: %v", err)
	}
	m.h = h
	m.counts.restarts++
	m.bots = h.PendingBots(nil)
	m.trail = append(m.trail, fmt.Sprintf("restart from a snapshot (daemon %v)", daemon))
	if err := h.CheckInvariants(); err != nil {
		m.fail("restored hub: %v", err)
	}
	if daemon {
		old := m.node
		m.node++
		m.opened = 0
		for i := range m.users {
			m.users[i].conn = 0
		}
		m.step(Input{Kind: InGone, Node: old}, "the old daemon's connections are gone")
	}
}

// view is every table as it stands.
func (m *modelRun) view() map[uint32]tableView {
	v := make(map[uint32]tableView, len(m.h.tables))
	for id, t := range m.h.tables {
		tv := tableView{seed: t.seed, phase: t.phase, moves: len(t.moves), offer: t.offer}
		if t.rng != nil {
			b, _ := t.rng.MarshalBinary()
			tv.rng = string(b)
		}
		if t.game != nil && t.phase == phasePlaying {
			tv.draws = t.game.DrawByAgreement()
		}
		if t.offer != nil {
			tv.offered = t.offer.what
		}
		for i := range t.seats {
			sl := &t.seats[i]
			tv.seats = append(tv.seats, seatView{life: sl.life(), s: sl.s, ready: sl.ready, auto: sl.auto})
		}
		v[id] = tv
	}
	return v
}

// step feeds the hub one input and checks what it did.
func (m *modelRun) step(in Input, what string) {
	m.t.Helper()
	m.counts.steps++
	m.trail = append(m.trail, what)
	before := m.view()
	var actor *session // the sending session, for a message
	actorAt, actorSeat := uint32(0), rules.Spectator
	if in.Kind == InReceive {
		if actor = m.h.sessions[in.Conn]; actor != nil && actor.table != nil {
			actorAt, actorSeat = actor.table.id, actor.seat
		}
	}
	stats := *m.h.Stats()
	scope := m.h.TableOf(&in)
	people := m.people(scope)
	world, _ := m.h.rng.MarshalBinary()
	where := m.whereabouts()
	released := m.released(in)
	wasDue := in.Kind == InTableTick && m.dueTables()[in.Table]
	m.h.Step(m.now, in)
	rd := m.h.Ready()
	after, there := m.view(), m.people(scope)
	m.checkScope(in, scope, people, there, before, after, world, rd)
	m.checkWorldEffects(in, scope, people, there, where, rd)
	m.checkTableEffects(in, scope, before, after, where, released)
	m.checkTableTick(in, before, after, wasDue)
	m.checks = append(m.checks, rd.Checks...)
	m.bots = append(m.bots, rd.Bots...)
	records := slices.Clone(rd.Records)
	m.h.Advance()
	m.forget()
	if err := m.h.CheckInvariants(); err != nil {
		m.fail("%v", err)
	}
	if n := m.h.Stats().SeatsRefused; n > 0 {
		m.fail("%d seat changes the seats' lives forbid were tried: %+v", n, rd.Notices)
	}
	m.counts.resumes += int(m.h.Stats().Resumes - stats.Resumes)
	m.counts.expiries += int(m.h.Stats().ClockExpiries - stats.ClockExpiries)
	m.counts.botMoves += int(m.h.Stats().BotMoves - stats.BotMoves)

	// the clients keep the tokens they are given
	for i := range m.users {
		u := &m.users[i]
		if s := m.h.sessions[u.conn]; s != nil {
			if t := occupant(s); t != nil {
				u.token = segment.SeatedBody{Table: t.id, Seat: uint8(s.seat), Token: t.seats[s.seat].token}
			}
		}
	}

	// games started, and one record each
	for _, tv := range after {
		if tv.phase == phasePlaying && !m.started[tv.seed] {
			m.started[tv.seed] = true
			m.counts.started++
		}
	}
	if n := int(m.h.Stats().GamesStarted); n != len(m.started) {
		m.fail("%d games started, the model saw %d", n, len(m.started))
	}
	agreed := map[[32]byte]bool{}
	for _, rec := range records {
		m.counts.records++
		if !m.started[rec.Seed] {
			m.fail("a record of a game that never started: %+v", rec)
		}
		if m.records[rec.Seed]++; m.records[rec.Seed] > 1 {
			m.fail("game %x recorded twice", rec.Seed[:4])
		}
		if err := account.CheckGame(rec); err != nil {
			m.fail("the store refuses the record: %v (%+v)", err, rec)
		}
		if _, err := record.Replay(m.spec(rec.Game), &rec); err != nil {
			m.fail("the record does not replay: %v", err)
		}
		if rec.Reason == record.Agreed {
			agreed[rec.Seed] = true
		}
	}

	for id, b := range before {
		a, ok := after[id]
		same := ok && a.seed == b.seed
		// no draw where the rules have none
		if agreed[b.seed] && !b.draws {
			m.fail("table %d's game ended agreed though its rules allow no draw", id)
		}
		// moves: by the occupant who sent them, or the computer
		if same && b.phase == phasePlaying {
			t := m.h.tables[id]
			if a.moves < b.moves {
				m.checkTakeback(in, id, t, b)
			}
			for k := b.moves; k < a.moves; k++ {
				m.counts.moves++
				m.checkMover(in, actor, id, b, t.moves[k])
			}
		}
		// a message acts on its sender's seat only
		if actor != nil && ok {
			for i, sv := range b.seats {
				if sv.life != lifePerson || sv.s == actor || sv.s.closed {
					continue
				}
				now := a.seats[i]
				if now.s != sv.s {
					m.fail("%q's message moved %q out of table %d seat %d", actor.name, sv.s.name, id, i)
				}
				if !sv.ready && now.ready {
					m.fail("%q's message readied %q's seat %d at table %d", actor.name, sv.s.name, i, id)
				}
			}
		}
		// offers are carried out only with every consent they need
		if b.offer != nil || actorAt == id {
			m.checkOffer(in, actor, actorAt == id, actorSeat, id, b, a, ok, agreed[b.seed])
		}
	}
	for id, a := range after {
		if a.offer == nil {
			delete(m.consent, id)
		} else if mo := m.consent[id]; mo == nil || mo.o != a.offer {
			// a new offer: its proposer agreed by proposing
			m.consent[id] = &modelOffer{o: a.offer, yes: map[rules.Player]bool{a.offer.by: true}}
		}
	}
}

// people is the connections at table id (seated or watching), for
// checkScope: an input that concerns one table speaks to them only.
func (m *modelRun) people(id uint32) map[ConnID]bool {
	out := map[ConnID]bool{}
	for c, s := range m.h.sessions {
		if s.table != nil && s.table.id == id {
			out[c] = true
		}
	}
	return out
}

// checkScope checks the line Hub.TableOf draws: an input that concerns
// one table changes no other table, draws nothing from the world's
// generator (only from its table's own) and speaks only to its sender, the
// people at that table (before or after it) and, with presence, to those
// who see who is busy; a message that concerns no table plays no move
// anywhere. people and there are the table's people before and after it,
// world the world's generator before it.
func (m *modelRun) checkScope(in Input, scope uint32, people, there map[ConnID]bool, before, after map[uint32]tableView, world []byte, rd *Ready) {
	if in.Kind != InReceive && in.Kind != InBot && in.Kind != InTableTick {
		return
	}
	for id, b := range before {
		t, a := m.h.tables[id], after[id]
		switch {
		case scope == 0 && t != nil && t.seed == b.seed && len(t.moves) > b.moves:
			m.fail("%v classed as concerning no table played a move at table %d", in.Kind, id)
		case scope != 0 && id != scope && (t == nil || t.seed != b.seed || len(t.moves) != b.moves || t.phase != b.phase || a.rng != b.rng):
			m.fail("%v classed as concerning table %d changed table %d", in.Kind, scope, id)
		}
	}
	if scope == 0 {
		return
	}
	if now, _ := m.h.rng.MarshalBinary(); !bytes.Equal(now, world) {
		m.fail("%v at table %d drew from the world's generator", in.Kind, scope)
	}
	for _, snd := range rd.Sends {
		presence := snd.Seg.Type == segment.NewOnline || snd.Seg.Type == segment.NewOffline
		if snd.Conn != in.Conn && !people[snd.Conn] && !there[snd.Conn] && !presence {
			m.fail("%v at table %d spoke to connection %d, who is not there (segment %v)", in.Kind, scope, snd.Conn, snd.Seg.Type)
		}
	}
}

// whereabouts is where each session is: its state, table and seat, and
// whether it waits in a pairing pool.
type whereabouts struct {
	state   State
	table   uint32
	seat    rules.Player
	seeking bool
}

func (m *modelRun) whereabouts() map[ConnID]whereabouts {
	out := make(map[ConnID]whereabouts, len(m.h.sessions))
	for c, s := range m.h.sessions {
		w := whereabouts{state: s.state, seat: s.seat, seeking: s.x != nil && s.x.seek != nil}
		if s.table != nil {
			w.table = s.table.id
		}
		out[c] = w
	}
	return out
}

// checkWorldEffects checks what an input that concerns one table tells
// the world beyond it, the part a world that gives tables to shards must
// hear from the table's owner: it moves nobody but its sender and the
// people at that table (who sit, watch, leave or are seated, and who stop
// seeking a game when they sit), and it asks the store nothing.
func (m *modelRun) checkWorldEffects(in Input, scope uint32, people, there map[ConnID]bool, where map[ConnID]whereabouts, rd *Ready) {
	if scope == 0 || in.Kind != InReceive && in.Kind != InBot && in.Kind != InTableTick {
		return
	}
	now := m.whereabouts()
	for c, w := range where {
		if c == in.Conn || people[c] || there[c] {
			continue
		}
		if a, ok := now[c]; !ok || a != w {
			m.fail("%v at table %d moved connection %d, who is not there: %+v, then %+v", in.Kind, scope, c, w, a)
		}
	}
	if len(rd.Checks) > 0 {
		m.fail("%v at table %d asked the store %v", in.Kind, scope, rd.Checks[0].Kind)
	}
}

// released is the tables the segments an account answer releases concern:
// what a session sent while the store was asked for it waits in its queue
// until the answer (InAnswer, InReply), which then applies it, table
// inputs among it.
func (m *modelRun) released(in Input) map[uint32]bool {
	out := map[uint32]bool{}
	if in.Kind != InAnswer && in.Kind != InReply {
		return out
	}
	if s := m.h.checks[in.Check]; s != nil && s.queue != nil {
		for _, seg := range s.queue[:s.queued] {
			out[s.tableOf(seg)] = true
		}
	}
	return out
}

// checkTableEffects checks what an input that concerns no table does to
// tables, the part a table's owner must hear from the world when tables
// are given to shards: it opens tables, and changes one only where its
// sender sits or watches, where someone whose session it closed, kicked
// or declared gone sat or watched (their seat held or given up), or that
// a segment it released from a session's queue concerns (released). The
// world's tick is no exception: a table's own deadlines fall at its table
// tick (checkTableTick), which its owner can give it alone. A shutdown
// may change any table.
func (m *modelRun) checkTableEffects(in Input, scope uint32, before, after map[uint32]tableView, where map[ConnID]whereabouts, released map[uint32]bool) {
	if scope != 0 || in.Kind == InShutdown {
		return
	}
	may := released
	if w, ok := where[in.Conn]; ok && in.Kind == InReceive || in.Kind == InClosed {
		may[w.table] = true
	}
	for c, w := range where {
		if s := m.h.sessions[c]; s == nil || s.state == Kicked && w.state != Kicked {
			may[w.table] = true
		}
	}
	for id, b := range before {
		if a, ok := after[id]; (!ok || !reflect.DeepEqual(a, b)) && !may[id] {
			m.fail("%v, which concerns no table, changed table %d, where neither its sender nor anyone it closed, kicked or declared gone was", in.Kind, id)
		}
	}
}

// checkTableTick checks that a table tick changes its table only when one
// of the table's own deadlines fell (wasDue, from before it), so one that
// comes late or twice does no harm, and that it leaves none due.
func (m *modelRun) checkTableTick(in Input, before, after map[uint32]tableView, wasDue bool) {
	if in.Kind != InTableTick {
		return
	}
	b, was := before[in.Table]
	a, is := after[in.Table]
	if !wasDue && (was != is || !reflect.DeepEqual(a, b)) {
		m.fail("a tick of table %d, with nothing due there, changed it", in.Table)
	}
	if m.dueTables()[in.Table] {
		m.fail("table %d still has a deadline due after its tick", in.Table)
	}
}

// dueTables is the tables one of whose own deadlines has fallen at m.now:
// their offer's time is over, a seat held for a dropped player is past its
// grace, or a seat's turn clock ran out.
func (m *modelRun) dueTables() map[uint32]bool {
	out := map[uint32]bool{}
	for id, t := range m.h.tables {
		if t.offer != nil && t.offer.expires <= m.now {
			out[id] = true
		}
		for i := range t.seats {
			sl := &t.seats[i]
			if sl.away && sl.awayUntil <= m.now {
				out[id] = true
			}
			if t.clock != nil && t.phase == phasePlaying && !sl.expired {
				if d := t.clock.deadline(sl); d != 0 && d <= m.now {
					out[id] = true
				}
			}
		}
	}
	return out
}

// spec is the game named name's rules.
func (m *modelRun) spec(name string) rules.Spec {
	for _, g := range m.cfg.Games {
		if g.Spec.Name == name {
			return g.Spec
		}
	}
	m.fail("no game %q", name)
	return rules.Spec{}
}

// checkMover holds a move the step made to who may make it: the occupant
// whose message it was, the computer where it holds the seat (or moves for
// a seat whose clock ran out), and a seat's resignation when its person
// leaves, drops out of a game of two or runs out of time.
func (m *modelRun) checkMover(in Input, actor *session, id uint32, b tableView, pm playedMove) {
	p := pm.seat
	sv := b.seats[p]
	switch {
	case in.Kind == InReceive:
		if actor == nil || sv.s != actor {
			m.fail("table %d seat %d moved (%v) on a message of a session that does not sit there", id, p, pm.move)
		}
	case in.Kind == InBot:
		if sv.life != lifeBot && sv.life != lifeBotHolding && !sv.auto {
			m.fail("the computer moved for table %d seat %d, which is %v", id, p, sv.life)
		}
	case pm.move.Kind != rules.KindResign:
		m.fail("table %d seat %d moved (%v) on a %v", id, p, pm.move, in.Kind)
	}
}

// checkTakeback holds a takeback to the game's rules and to an offer (the
// standing one, or one proposed by this very message where every other seat
// agreed at once); checkOffer checks its consents.
func (m *modelRun) checkTakeback(in Input, id uint32, t *table, b tableView) {
	if !t.kind.Spec.Takeback {
		m.fail("table %d took back a move of %s, which has no takeback", id, t.kind.Spec.Name)
	}
	if b.offered != segment.OfferTakeback && !(in.Kind == InReceive && in.Seg.Type == segment.Offer) {
		m.fail("table %d took back a move nobody offered", id)
	}
}

// checkOffer checks, for the table b was, that an offer the step carried
// out had the consent of every seat still in the game.
func (m *modelRun) checkOffer(in Input, actor *session, here bool, seat rules.Player, id uint32, b, a tableView, ok, agreed bool) {
	// what the step's sender said
	mo := m.consent[id]
	if mo == nil || mo.o != b.offer {
		mo = &modelOffer{o: b.offer, yes: map[rules.Player]bool{}}
		if b.offer != nil {
			mo.yes[b.offer.by] = true
			m.consent[id] = mo
		}
	}
	var what uint8
	if here && in.Seg.Type == segment.Offer && seat != rules.Spectator && b.seats[seat].s == actor {
		if om, err := segment.DecodeOfferMsg(m.lastBody(in)); err == nil && om.Answer != segment.OfferDecline {
			what = om.What
			if b.offer == nil || b.offer.what == om.What {
				mo.yes[seat] = true
			}
		}
	}
	if b.offer != nil {
		what = b.offer.what
	}
	if what == 0 {
		return
	}
	// was it carried out?
	carried := false
	switch what {
	case segment.OfferDraw:
		carried = agreed
	case segment.OfferTakeback:
		carried = ok && a.seed == b.seed && a.moves < b.moves
	case segment.OfferRematch:
		// a new game at the table, on an answer to the standing offer
		// or on the offer itself (every other seat a computer), or
		// when a computer took a seat; not when the last seat got ready
		// (a ready check needs no offer)
		byReady := in.Kind == InReceive && (in.Seg.Type == segment.Ready || in.Seg.Type == segment.Bot)
		carried = ok && a.seed != b.seed && a.phase == phasePlaying && !byReady && (b.offer != nil || in.Kind == InReceive && in.Seg.Type == segment.Offer)
	}
	if !carried {
		return
	}
	m.counts.carried++
	if what == segment.OfferTakeback {
		m.counts.takebacks++
	}
	for i, sv := range b.seats {
		p := rules.Player(i)
		switch sv.life {
		case lifeGone, lifeEmpty:
			continue
		case lifeBot, lifeBotHolding:
			if what == segment.OfferTakeback {
				m.fail("table %d: a computer seat %d agreed to a takeback", id, i)
			}
			continue
		}
		if actor != nil && sv.s == actor && in.Seg.Type == segment.Leave {
			continue // it left the game as the others agreed
		}
		if !mo.yes[p] {
			m.fail("table %d carried out offer %d without seat %d's consent (%v)", id, what, i, sv.life)
		}
	}
}

// lastBody is the body of the one-segment message in (the model's offers
// fit one segment).
func (m *modelRun) lastBody(in Input) []byte {
	_, body, _, err := (&segment.Assembler{}).Add(in.Seg)
	if err != nil {
		return nil
	}
	return body
}
