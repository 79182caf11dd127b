package ext

import (
	"errors"
	"fmt"
	"slices"

	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/rules/games"
	"github.com/bomber-game/bomber/segment"
)

// ErrState: the request makes no sense now (moving with no game, joining
// before logging in). Nothing was sent.
var ErrState = errors.New("not possible now")

// State is where the session is.
type State uint8

// Session states.
const (
	Offline   State = iota // no connection
	Greeting               // Hello sent, waiting for Welcome
	LoggingIn              // Info or Passwd sent, waiting for the answer
	NeedLogin              // connected, waiting for Login (no credentials yet or they were refused)
	Lobby                  // logged in
	Kicked                 // logged out by a newer login elsewhere
)

var stateNames = [...]string{"offline", "greeting", "logging in", "need login", "lobby", "kicked"}

func (s State) String() string {
	if int(s) < len(stateNames) {
		return stateNames[s]
	}
	return fmt.Sprintf("State(%d)", s)
}

// Seat numbers the Client reports besides 0..n-1.
const (
	NoSeat  = -2 // not at a table
	Watcher = -1 // watching
)

// ChatLine is one line of chat.
type ChatLine struct {
	Scope uint8
	From  string
	Text  string
}

// Game is the game at the client's table: the one running or the last one.
type Game struct {
	Spec    rules.Spec
	Seats   int
	Options rules.Options
	Moves   []segment.MovedBody // every move received, in order
	View    rules.View          // the last View the server sent
	End     *segment.GameEndBody
	// Earlier is how many moves were played before this client saw the
	// game (a watcher who came in the middle: the server sends it the
	// position, not those moves), from the first View's sequence number;
	// Moves are the ones after them.
	Earlier int
	viewed  bool
	steps   map[uint32][]segment.StepBody // what each move did, by its sequence number
	replica *Replica
	table   uint32
	stale   bool      // without a replica: a move arrived, its View not yet
	seq     uint32    // the latest update's sequence number (a move's or a View's)
	legal   legalList // our seat's legal moves, as the server listed them
}

// Steps is what the move with sequence number seq did, as the server told
// this client (an Aeroplane roll's face, a capture, ...), in order.
func (g *Game) Steps(seq uint32) []segment.StepBody { return g.steps[seq] }

// Played is how many moves the game has had: the earlier ones this client
// did not see and the ones it did.
func (g *Game) Played() int { return g.Earlier + len(g.Moves) }

// Stale reports whether a move arrived whose View has not (a client
// without a replica asks for one after every move).
func (g *Game) Stale() bool { return g.stale }

// Over reports whether the game has ended.
func (g *Game) Over() bool { return g.End != nil }

// Replica is the client's copy of the game, or nil (secret moves, or came
// in mid-game).
func (g *Game) Replica() *Replica { return g.replica }

// Current is the game as the client's seat sees it now.
func (g *Game) Current() rules.View {
	if g.replica != nil {
		return g.replica.Game().Observe(g.View.Viewer)
	}
	return g.View
}

// Client is one extended-protocol session's state. Use New.
type Client struct {
	state          State
	user, password string
	features       uint32
	asm            segment.Assembler
	specs          map[string]rules.Spec

	online      []string
	catalog     []segment.GameInfoBody
	listing     []segment.TableBody // tables arriving for a ListReq
	listPending int
	catalogNew  []segment.GameInfoBody
	offer       *segment.OfferBody
	tables      []segment.TableBody // the last complete list
	table       *segment.TableBody  // the table we sit or watch at
	seat        int
	game        *Game
	hints       hintState

	LobbyChat []ChatLine // lobby lines received, oldest first
	TableChat []ChatLine // table and watcher lines received
	Invites   []segment.InvitedBody

	token    *seatToken // the seat we hold, for Resume
	resuming bool       // Resume sent, the seat not back yet
	clock    *segment.ClockBody
	away     map[int]uint32
	seeking  *segment.SeekingBody // our seek while it waits (pairing.go)
	Errors   []segment.ErrorBody  // errors the server answered
	hist     history
}

// maxLog is how many lines each log keeps.
const maxLog = 200

// New returns an offline client that knows the games of rules/games.
func New() *Client {
	c := &Client{seat: NoSeat, specs: map[string]rules.Spec{}}
	for _, s := range games.All() {
		c.specs[s.Name] = s
	}
	return c
}

// State is the session state.
func (c *Client) State() State { return c.state }

// User is the user logged in (or logging in).
func (c *Client) User() string { return c.user }

// Online is the other users online (a copy).
func (c *Client) Online() []string { return slices.Clone(c.online) }

// Catalog is the server's games, as its catalogue answered.
func (c *Client) Catalog() []segment.GameInfoBody { return c.catalog }

// Tables is the last list of tables.
func (c *Client) Tables() []segment.TableBody { return c.tables }

// Table is the table we sit or watch at, or nil.
func (c *Client) Table() *segment.TableBody { return c.table }

// Seat is our seat: 0.., Watcher or NoSeat.
func (c *Client) Seat() int { return c.seat }

// Game is the current or last game at our table, or nil.
func (c *Client) Game() *Game { return c.game }

// Spec is the rules of a game by name.
func (c *Client) Spec(name string) (rules.Spec, bool) { s, ok := c.specs[name]; return s, ok }

// Facts is what the catalogue says of a game: its title and the offers it
// allows. From a server that did not send them (one older than
// FeatureGameFacts), they are the game's Spec as this client knows it; for
// a game it does not know, the title is the name and no offer is allowed.
func (c *Client) Facts(game string) segment.GameFacts {
	for _, g := range c.catalog {
		if g.Name == game && g.Facts != nil {
			return *g.Facts
		}
	}
	s, ok := c.specs[game]
	if !ok {
		return segment.GameFacts{Title: game}
	}
	f := segment.GameFacts{Title: s.Title}
	if s.Takeback {
		f.Flags |= segment.GameTakeback
	}
	if s.Draws {
		f.Flags |= segment.GameDraws
	}
	return f
}

// MyTurn reports whether our seat may move now.
func (c *Client) MyTurn() bool {
	g := c.game
	if g == nil || g.End != nil || c.seat < 0 || g.stale {
		return false
	}
	if c.features&segment.FeatureLegal != 0 {
		// the server lists a seat's moves whenever it is to move: our turn
		// begins when they are in, not at the move before (the replica
		// knows whose turn it is first), so there is always something to
		// offer the player
		l := &g.legal
		return l.whole && l.seq == g.seq && l.seat == c.seat
	}
	return slices.Contains(g.Current().ToMove, rules.Player(c.seat))
}

// Out is what one call produced: segments to write in one write, and
// events to show.
type Out struct {
	Send   []segment.Segment
	Events []Event
}

func (o *Out) msg(m segment.Message) { o.Send, _, _ = segment.Segments(o.Send, nil, m) }
func (o *Out) ev(e Event)            { o.Events = append(o.Events, e) }

// Connected starts a session on a new connection: Hello, then (on Welcome)
// the login with the credentials given to Login, if any.
func (c *Client) Connected() Out {
	var o Out
	c.reset()
	c.state = Greeting
	o.msg(segment.HelloMsg{Version: segment.ProtocolVersion, Features: Features})
	return o
}

// Disconnected records that the connection is gone.
func (c *Client) Disconnected() Out {
	var o Out
	if c.state != Kicked {
		c.state = Offline
	}
	c.reset()
	o.ev(Event{Kind: EvDisconnected})
	return o
}

func (c *Client) reset() {
	c.asm.Reset()
	c.online, c.listing, c.listPending, c.table, c.seat, c.offer = nil, nil, 0, nil, NoSeat, nil
	c.clock, c.away, c.resuming = nil, nil, false
	if c.game != nil && c.game.End == nil && c.token == nil {
		c.game = nil // the seat is gone with the connection
	}
}

// Login sets the credentials and logs in now if the connection waits for
// them (otherwise as soon as the server welcomes us).
func (c *Client) Login(user, password string) (Out, error) {
	var o Out
	if user == "" || len(user) > segment.MaxPayload || len(password) > segment.MaxPayload {
		return o, fmt.Errorf("%w: a user name of 1..29 bytes and a password of 0..29", ErrState)
	}
	c.user, c.password = user, password
	if c.state == NeedLogin {
		c.state = LoggingIn
		o.Send = append(o.Send, segment.Name(segment.Info, user))
	}
	return o, nil
}

func (c *Client) lobby() error {
	if c.state != Lobby {
		return fmt.Errorf("%w: log in first", ErrState)
	}
	return nil
}

func (c *Client) request(m segment.Message) (Out, error) {
	var o Out
	if err := c.lobby(); err != nil {
		return o, err
	}
	var err error
	o.Send, _, err = segment.Segments(nil, nil, m)
	return o, err
}

// RequestCatalog asks for the catalogue.
func (c *Client) RequestCatalog() (Out, error) {
	return c.request(segment.EmptyMsg{T: segment.CatalogReq})
}

// RequestList asks for the list of tables.
func (c *Client) RequestList() (Out, error) {
	o, err := c.request(segment.EmptyMsg{T: segment.ListReq})
	if err == nil {
		c.listPending++
	}
	return o, err
}

// Create asks for a table of game with seats seats, flags (FlagPrivate,
// watch policy) and options.
func (c *Client) Create(game string, seats int, flags uint8, opts []segment.KV) (Out, error) {
	if seats < 1 || seats > 255 {
		return Out{}, fmt.Errorf("%w: %d seats", ErrState, seats)
	}
	return c.request(segment.CreateMsg{Game: game, Seats: uint8(seats), Flags: flags, Options: opts})
}

// Join asks for seat (segment.SeatAny: any) at table id, with a join code
// for a private table.
func (c *Client) Join(id uint32, seat uint8, code string) (Out, error) {
	return c.request(segment.JoinMsg{Table: id, Seat: seat, Code: code})
}

// Watch asks to watch table id.
func (c *Client) Watch(id uint32, code string) (Out, error) {
	return c.request(segment.WatchMsg{Table: id, Code: code})
}

// Leave leaves our table (resigning a running game).
func (c *Client) Leave() (Out, error) {
	if c.table == nil {
		return Out{}, fmt.Errorf("%w: not at a table", ErrState)
	}
	return c.request(segment.EmptyMsg{T: segment.Leave})
}

// Invite invites a user to our table.
func (c *Client) Invite(user string) (Out, error) {
	return c.request(segment.InviteMsg{User: user})
}

func (c *Client) seated() error {
	if c.table == nil || c.seat < 0 {
		return fmt.Errorf("%w: take a seat first", ErrState)
	}
	return nil
}

// Ready says our seat is ready to start.
func (c *Client) Ready() (Out, error) {
	if err := c.seated(); err != nil {
		return Out{}, err
	}
	return c.request(segment.EmptyMsg{T: segment.Ready})
}

func (c *Client) playing() error {
	if err := c.seated(); err != nil {
		return err
	}
	if c.game == nil || c.game.End != nil {
		return fmt.Errorf("%w: no game is running", ErrState)
	}
	return nil
}

// Move sends a move in binary.
func (c *Client) Move(m rules.Move) (Out, error) {
	if err := c.playing(); err != nil {
		return Out{}, err
	}
	return c.request(segment.MoveMsg{Kind: m.Kind, Len: m.Len, Arg: m.Arg})
}

// MoveText sends a move in the game's notation.
func (c *Client) MoveText(notation string) (Out, error) {
	if err := c.playing(); err != nil {
		return Out{}, err
	}
	return c.request(segment.MoveTextMsg{Notation: notation})
}

// Offer proposes (OfferPropose) or answers an offer of what.
func (c *Client) Offer(what, answer uint8) (Out, error) {
	if err := c.seated(); err != nil {
		return Out{}, err
	}
	return c.request(segment.OfferMsg{What: what, Answer: answer})
}

// Resign gives the game up.
func (c *Client) Resign() (Out, error) {
	if err := c.playing(); err != nil {
		return Out{}, err
	}
	return c.request(segment.EmptyMsg{T: segment.Resign})
}

// RequestView asks for a fresh View.
func (c *Client) RequestView() (Out, error) {
	if c.table == nil {
		return Out{}, fmt.Errorf("%w: not at a table", ErrState)
	}
	return c.request(segment.EmptyMsg{T: segment.ViewReq})
}

// Chat says text to scope (ScopeLobby, ScopeTable, ScopeWatchers).
func (c *Client) Chat(scope uint8, text string) (Out, error) {
	if text == "" {
		return Out{}, fmt.Errorf("%w: nothing to say", ErrState)
	}
	return c.request(segment.ChatBody{Scope: scope, Text: text})
}

func logAppend[T any](s []T, v T) []T {
	s = append(s, v)
	if len(s) > maxLog {
		s = slices.Delete(s, 0, len(s)-maxLog)
	}
	return s
}
