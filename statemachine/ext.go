package statemachine

import (
	"github.com/bomber-game/bomber/segment"
)

// The extended protocol (docs/protocol.md, "Extended protocol"): a client
// that starts its connection with Hello gets tables for every game, chat and
// the rest; a client that does not (the reference client) never receives an
// extended segment, and is closed if it sends one, as for any unknown
// descriptor.

// Features the hub offers.
const hubFeatures = segment.FeatureTables | segment.FeatureChat | segment.FeatureResume | segment.FeatureBots | segment.FeatureClocks | segment.FeatureGameFacts | segment.FeaturePing | segment.FeatureSignUp | segment.FeatureLegal | segment.FeaturePairing |
	segment.FeatureHistory | segment.FeatureAccount

// extSession is what the hub keeps for an extended-protocol connection.
type extSession struct {
	features   uint32
	asm        segment.Assembler
	chatCredit int64 // chat rate limit: nanoseconds of allowance saved up
	chatLast   int64
	seek       *seeker // quick pairing: the player's seek (pairing.go)
	bye        bool    // the client said it is closing on purpose
}

// extSegment handles an extended segment from s.
func (h *Hub) extSegment(now int64, s *session, seg segment.Segment) {
	if s.x == nil {
		if seg.Type == segment.Hello && !s.spoke {
			h.hello(now, s, seg)
			return
		}
		h.badFrame(now, s) // a reference connection: as an unknown descriptor
		return
	}
	if seg.Type.Base() == segment.Hello {
		h.badFrame(now, s) // Hello is valid only as the first segment
		return
	}
	t, body, done, err := s.x.asm.Add(seg)
	if err != nil {
		h.badFrame(now, s)
		return
	}
	if !done {
		return
	}
	h.message(now, s, t, body)
}

// badFrame closes s for breaking the framing rules of the extended protocol
// (docs/protocol.md 8.2): as for an unknown descriptor, nothing is answered.
func (h *Hub) badFrame(now int64, s *session) {
	h.stats.BadExtended++
	h.close(now, s)
}

// hello: the client asks for the extended protocol.
func (h *Hub) hello(now int64, s *session, seg segment.Segment) {
	m, err := segment.DecodeHelloMsg(seg.Payload())
	if err != nil {
		// a malformed Hello is a framing error: nothing can be answered to
		// a client whose protocol is unknown
		h.badFrame(now, s)
		return
	}
	s.x = &extSession{features: m.Features & hubFeatures, chatCredit: h.chatBurst()}
	h.sendMsg(s, segment.Welcome, segment.WelcomeBody{Version: segment.ProtocolVersion, Features: s.x.features, MaxMessage: segment.MaxMessage}.Append(h.body()))
}

// body returns the hub's scratch buffer for building one message body.
func (h *Hub) body() []byte { return h.scratch[:0] }

// sendMsg queues message t with body for s, cut into segments.
func (h *Hub) sendMsg(s *session, t segment.Type, body []byte) {
	h.segs = segment.AppendMessage(h.segs[:0], t, body)
	for _, seg := range h.segs {
		h.send(s, seg)
	}
	if cap(body) > cap(h.scratch) {
		h.scratch = body[:0] // keep the grown buffer
	}
}

// cut appends message t with body to h.relay as segments, to be sent to
// several sessions by sendCut, and returns its number.
func (h *Hub) cut(t segment.Type, body []byte) int {
	h.relay = segment.AppendMessage(h.relay, t, body)
	h.relayEnds = append(h.relayEnds, len(h.relay))
	if cap(body) > cap(h.scratch) {
		h.scratch = body[:0] // keep the grown buffer
	}
	return len(h.relayEnds) - 1
}

// sendCut queues message i of h.relay for s.
func (h *Hub) sendCut(s *session, i int) {
	from := 0
	if i > 0 {
		from = h.relayEnds[i-1]
	}
	for _, seg := range h.relay[from:h.relayEnds[i]] {
		h.send(s, seg)
	}
}

// fail answers request req of s with an error; nothing else changes.
func (h *Hub) fail(s *session, req segment.Type, code uint8, text string) {
	h.stats.ExtErrors++
	h.sendMsg(s, segment.ErrorMsg, segment.ErrorBody{Req: req, Code: code, Text: text}.Append(h.body()))
}

// message dispatches one whole extended message.
func (h *Hub) message(now int64, s *session, t segment.Type, body []byte) {
	if t == segment.Ping {
		h.ping(s, body) // in every state: liveness is not a game action
		return
	}
	if t == segment.SignUp {
		h.signUp(now, s, body)
		return
	}
	if !s.state.LoggedIn() {
		h.fail(s, t, segment.ErrCodeNotLoggedIn, "log in first")
		return
	}
	switch t {
	case segment.CatalogReq, segment.ListReq, segment.Chat, segment.Bye, segment.HistoryReq, segment.ReplayReq:
	default:
		if s.state == Responding {
			// a reference invitation this client did not answer: going on
			// with tables refuses it, so neither side waits on the other
			h.respond(now, s, segment.Code(segment.InvitResponse, segment.CodeRefused))
		}
		// a reference invitation sent or a match in progress owns the
		// session's state: a table operation now would leave its peer dangling
		if s.state != ServerStandBy && s.state != AtTable {
			h.fail(s, t, segment.ErrCodeAtTable, "busy with an invitation or a match")
			return
		}
	}
	switch t {
	case segment.CatalogReq:
		h.catalogue(s)
	case segment.ListReq:
		h.list(s)
	case segment.Create:
		h.create(now, s, body)
	case segment.Join:
		h.join(now, s, body)
	case segment.Watch:
		h.watchTable(now, s, body)
	case segment.Leave:
		if s.table == nil {
			h.fail(s, t, segment.ErrCodeNotAtTable, "not at a table")
			return
		}
		h.leaveTable(now, s, false)
	case segment.Invite:
		h.inviteToTable(s, body)
	case segment.Ready:
		h.ready_(now, s)
	case segment.Move:
		h.moveMsg(now, s, body)
	case segment.MoveText:
		h.moveText(now, s, body)
	case segment.ViewReq:
		if s.table == nil || s.table.game == nil {
			h.fail(s, t, segment.ErrCodeGameOver, "no game to view")
			return
		}
		h.sendView(s, s.table)
		if t := s.table; t.clock != nil && t.phase == phasePlaying && s.has(segment.FeatureClocks) {
			h.sendClocks(now, t) // clocks are part of what a player sees
		}
	case segment.Offer:
		h.offerMsg(now, s, body)
	case segment.Resign:
		h.resign(now, s)
	case segment.Chat:
		h.chat(now, s, body)
	case segment.Bot:
		h.botMsg(now, s, body)
	case segment.Resume:
		h.resume(now, s, body)
	case segment.Bye:
		s.x.bye = true
	case segment.Seek:
		h.seek(now, s, body)
	case segment.HistoryReq:
		h.historyReq(s, body)
	case segment.ReplayReq:
		h.replayReq(s, body)
	case segment.Account:
		h.account(now, s, body)
	case segment.HintReq:
		h.hintReq(s, body)
	default:
		// a server-to-client type sent by a client
		h.fail(s, t, segment.ErrCodeBadRequest, "not a request")
	}
}

// ping answers a Ping with a Pong carrying its nonce: the client learns
// the hub (and, in a cluster, the node and the log between) still works.
func (h *Hub) ping(s *session, body []byte) {
	m, err := segment.DecodePingMsg(body)
	switch {
	case !s.has(segment.FeaturePing):
		h.fail(s, segment.Ping, segment.ErrCodeBadRequest, "Ping needs feature 64")
	case err != nil:
		h.fail(s, segment.Ping, segment.ErrCodeBadRequest, "malformed Ping")
	default:
		h.sendMsg(s, segment.Pong, segment.PongBody(m).Append(h.body()))
	}
}

// catalogue sends every game with its seats and options (and, to a client
// that asked for them, its title and the offers the hub allows), then Ack.
func (h *Hub) catalogue(s *session) {
	for _, e := range h.catalog {
		g := segment.GameInfoBody{Name: e.Spec.Name, Min: uint8(e.Spec.MinPlayers), Max: uint8(e.Spec.MaxPlayers)}
		for _, o := range e.Spec.Options {
			g.Options = append(g.Options, segment.OptionInfo{Key: o.Key, Kind: uint8(o.Kind), Default: o.Default, Min: int32(o.Min), Max: int32(o.Max), Choices: o.Choices, Doc: o.Doc})
		}
		if s.has(segment.FeatureGameFacts) {
			g.Facts = &segment.GameFacts{Title: e.Spec.Title}
			if e.Spec.Takeback {
				g.Facts.Flags |= segment.GameTakeback
			}
			if e.Spec.Draws {
				g.Facts.Flags |= segment.GameDraws
			}
		}
		body, err := g.Encode(h.body())
		if err != nil {
			// a game whose description does not fit is a bug of this build,
			// not of the client: leave it out rather than send it empty
			h.stats.ExtErrors++
			continue
		}
		h.sendMsg(s, segment.GameInfo, body)
	}
	h.sendMsg(s, segment.Ack, segment.AckBody{Req: segment.CatalogReq}.Append(h.body()))
}

// features an extended session asked for and the hub offers.
func (s *session) has(f uint32) bool { return s.x != nil && s.x.features&f != 0 }
