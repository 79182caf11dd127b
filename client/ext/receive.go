package ext

import (
	"fmt"
	"slices"

	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/segment"
)

// EventKind says what happened.
type EventKind uint8

// Events.
const (
	EvDisconnected EventKind = iota // the connection is gone
	EvWelcome                       // the server speaks the extended protocol
	EvLoggedIn                      // the login succeeded
	EvLoginRefused                  // no such user or a wrong password: Login again
	EvKicked                        // a newer login elsewhere logged this one out
	EvOnline                        // the online users changed
	EvCatalog                       // the catalogue is complete
	EvTables                        // the list of tables is complete
	EvJoined                        // we sit (Seat ≥ 0) or watch (Watcher) at Table
	EvLeft                          // we are no longer at a table
	EvTable                         // our table changed (seats, ready flags, phase)
	EvStarted                       // a game started at our table
	EvMoved                         // a move was played (Move)
	EvView                          // a View arrived
	EvGameEnd                       // the game ended (End)
	EvOffer                         // an offer was made or settled (Offer)
	EvChat                          // a chat line (Chat)
	EvInvited                       // someone invited us (Invite), or to a reference duel we refused (Text)
	EvError                         // the server refused a request (Err)
	EvProtocol                      // the server broke the framing (Text); the caller should reconnect
	EvBadBody                       // a message body could not be read (Text); it was skipped
)

// Event is one thing to show.
type Event struct {
	Kind   EventKind
	Text   string // a line for people
	Table  uint32
	Seat   int
	Move   segment.MovedBody
	Offer  segment.OfferBody
	End    segment.GameEndBody
	Chat   ChatLine
	Invite segment.InvitedBody
	Err    segment.ErrorBody
}

// Standing is the offer standing at our table, or nil.
func (c *Client) Standing() *segment.OfferBody { return c.offer }

// Receive takes one segment from the server.
func (c *Client) Receive(s segment.Segment) Out {
	var o Out
	t, body, done, err := c.asm.Add(s)
	if err != nil {
		o.ev(Event{Kind: EvProtocol, Text: err.Error()})
		return o
	}
	if !done {
		return o
	}
	if err := c.handle(&o, t, body); err != nil {
		// one bad body (a server bug) is skipped: the framing is intact
		o.ev(Event{Kind: EvBadBody, Text: fmt.Sprintf("%v: %v", t, err)})
	}
	return o
}

// handle applies one whole message from the server. Each concern takes the
// types it knows and reports whether t was one of them: the login and who is
// online (the reference segments), the lobby, the game at our table, and
// the seats (seats.go). A body that does not decode is the error.
func (c *Client) handle(o *Out, t segment.Type, body []byte) error {
	if done, err := c.handleLogin(o, t, body); done {
		return err
	}
	if done, err := c.handleHistory(o, t, body); done {
		return err
	}
	if done, err := c.handleHints(o, t, body); done {
		return err
	}
	if done, err := c.handleLegal(o, t, body); done {
		return err
	}
	if done, err := c.handleLobby(o, t, body); done {
		return err
	}
	if done, err := c.handleGame(o, t, body); done {
		return err
	}
	if done, err := c.handlePairing(o, t, body); done {
		return err
	}
	_, err := c.handleSeats(o, t, body)
	return err
}

// decoded decodes body with decode and hands the message to f.
func decoded[M any](body []byte, decode func([]byte) (M, error), f func(M)) error {
	m, err := decode(body)
	if err != nil {
		return err
	}
	f(m)
	return nil
}

// handleLogin takes Welcome, the login's answers and the online users.
func (c *Client) handleLogin(o *Out, t segment.Type, body []byte) (bool, error) {
	switch t {
	case segment.Welcome:
		return true, decoded(body, segment.DecodeWelcomeBody, func(w segment.WelcomeBody) { c.welcome(o, w) })
	case segment.InfoResp:
		if len(body) == 1 && body[0] == segment.CodeOK {
			o.Send = append(o.Send, segment.Name(segment.Passwd, c.password))
			break
		}
		c.state = NeedLogin
		o.ev(Event{Kind: EvLoginRefused, Text: "no such user: " + c.user})
	case segment.PasswdResp:
		if len(body) == 1 && body[0] == segment.CodeOK {
			c.loggedIn(o)
			break
		}
		c.state = NeedLogin
		o.ev(Event{Kind: EvLoginRefused, Text: "wrong password for " + c.user})
	case segment.Refuse:
		if len(body) == 1 && body[0] == segment.CodeError {
			c.state = Kicked
			o.ev(Event{Kind: EvKicked, Text: "logged out: your account logged in elsewhere"})
		}
	case segment.SyncBegin, segment.NewOnline:
		if name := string(body); name != c.user && !slices.Contains(c.online, name) {
			c.online = append(c.online, name)
		}
		o.ev(Event{Kind: EvOnline})
	case segment.NewOffline:
		if i := slices.Index(c.online, string(body)); i >= 0 {
			c.online = slices.Delete(c.online, i, i+1)
		}
		o.ev(Event{Kind: EvOnline})
	case segment.RecvInvit:
		// a Bomber duel the reference client's way, which a client of
		// tables cannot play: refused at once, so the inviter is not left
		// waiting and the hub does not hold us as answering it
		o.Send = append(o.Send, segment.Code(segment.InvitResponse, segment.CodeRefused))
		o.ev(Event{Kind: EvInvited, Text: string(body) + " invited you to a Bomber duel, which this client cannot play: refused"})
	case segment.SyncEnd:
	default:
		return false, nil
	}
	return true, nil
}

func (c *Client) welcome(o *Out, w segment.WelcomeBody) {
	c.features = w.Features
	o.ev(Event{Kind: EvWelcome, Text: "connected"})
	if c.user != "" {
		c.state = LoggingIn
		o.Send = append(o.Send, segment.Name(segment.Info, c.user))
	} else {
		c.state = NeedLogin
	}
}

// loggedIn asks for the catalogue and the tables, and for our seat back
// when we hold a resume token.
func (c *Client) loggedIn(o *Out) {
	c.state = Lobby
	o.ev(Event{Kind: EvLoggedIn, Text: "logged in as " + c.user})
	o.msg(segment.EmptyMsg{T: segment.CatalogReq})
	o.msg(segment.EmptyMsg{T: segment.ListReq})
	c.listPending++
	if c.token != nil {
		c.resume(o)
	}
}

// handleLobby takes the catalogue, the tables, chat, invitations and the
// server's refusals.
func (c *Client) handleLobby(o *Out, t segment.Type, body []byte) (bool, error) {
	var err error
	switch t {
	case segment.GameInfo:
		err = decoded(body, segment.DecodeGameInfoBody, func(g segment.GameInfoBody) { c.catalogNew = append(c.catalogNew, g) })
	case segment.TableInfo:
		err = decoded(body, segment.DecodeTableBody, func(tb segment.TableBody) { c.tableInfo(o, tb) })
	case segment.Ack:
		err = decoded(body, segment.DecodeAckBody, func(a segment.AckBody) { c.ack(o, a) })
	case segment.ChatMsg:
		err = decoded(body, segment.DecodeChatMsgBody, func(m segment.ChatMsgBody) { c.chat(o, m) })
	case segment.Invited:
		err = decoded(body, segment.DecodeInvitedBody, func(m segment.InvitedBody) {
			c.Invites = logAppend(c.Invites, m)
			o.ev(Event{Kind: EvInvited, Invite: m, Table: m.Table,
				Text: fmt.Sprintf("%s invites you to table %d (%s)", m.From, m.Table, m.Game)})
		})
	case segment.ErrorMsg:
		err = decoded(body, segment.DecodeErrorBody, func(e segment.ErrorBody) { c.refused(o, e) })
	default:
		return false, nil
	}
	return true, err
}

// ack completes the catalogue or the list of tables.
func (c *Client) ack(o *Out, a segment.AckBody) {
	switch a.Req {
	case segment.CatalogReq:
		c.catalog, c.catalogNew = c.catalogNew, nil
		o.ev(Event{Kind: EvCatalog})
	case segment.ListReq:
		c.tables, c.listing = c.listing, nil
		c.listPending = max(0, c.listPending-1)
		o.ev(Event{Kind: EvTables})
	}
}

func (c *Client) chat(o *Out, m segment.ChatMsgBody) {
	line := ChatLine{Scope: m.Scope, From: m.From, Text: m.Text}
	if m.Scope == segment.ScopeLobby {
		c.LobbyChat = logAppend(c.LobbyChat, line)
	} else {
		c.TableChat = logAppend(c.TableChat, line)
	}
	o.ev(Event{Kind: EvChat, Chat: line})
}

// refused reports an Error; a refused Resume gives the seat up.
func (c *Client) refused(o *Out, e segment.ErrorBody) {
	c.Errors = logAppend(c.Errors, e)
	if e.Req == segment.Resume {
		c.token, c.resuming, c.game = nil, false, nil
		e.Text = "could not take the seat back: " + e.Text
	}
	o.ev(Event{Kind: EvError, Err: e, Text: e.Text})
}

// handleGame takes what happens at our table: joining and leaving, the
// game's start, moves, steps, views, offers and its end.
func (c *Client) handleGame(o *Out, t segment.Type, body []byte) (bool, error) {
	var err error
	switch t {
	case segment.Joined:
		err = decoded(body, segment.DecodeJoinedBody, func(j segment.JoinedBody) { c.joined(o, j) })
	case segment.Started:
		err = decoded(body, segment.DecodeStartedBody, func(st segment.StartedBody) { c.started(o, st) })
	case segment.ViewMsg:
		err = decoded(body, segment.DecodeViewBody, func(v segment.ViewBody) { c.view(o, v) })
	case segment.Moved:
		err = decoded(body, segment.DecodeMovedBody, func(m segment.MovedBody) { c.moved(o, m) })
	case segment.StepMsg:
		err = decoded(body, segment.DecodeStepBody, func(st segment.StepBody) {
			if g := c.game; g != nil {
				if g.steps == nil {
					g.steps = map[uint32][]segment.StepBody{}
				}
				g.steps[st.Seq] = append(g.steps[st.Seq], st)
			}
			if g := c.game; g != nil && g.replica != nil {
				if err := g.replica.Step(st); err != nil {
					c.dropReplica(o, err)
				}
			}
		})
	case segment.Commit:
		if g := c.game; g != nil && g.replica == nil && g.End == nil {
			g.stale = true
			o.msg(segment.EmptyMsg{T: segment.ViewReq})
		}
	case segment.GameEnd:
		err = decoded(body, segment.DecodeGameEndBody, func(e segment.GameEndBody) {
			c.offer = nil
			if c.game != nil {
				c.game.End = &e
			}
			o.ev(Event{Kind: EvGameEnd, End: e, Text: c.endText(e)})
		})
	case segment.Offer:
		err = decoded(body, segment.DecodeOfferBody, func(of segment.OfferBody) {
			c.offer = nil
			if of.State == segment.OfferProposed {
				c.offer = &of
			}
			o.ev(Event{Kind: EvOffer, Offer: of, Text: c.offerText(of)})
		})
	default:
		return false, nil
	}
	return true, err
}

func (c *Client) tableInfo(o *Out, tb segment.TableBody) {
	if c.listPending > 0 {
		c.listing = append(c.listing, tb)
	}
	for i := range c.tables {
		if c.tables[i].ID == tb.ID {
			c.tables[i] = tb
		}
	}
	if c.table != nil && c.table.ID == tb.ID {
		c.table = &tb
		o.ev(Event{Kind: EvTable, Table: tb.ID})
	}
}

func (c *Client) joined(o *Out, j segment.JoinedBody) {
	if j.Table == 0 {
		c.table, c.seat, c.offer, c.token, c.clock, c.away = nil, NoSeat, nil, nil, nil, nil
		o.ev(Event{Kind: EvLeft, Text: "you left the table"})
		return
	}
	c.table = &segment.TableBody{ID: j.Table}
	c.seat = Watcher
	if j.Seat != segment.SeatWatcher {
		c.seat = int(j.Seat)
	}
	if !c.resuming || c.game == nil || c.game.table != j.Table {
		c.game, c.TableChat = nil, nil
	}
	c.offer = nil
	text := fmt.Sprintf("you sit at table %d, seat %d", j.Table, c.seat+1)
	if c.seat == Watcher {
		text = fmt.Sprintf("you watch table %d", j.Table)
	}
	o.ev(Event{Kind: EvJoined, Table: j.Table, Seat: c.seat, Text: text})
}

// options reads a table's option settings.
func options(kvs []segment.KV) rules.Options {
	opts := rules.Options{}
	for _, kv := range kvs {
		opts[kv.Key] = kv.Value
	}
	return opts
}

func (c *Client) started(o *Out, st segment.StartedBody) {
	if g := c.game; c.resuming && g != nil && g.End == nil && g.table == st.Table {
		return // the game we were playing: the moves we missed follow
	}
	g := &Game{Seats: int(st.Seats), table: st.Table}
	c.hints = hintState{asked: c.hints.asked} // the last game's hints are no answer in this one
	if c.table != nil {
		g.Options = options(gameOptions(c.table.Options))
		if spec, ok := c.specs[c.table.Game]; ok {
			g.Spec = spec
			if r, err := NewReplica(spec, g.Options, g.Seats); err == nil && !r.Secret() {
				g.replica = r
			}
		}
	}
	viewer := rules.Spectator
	if c.seat >= 0 {
		viewer = rules.Player(c.seat)
	}
	g.View.Viewer = viewer
	c.game, c.offer = g, nil
	o.ev(Event{Kind: EvStarted, Table: st.Table, Text: "the game starts"})
}

func (c *Client) view(o *Out, v segment.ViewBody) {
	g := c.game
	if g == nil {
		return
	}
	g.View = ViewOf(v)
	g.seq = v.Seq
	if !g.viewed {
		g.viewed = true
		g.Earlier = max(0, int(v.Seq)-len(g.Moves))
	}
	g.stale = false
	c.resuming = false
	if r := g.replica; r != nil && (r.Waiting() || !r.Matches(g.View)) {
		// a takeback undid the last move; anything else (a die never shown
		// after a resume) means the replica missed something and the Views
		// take over
		if n := len(r.Played()); n > 0 && !r.Waiting() && r.Rebuild(n-1) == nil && r.Matches(g.View) {
			g.Moves = g.Moves[:len(g.Moves)-1]
		} else {
			g.replica = nil
		}
	}
	o.ev(Event{Kind: EvView})
}

func (c *Client) moved(o *Out, m segment.MovedBody) {
	g := c.game
	if g == nil {
		return
	}
	c.offer = nil // any move withdraws an offer
	if g.End != nil {
		// a secret move revealed after the end, in its place
		i, _ := slices.BinarySearchFunc(g.Moves, m.Seq, func(x segment.MovedBody, s uint32) int { return int(x.Seq) - int(s) })
		g.Moves = slices.Insert(g.Moves, i, m)
		o.ev(Event{Kind: EvMoved, Move: m, Seat: int(m.Seat), Text: c.seatName(int(m.Seat)) + " played " + m.Notation})
		return
	}
	g.Moves = append(g.Moves, m)
	g.seq = m.Seq
	delete(g.steps, m.Seq) // its steps follow it (again, when a resume resends it)
	if g.replica != nil {
		if err := g.replica.Moved(m); err != nil {
			c.dropReplica(o, err)
		}
	} else {
		g.stale = true
		o.msg(segment.EmptyMsg{T: segment.ViewReq})
	}
	o.ev(Event{Kind: EvMoved, Move: m, Seat: int(m.Seat), Text: c.seatName(int(m.Seat)) + " played " + m.Notation})
}

func (c *Client) dropReplica(o *Out, err error) {
	c.game.replica, c.game.stale = nil, true
	o.msg(segment.EmptyMsg{T: segment.ViewReq})
	o.ev(Event{Kind: EvProtocol, Text: "local copy of the game dropped: " + err.Error()})
}

// SeatName is who sits at seat i of our table ("seat 2" when unknown).
func (c *Client) seatName(i int) string {
	if c.table != nil && i >= 0 && i < len(c.table.Seats) && c.table.Seats[i].Name != "" {
		return c.table.Seats[i].Name
	}
	if c.table != nil && i >= 0 && i < len(c.table.Seats) && c.table.Seats[i].Flags&segment.SeatBot != 0 {
		return fmt.Sprintf("computer %d", i+1)
	}
	return fmt.Sprintf("seat %d", i+1)
}

// SeatName is who sits at seat i of our table.
func (c *Client) SeatName(i int) string { return c.seatName(i) }

// OfferName names an offer kind.
func OfferName(what uint8) string {
	switch what {
	case segment.OfferDraw:
		return "draw"
	case segment.OfferRematch:
		return "rematch"
	case segment.OfferTakeback:
		return "takeback"
	}
	return fmt.Sprintf("offer %d", what)
}

func (c *Client) offerText(of segment.OfferBody) string {
	who := c.seatName(int(of.Seat))
	switch of.State {
	case segment.OfferProposed:
		return who + " offers a " + OfferName(of.What)
	case segment.OfferAgreed:
		return who + " agreed to the " + OfferName(of.What)
	case segment.OfferDeclined:
		return who + " declined the " + OfferName(of.What)
	case segment.OfferExpired:
		return "the " + OfferName(of.What) + " offer expired"
	}
	return "the " + OfferName(of.What) + " offer was withdrawn"
}

func (c *Client) endText(e segment.GameEndBody) string {
	switch e.Status {
	case segment.EndDrawn:
		return "game drawn: " + e.Reason
	case segment.EndNoResult:
		return "game over, no result: " + e.Reason
	}
	var names []string
	for _, w := range e.Winners {
		names = append(names, c.seatName(int(w)))
	}
	s := "game over: "
	for i, n := range names {
		if i > 0 {
			s += " and "
		}
		s += n
	}
	return s + " won (" + e.Reason + ")"
}
