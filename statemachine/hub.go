// Package statemachine is Bomber's server logic as a pure, deterministic
// state machine: the per-user states of seed 003 and the hub that owns every
// session, invitation and match.
//
// It does no I/O, starts no goroutines and reads no clock. The daemon's shell
// feeds it events (a connection opened or closed, a segment received, an
// account check answered, the clock ticked), each stamped with the shell's
// time, then collects what the hub wants done with Ready (segments to send,
// connections to close, account checks to run, finished games to record) and
// acknowledges with Advance — the Step/Ready pattern of etcd-io/raft. The same
// events always produce the same outputs, so captured sessions replay exactly.
package statemachine

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/segment"
)

// ConnID names a connection; the shell chooses it and never reuses one.
type ConnID uint64

// State is a session's state, numbered as in seed 003's table.
type State uint8

// The seven server states of seed 003, plus Kicked for a session whose user
// logged in elsewhere (its connection waits out a grace period, then closes).
const (
	Accept                 State = 0 // connected, no user name accepted yet
	WaitForPassword        State = 1 // user name exists, waiting for the password
	ServerStandBy          State = 2 // logged in, in the lobby
	WaitInvitationResponse State = 3 // invited someone, waiting for the answer
	Responding             State = 4 // invited by someone, answering
	Draw                   State = 5 // paired, placing planes
	Game                   State = 6 // both boards placed, guessing
	Kicked                 State = 7 // replaced by a newer login; ignored until closed
	AtTable                State = 8 // extended protocol: sits or watches at a table
)

// NumStates is the number of states: State values are below it.
const NumStates = int(AtTable) + 1

var stateNames = [NumStates]string{"Accept", "WaitForPassword", "ServerStandBy", "WaitInvitationResponse", "Responding", "Draw", "Game", "Kicked", "AtTable"}

func (s State) String() string {
	if int(s) < len(stateNames) {
		return stateNames[s]
	}
	return fmt.Sprintf("State(%d)", s)
}

// LoggedIn reports whether a session in state s counts as an online user.
func (s State) LoggedIn() bool { return s >= ServerStandBy && s <= Game || s == AtTable }

// First says who guesses first in a new game.
type First uint8

// Who guesses first.
const (
	Inviter First = iota // as the reference client plays (the default)
	Invitee              // as seed 003's text says
)

// Config is the hub's behaviour that operators choose.
type Config struct {
	Dialect Dialect // reply-code table; Reference by default
	First   First   // who guesses first; Inviter by default
	// KickGrace is how long a kicked session's connection stays open before
	// the hub closes it (the reference client reconnects at once if the
	// server closes first, and would kick the new session back). 0 means 5m.
	KickGrace time.Duration
	// LoginTimeout closes a connection that has not logged in within this
	// long after opening; 0 disables it.
	LoginTimeout time.Duration
	// HideUnknownUsers answers every user name as existing and fails at the
	// password, so nobody can probe which accounts exist.
	HideUnknownUsers bool
	// LoginFailures failed logins (unknown user or wrong password) within
	// LoginWindow from one source address, or for one user name from one
	// address, lock that address (or that name from that address) out for
	// LoginLockout: its logins are answered with code 4 without asking the
	// store. As many failures for one name from anywhere put the name under
	// attack for LoginLockout: its passwords are then checked one at a
	// time, LoginWindow/LoginFailures apart, and only from addresses that
	// have not failed; an address the name logged in from within the last
	// seven days is checked at once still. So nobody can lock a user out of
	// an address they have logged in from, and guessing from many addresses
	// stays slow. Names that do not exist are counted like names that do.
	// 0 disables it.
	LoginFailures int
	LoginWindow   time.Duration
	LoginLockout  time.Duration
	// SegmentRate is how many segments per second one connection may send
	// on average, SegmentBurst how many at once; a connection that sends
	// faster is closed. 0 disables it.
	SegmentRate  int
	SegmentBurst int

	// Games the extended protocol offers, in catalogue order (none: tables
	// are off and only reference Bomber is played).
	Games []GameEntry `json:"-"`
	// Casts has the hub hand presence (user lists, online and offline
	// notices) to the shell as Ready.Casts for it to fan out, instead of
	// one Send per online user. The shell sets it (the daemon always
	// does); it is not an operator's setting and is not in a snapshot.
	Casts bool `json:"-"`
	// MaxTables bounds the tables open at once; MaxTablesPerUser the open
	// tables one user created. 0 means the defaults (10,000 and 3).
	MaxTables        int
	MaxTablesPerUser int
	// MaxWatchers bounds the watchers of one table; 0 means 100.
	MaxWatchers int
	// ChatRate is how many chat lines per second a connection may send on
	// average, ChatBurst how many at once; lines beyond are answered with
	// an error and dropped. 0 means 1 per second with a burst of 5.
	ChatRate  int
	ChatBurst int
	// OfferTTL is how long a draw, rematch or takeback offer, and a
	// reference invitation, stands; 0 means 30s.
	OfferTTL time.Duration
	// ResumeGrace is how long a seat is held for a player whose connection
	// dropped; ResumeGraceBye the same after the client said Bye. 0 means
	// 60s and 10s.
	ResumeGrace    time.Duration
	ResumeGraceBye time.Duration
	// SignUpClosed refuses every sign-up (accounts.registration: closed).
	// SignUpsPerAddress bounds the sign-ups an hour from one source address
	// and SignUpsPerHour those from everyone together, made or refused (a
	// twelfth of it at once at most); past either, a SignUp is answered
	// RateLimited without asking the store. The hub keeps these counts, so
	// a cluster's limits are the whole world's, not each node's. 0 means
	// DefaultSignUpsPerAddress and DefaultSignUpsPerHour.
	SignUpClosed      bool
	SignUpsPerAddress int
	SignUpsPerHour    int
	// Quick pairing (pairing.go): a pairing round runs every PairRound
	// while someone waits; a player accepts opponents within PairRange
	// rating points at first (twice that with a provisional rating),
	// PairWiden more per second of waiting, at most PairRangeCap; after
	// PairComputerAfter a computer opponent is offered too. 0 means the
	// defaults (1s, 100, 10, 500, 20s).
	PairRound         time.Duration
	PairRange         int
	PairWiden         int
	PairRangeCap      int
	PairComputerAfter time.Duration
}

// Defaults for the table limits.
const (
	DefaultMaxTables        = 10000
	DefaultMaxTablesPerUser = 3
	DefaultMaxWatchers      = 100
	DefaultChatRate         = 1
	DefaultChatBurst        = 5
	DefaultOfferTTL         = 30 * time.Second
	DefaultResumeGrace      = 60 * time.Second
	DefaultResumeGraceBye   = 10 * time.Second
)

// withDefaults fills the zero limits.
func (c Config) withDefaults() Config {
	orDefault(&c.KickGrace, DefaultKickGrace)
	orDefault(&c.MaxTables, DefaultMaxTables)
	orDefault(&c.MaxTablesPerUser, DefaultMaxTablesPerUser)
	orDefault(&c.MaxWatchers, DefaultMaxWatchers)
	orDefault(&c.ChatRate, DefaultChatRate)
	orDefault(&c.ChatBurst, DefaultChatBurst)
	orDefault(&c.OfferTTL, DefaultOfferTTL)
	orDefault(&c.ResumeGrace, DefaultResumeGrace)
	orDefault(&c.ResumeGraceBye, DefaultResumeGraceBye)
	orDefault(&c.PairRound, DefaultPairRound)
	orDefault(&c.PairRange, DefaultPairRange)
	orDefault(&c.PairWiden, DefaultPairWiden)
	orDefault(&c.PairRangeCap, DefaultPairRangeCap)
	orDefault(&c.PairComputerAfter, DefaultPairComputerAfter)
	return c
}

// orDefault sets *v to def when it is zero or negative (unset).
func orDefault[T int | time.Duration](v *T, def T) {
	if *v <= 0 {
		*v = def
	}
}

// DefaultKickGrace is the grace period before a kicked connection is closed.
const DefaultKickGrace = 5 * time.Minute

// pendingMax bounds the segments a session may send while an account check
// is in flight; they wait in order and run when the answer arrives.
const pendingMax = 4

type session struct {
	conn   ConnID
	name   string // the user name once Info was accepted
	opened int64
	check  uint64 // id of the account check in flight, 0 for none
	// queue holds what arrived while a check was in flight; allocated then
	// and given back once drained, so an idle session does not carry it
	// (pointer-sized fields first, small ones last: 112 bytes, not 288)
	queue  *[pendingMax]segment.Segment
	peer   *session // inviter or invitee while inviting, responding
	table  *table   // the table s sits or watches at
	source string
	credit int64       // rate limit: nanoseconds of allowance saved up
	last   int64       // rate limit: time of the last segment
	x      *extSession // extended-protocol state; nil for reference clients
	state  State
	queued uint8
	seat   rules.Player // its seat there, or rules.Spectator when watching
	orphan bool         // Responding to an inviter that has gone
	closed bool         // removed from the hub
	spoke  bool         // a segment has been handled (Hello must come first)
}

// Hub owns all sessions, invitations and matches.
type Hub struct {
	cfg         Config
	sessions    map[ConnID]*session
	users       map[string]*session // logged-in (and Kicked-free) sessions by user name
	online      []*session          // logged-in sessions in login order
	checkSeq    uint64
	checks      map[uint64]*session
	timers      timerQueue
	kicks       timerQueue
	ready       Ready
	stats       Stats
	failures    map[string]*failures // login throttling by address, address and name, and name (limits.go)
	held        []heldCheck          // password checks held back by throttling (limits.go)
	sweepAt     int64
	steps       []rules.Step // reused by every Play
	tables      map[uint32]*table
	tableSeq    uint32
	refSeq      uint32            // reference matches opened (refTableBase numbers them)
	codes       map[string]*table // private tables by join code
	games       map[string]*GameEntry
	catalog     []*GameEntry
	scratch     []byte            // message bodies being built
	segs        []segment.Segment // a message cut into segments
	relay       []segment.Segment // a move's Moved and steps, cut once for all its recipients (afterMove)
	relayEnds   []int             // where each of them ends in relay
	offerTimers timerQueue        // offer expiries, by table id
	awayTimers  [2]timerQueue     // seats held for their players (table id<<8 | seat), without and after Bye
	clockTables []uint32          // tables with a time control
	seekers     []*seeker         // quick pairing: the pools' players in the order they came (pairing.go)
	pairAt      int64             // the next pairing round, while anyone waits
	toMove      []rules.Player    // reused by ToMove
	legal       []rules.Move      // reused by Legal (legal.go)
	// rng draws join codes, reference matches' seeds, who sits first when
	// pairing, and each table's own generator as it opens (which draws its
	// games' seeds and its seats' resume tokens): seeded by InSeed inputs
	// (all zeros before the first), so randomness is data in the log and a
	// replay draws the same bytes.
	rng *rand.ChaCha8
	// generation is the Generation the world goes by (the last settings
	// applied named it); a hub made by New starts at this build's.
	generation uint32
}

// New returns an empty hub.
func New(cfg Config) *Hub {
	cfg = cfg.withDefaults()
	h := &Hub{
		cfg:      cfg,
		sessions: make(map[ConnID]*session),
		users:    make(map[string]*session),
		checks:   make(map[uint64]*session),
		failures: make(map[string]*failures),
		steps:    make([]rules.Step, 0, 64),
		tables:   make(map[uint32]*table),
		toMove:   make([]rules.Player, 0, 4),
		codes:    make(map[string]*table),
		rng:      rand.NewChaCha8([32]byte{}),
	}
	h.generation = Generation
	h.setGames(cfg.Games)
	return h
}

// setGames indexes the catalogue by name.
func (h *Hub) setGames(games []GameEntry) {
	h.games = make(map[string]*GameEntry, len(games))
	h.catalog = h.catalog[:0]
	for i := range games {
		e := &games[i]
		h.games[e.Spec.Name] = e
		h.catalog = append(h.catalog, e)
	}
}

// Config returns the hub's configuration.
func (h *Hub) Config() Config { return h.cfg }

// Online is the number of logged-in users.
func (h *Hub) Online() int { return len(h.online) }

// Connections is the number of connections the hub knows.
func (h *Hub) Connections() int { return len(h.sessions) }

// SessionInfo describes one connection for operators.
type SessionInfo struct {
	Conn     ConnID
	User     string // empty before login
	State    State
	Opponent string // the peer while inviting, responding, drawing or playing
}

// Sessions appends a description of every connection to buf, logged-in users
// first in login order.
func (h *Hub) Sessions(buf []SessionInfo) []SessionInfo {
	describe := func(s *session) SessionInfo {
		info := SessionInfo{Conn: s.conn, State: s.state}
		if s.state.LoggedIn() || s.state == Kicked {
			info.User = s.name
		}
		if s.peer != nil {
			info.Opponent = s.peer.name
		} else if t := s.table; t != nil && !t.ext() {
			info.Opponent = t.seats[1-s.seat].name
		}
		return info
	}
	for _, s := range h.online {
		buf = append(buf, describe(s))
	}
	for _, s := range h.sessions {
		if !s.state.LoggedIn() {
			buf = append(buf, describe(s))
		}
	}
	return buf
}

// CountStates reports how many connections are in each state. Unlike
// Sessions it allocates nothing and copies no name, so the daemon's
// metrics can be read often among tens of thousands of users without
// holding up the loop for milliseconds.
func (h *Hub) CountStates() (n [NumStates]int) {
	for _, s := range h.sessions {
		n[s.state]++
	}
	return n
}

// send queues seg for conn c.
func (h *Hub) send(s *session, seg segment.Segment) {
	h.ready.Sends = append(h.ready.Sends, Send{Conn: s.conn, Seg: seg})
	h.stats.SegmentsOut[seg.Type.Base()&127]++
}

// cast queues presence output for the shell to fan out.
func (h *Hub) cast(c Cast) {
	c.At = len(h.ready.Sends)
	h.ready.Casts = append(h.ready.Casts, c)
}

// notifyOnline sends seg to every online user but except (nil for none).
func (h *Hub) notifyOnline(seg segment.Segment, except *session) {
	if !h.cfg.Casts {
		for _, o := range h.online {
			if o != except {
				h.send(o, seg)
			}
		}
		return
	}
	n, c := len(h.online), ConnID(0)
	if except != nil {
		n, c = n-1, except.conn
	}
	h.stats.SegmentsOut[seg.Type.Base()&127] += uint64(n)
	h.cast(Cast{Kind: CastNotice, Seg: seg, Except: c})
}

func (h *Hub) reply(s *session, t segment.Type, r Reply) {
	h.send(s, segment.Code(t, h.cfg.Dialect.Code(r)))
}
