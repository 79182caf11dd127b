package statemachine

import (
	"encoding/json"
	"maps"
	"slices"

	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/rules/record"

	"github.com/bomber-game/bomber/segment"
)

// Step applies one input at shell time now (nanoseconds): the hub's one way
// in. Whatever the hub wants done collects in Ready until Advance. The same
// inputs at the same times always give the same outputs, so a log of them
// replays exactly (AppendInput, ReadBatch).
func (h *Hub) Step(now int64, in Input) {
	switch in.Kind {
	case InOpen:
		h.open(now, in.Conn, in.Text)
	case InReceive:
		h.receive(now, in.Conn, in.Seg)
	case InClosed:
		if s := h.sessions[in.Conn]; s != nil {
			h.drop(now, s)
		}
	case InAnswer, InReply:
		h.answer(now, &in)
	case InTick:
		h.tick(now)
	case InTableTick:
		h.tableTick(now, in.Table)
	case InBot:
		h.botMove(now, in.Bot)
	case InKick:
		if s := h.users[in.Text]; s != nil {
			h.close(now, s)
		}
	case InGone:
		h.gone(now, in.Node)
	case InConfig:
		h.reconfigure(in.Text)
	case InSeed:
		h.rng.Seed(in.Seed)
	case InShutdown:
		h.shutdown(now)
	}
}

// ConfigInput is the InConfig input that makes the hub run on cfg's
// settings (all but the game catalogue, which is the build's, and Casts,
// which is the shell's), and on this build's Generation.
func ConfigInput(cfg Config) Input {
	j, err := json.Marshal(configJSON{cfg, Generation})
	if err != nil {
		panic("statemachine: settings do not marshal: " + err.Error()) // plain numbers and strings: cannot happen
	}
	return Input{Kind: InConfig, Text: string(j)}
}

// SeedInput is an InSeed input whose seed is n's bytes, for tests and
// replays that want the same table seeds, join codes and tokens every run.
func SeedInput(n uint64) Input {
	in := Input{Kind: InSeed}
	for i := range 8 {
		in.Seed[i] = byte(n >> (8 * i))
	}
	return in
}

// reconfigure applies settings from an InConfig input. Settings that do
// not parse, or that name a reply-code table, a first guesser or a
// generation this build does not have, change nothing (every copy of the
// hub skips them alike, and the world stays one this build can run and
// snapshot).
func (h *Hub) reconfigure(j string) {
	var c configJSON
	if err := json.Unmarshal([]byte(j), &c); err != nil || c.Dialect > Document || c.First > Invitee || c.Generation > Generation {
		h.stats.BadInputs++
		return
	}
	c.Games, c.Casts = h.cfg.Games, h.cfg.Casts
	h.cfg = c.Config.withDefaults()
	h.generation = c.Generation
}

// Generation numbers how the hub's world evolves where a build changed
// what the same inputs do. Every InConfig names its build's (settings
// from before it name none: 0), and the world goes by the last one
// applied, as it goes by the last settings, so a log or capture of an
// older build replays as that build applied it, up to the settings a
// newer one put in it.
//
//   - 0: every table draws its randomness (game seeds, seats' resume
//     tokens) from the world's generator.
//   - 1: a table opened from then on has its own generator, seeded from
//     the world's as it opens (see table.rng).
//   - 2: a table's own deadlines (its offer's, its held seats', its turn
//     clocks') fall at a table tick naming it, and the world's tick leaves
//     tables alone but for the people it closes (see TickInputs).
const Generation = 2

// configJSON is an InConfig input's text: the settings and the
// generation of the build that put them in the log.
type configJSON struct {
	Config
	Generation uint32 `json:"generation,omitempty"`
}

// open records a new connection from a source address (what login
// throttling counts per address).
func (h *Hub) open(now int64, c ConnID, source string) {
	if _, dup := h.sessions[c]; dup {
		h.stats.BadInputs++ // a log never reuses an id; a corrupt one may
		return
	}
	s := &session{conn: c, state: Accept, opened: now, source: source, last: now}
	if h.cfg.SegmentRate > 0 {
		s.credit = h.burstCredit()
	}
	h.sessions[c] = s
	if h.cfg.LoginTimeout > 0 {
		h.timers.push(now+int64(h.cfg.LoginTimeout), c)
	}
}

// gone closes every connection of node: the connections it had are gone
// with it (in connection order, so every copy of the hub does the same). A
// reference Bomber match whose two players were both on the node ends as
// aborted, as at a shutdown: nobody left it, the server went (and the
// reference protocol cannot resume a match). So does a game at a table
// whose players were all there and none can resume: dropped one by one,
// the first would resign and hand the next a win. Players who can resume
// have their seats held, as for any dropped connection.
func (h *Hub) gone(now int64, node uint32) {
	for _, s := range h.online {
		if t := s.table; t != nil && !t.ext() && t.seats[0].s == s && NodeOf(s.conn) == node {
			if o := t.seats[1].s; o != nil && NodeOf(o.conn) == node {
				h.endTable(now, t, record.Aborted, rules.Spectator)
			}
		}
	}
	for _, id := range slices.Sorted(maps.Keys(h.tables)) {
		if t := h.tables[id]; t.phase == phasePlaying && lostWith(t, node) {
			h.endTable(now, t, record.Aborted, rules.Spectator)
		}
	}
	var conns []ConnID
	for c := range h.sessions {
		if NodeOf(c) == node {
			conns = append(conns, c)
		}
	}
	slices.Sort(conns)
	for _, c := range conns {
		if s := h.sessions[c]; s != nil {
			h.drop(now, s)
		}
	}
}

// lostWith reports whether every person at t's game was connected to node
// and none can take the seat back: nobody is left to play it or to win it.
func lostWith(t *table, node uint32) bool {
	for _, sl := range t.seats {
		switch {
		case sl.away:
			return false // held for a person connected elsewhere (or later)
		case sl.s != nil && (NodeOf(sl.s.conn) != node || sl.s.has(segment.FeatureResume)):
			return false
		}
	}
	return true
}

// receive handles one whole segment from connection c.
func (h *Hub) receive(now int64, c ConnID, seg segment.Segment) {
	s := h.sessions[c]
	if s == nil {
		return // closed by the hub; the shell may still deliver what it read
	}
	h.stats.SegmentsIn[seg.Type.Base()&127]++
	if h.cfg.SegmentRate > 0 && !h.allow(now, s) {
		h.stats.RateLimited++
		h.notice(s, NoticeRateLimited)
		if s.x != nil {
			// a client of the extended protocol reads why before the close;
			// the reference dialect has no such message and stays as it was
			h.sendMsg(s, segment.ErrorMsg, segment.ErrorBody{Req: seg.Type.Base(), Code: segment.ErrCodeRateLimited, Text: "sending too fast"}.Append(h.body()))
		}
		h.close(now, s)
		return
	}
	if s.check != 0 {
		if s.queued == pendingMax {
			h.close(now, s) // flooding while the store answers: nothing good comes of it
			return
		}
		if s.queue == nil {
			s.queue = new([pendingMax]segment.Segment)
		}
		s.queue[s.queued] = seg
		s.queued++
		return
	}
	h.handle(now, s, seg)
}

// ask hands account check c (its ID and Conn filled in here) for session s
// to the shell; s waits for the answer.
func (h *Hub) ask(s *session, c Check) {
	h.checkSeq++
	c.ID, c.Conn = h.checkSeq, s.conn
	s.check = c.ID
	h.checks[c.ID] = s
	h.ready.Checks = append(h.ready.Checks, c)
}

// answer delivers the result of account check in.Check (an InAnswer or an
// InReply). Answers for sessions that have gone or moved on are ignored.
func (h *Hub) answer(now int64, in *Input) {
	id, a := in.Check, in.Answer
	s := h.checks[id]
	if s == nil {
		return
	}
	delete(h.checks, id)
	if s.closed {
		if in.Kind == InAnswer {
			h.answeredLate(now, s, a) // the store did the work: a failure still counts
		}
		return
	}
	if s.check != id {
		return
	}
	s.check = 0
	if in.Kind == InReply {
		h.replied(now, s, a, in.Asked, in.Text)
	} else {
		h.answered(now, s, a)
	}
	// run what arrived while waiting, until another check is needed
	for s.check == 0 && s.queued > 0 && !s.closed {
		seg := s.queue[0]
		copy(s.queue[:], s.queue[1:s.queued])
		s.queued--
		if s.queued == 0 {
			s.queue = nil
		}
		h.handle(now, s, seg)
	}
}

// shutdown ends every game as aborted and closes every connection, for an
// orderly stop of the daemon. Nobody is sent anything: a GameOver would read
// as a loss and offline notices would go to connections about to close.
func (h *Hub) shutdown(now int64) {
	for _, s := range h.online {
		if t := s.table; t != nil && !t.ext() && t.seats[0].s == s {
			h.endTable(now, t, record.Aborted, rules.Spectator)
		}
	}
	for _, id := range slices.Sorted(maps.Keys(h.tables)) {
		h.finish(now, h.tables[id], record.Aborted, rules.Spectator)
	}
	clear(h.tables)
	clear(h.codes)
	h.clockTables = h.clockTables[:0]
	conns := make([]ConnID, 0, len(h.sessions))
	for c, s := range h.sessions {
		s.closed = true
		conns = append(conns, c)
	}
	slices.Sort(conns)
	h.ready.Closes = append(h.ready.Closes, conns...)
	clear(h.sessions)
	clear(h.users)
	clear(h.checks)
	for _, sk := range h.seekers {
		sk.s.x.seek = nil
	}
	h.seekers, h.pairAt = nil, 0
	if h.cfg.Casts {
		for _, s := range h.online {
			h.cast(Cast{Kind: CastLeave, Conn: s.conn})
		}
	}
	h.online = h.online[:0]
}

// close asks the shell to close s's connection and forgets it at once.
func (h *Hub) close(now int64, s *session) {
	h.ready.Closes = append(h.ready.Closes, s.conn)
	h.drop(now, s)
}

// drop removes s and tells everyone affected.
func (h *Hub) drop(now int64, s *session) {
	if s.closed {
		return
	}
	s.closed = true
	delete(h.sessions, s.conn)
	// a check in flight stays in h.checks: its answer counts (answeredLate)
	if !s.state.LoggedIn() {
		return
	}
	h.removeOnline(s)
	if h.cfg.Casts {
		h.cast(Cast{Kind: CastLeave, Conn: s.conn})
	}
	h.notifyOnline(segment.Name(segment.NewOffline, s.name), nil)
	h.leave(now, s)
}

// removeOnline takes s out of the user list.
func (h *Hub) removeOnline(s *session) {
	if h.users[s.name] == s {
		delete(h.users, s.name)
	}
	if i := slices.Index(h.online, s); i >= 0 {
		h.online = slices.Delete(h.online, i, i+1)
	}
}

// leave releases whoever s was inviting, answering or playing, because s
// went offline or was kicked.
func (h *Hub) leave(now int64, s *session) {
	h.leavePool(s)
	switch s.state {
	case WaitInvitationResponse:
		// the invitee's client still shows the invitation; its answer is
		// dropped when it comes (an acceptance gets GameOver back)
		if p := s.peer; p != nil {
			p.peer, p.orphan = nil, true
		}
	case Responding:
		if p := s.peer; p != nil {
			r := ReplyRefused // kicked: the user is online but never saw it
			if s.closed {
				r = ReplyNoUser
			}
			h.reply(p, segment.InvitResponse, r)
			p.state, p.peer = ServerStandBy, nil
		}
	case Draw, Game:
		if t := s.table; t != nil {
			other := t.seats[1-s.seat].s
			h.endTable(now, t, record.Abandoned, s.seat)
			h.send(other, segment.Empty(segment.GameOver))
		}
	case AtTable:
		h.leaveTable(now, s, true)
	}
	s.peer, s.orphan, s.table = nil, false, nil
}
