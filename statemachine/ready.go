package statemachine

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/bomber-game/bomber/rules/record"
	"github.com/bomber-game/bomber/segment"
)

// Send is a segment for one connection.
type Send struct {
	Conn ConnID
	Seg  segment.Segment
}

// CheckKind is what an account check asks.
type CheckKind uint8

// Account checks.
const (
	Lookup   CheckKind = iota // does the user exist?
	Verify                    // is the password right?
	Register                  // sign-up: make the account User with Password
	// The kinds from Ratings on are queries (CheckKind.Query): a logged-in
	// session asks the store something and the shell answers with an
	// InReply whose Text is the store's data, in the form the kind's
	// comment gives (the hub acts on it in queries.go).
	Ratings // User's ratings: a line "game rating deviation games" per rated game (rounded)
	// History queries (history.go) answer with JSON: a list of
	// segment.RatingRowBody (Profile, RatingHist, Leaders) or
	// segment.GameRowBody (GamesPage); NotFound for an unknown user.
	Profile    // User's ratings, one row per game
	GamesPage  // User's games: Arg "page game" (game "" for all), HistPage rows, newest first
	RatingHist // User's rating history in game Arg ("" all), newest first
	Leaders    // game Arg's leaderboard, highest first
	// ReplayGame: Arg "id ply"; the reply is the ply asked, a newline, and
	// the stored record (record.Game) as JSON with its moves; NotFound for
	// a game the store does not hold.
	ReplayGame
	// Account care (accountcare.go): Password is the current password.
	// Found when done; WrongPassword, BadSignupPass, NotFound.
	ChangePassword // set User's password to Arg, by the sign-up rules
	DeleteAccount  // delete User's account; its recorded games name a placeholder
)

// Query reports whether k is a query (answered with an InReply).
func (k CheckKind) Query() bool { return k >= Ratings }

func (k CheckKind) String() string {
	if int(k) < len(checkKindNames) {
		return checkKindNames[k]
	}
	return fmt.Sprintf("CheckKind(%d)", k)
}

var checkKindNames = [...]string{"lookup", "verify", "register", "ratings",
	"profile", "games", "rating-history", "leaderboard", "replay", "password", "delete-account"}

// Check is an account question for the shell to answer off the hub's
// goroutine; it answers with Hub.Answer and the same ID.
type Check struct {
	ID       uint64
	Conn     ConnID
	Kind     CheckKind
	User     string
	Password string // Verify and Register
	Arg      string // a query's argument, as its kind says
}

// Answer is the result of a Check.
type Answer uint8

// Check answers.
const (
	Found         Answer = iota // Lookup: the user exists; Verify: the password is right
	NotFound                    // the user does not exist
	WrongPassword               // Verify: the password is wrong
	Unavailable                 // the account store could not answer
	// Register's own answers (statemachine/signup.go).
	Registered    // the account exists now
	NameTaken     // the name, or one that looks like it, has an account
	BadSignupName // the name breaks the sign-up rules
	BadSignupPass // the password breaks the sign-up rules
	SignupClosed  // the server takes no sign-ups
	SignupLimited // too many sign-ups lately, from the address or from everyone
)

func (a Answer) String() string {
	if int(a) < len(answerNames) {
		return answerNames[a]
	}
	return fmt.Sprintf("Answer(%d)", a)
}

var answerNames = [...]string{"found", "not found", "wrong password", "unavailable",
	"registered", "name taken", "bad name", "bad password", "sign-up closed", "sign-up limited"}

// CastKind says what a Cast does.
type CastKind uint8

// Casts: presence output for every online user at once (Config.Casts).
const (
	// CastNotice: Seg (NewOnline or NewOffline) to every member but Except.
	CastNotice CastKind = iota
	// CastJoin: Conn, user Name, is the last member now; it receives the
	// user list first (a SyncBegin with each other member's name, in order).
	CastJoin
	// CastReplace: Conn, user Name, takes the place of Old (a session of the
	// same user, kicked), which receives nothing more; Conn receives the
	// user list first (every member's name but its own, in order).
	CastReplace
	// CastLeave: Conn is a member no longer; what was cast before reaches it.
	CastLeave
)

// Cast is presence output the shell fans out itself, so that a login
// among N users costs the hub O(1) instead of 2N sends. The members are
// the online users in login order, a kicked user's new session in the old
// one's place; the shell keeps them from Join, Replace and Leave. Expanded
// where it happens (after Sends[:At]), every Cast gives each connection
// exactly the segments, in the same order, that the hub sends without
// Config.Casts.
type Cast struct {
	At     int // len(Sends) when it happened: it comes after Sends[:At] and before Sends[At:]
	Kind   CastKind
	Conn   ConnID          // Join, Replace, Leave: the member
	Old    ConnID          // Replace: the member replaced
	Except ConnID          // Notice: the member it skips (0 for none)
	Name   string          // Join, Replace: the user's name
	Seg    segment.Segment // Notice: the segment
}

// Ready is what the hub wants done after the events fed to it so far. Its
// slices belong to the hub and stay valid until Advance.
type Ready struct {
	Sends   []Send        // in order; segments for one connection must be written in this order
	Casts   []Cast        // presence for every online user, in order, each placed among Sends by At (Config.Casts)
	Closes  []ConnID      // close these after writing their pending sends
	Checks  []Check       // account checks to run
	Records []record.Game // games to record
	Bots    []BotRequest  // moves to ask computer players for
	Notices []Notice      // things an operator wants logged
}

// NoticeKind says what a Notice reports.
type NoticeKind uint8

// Notices.
const (
	NoticeThrottled     NoticeKind = iota // a login refused by throttling
	NoticeRateLimited                     // a connection closed for sending too fast
	NoticeSeatRefused                     // a seat change its life forbids, refused (a bug in the hub)
	NoticeSignUpLimited                   // a sign-up refused: too many lately from its address or from everyone
)

func (k NoticeKind) String() string {
	return [...]string{"login throttled", "segment rate exceeded", "impossible seat change refused", "sign-up rate exceeded"}[k]
}

// Notice is an event for the log.
type Notice struct {
	Kind   NoticeKind
	Conn   ConnID
	User   string // the user name involved, if any
	Source string // the connection's source address
	Detail string // what happened, where the kind alone does not say
}

// Empty reports whether there is nothing to do.
func (r *Ready) Empty() bool {
	return len(r.Sends) == 0 && len(r.Casts) == 0 && len(r.Closes) == 0 && len(r.Checks) == 0 && len(r.Records) == 0 && len(r.Notices) == 0 && len(r.Bots) == 0
}

// Ready returns the pending outputs.
func (h *Hub) Ready() *Ready { return &h.ready }

// keepSends is the Sends capacity Advance keeps for the next batch (enough
// for a login among ten thousand users); a larger one is given back, so one
// burst does not pin its memory for the life of the daemon.
const keepSends = 32 << 10

// Advance acknowledges that the outputs returned by Ready were handled.
func (h *Hub) Advance() {
	if cap(h.ready.Sends) > keepSends {
		h.ready.Sends = make([]Send, 0, keepSends)
	}
	h.ready.Sends = h.ready.Sends[:0]
	h.ready.Casts = h.ready.Casts[:0]
	h.ready.Closes = h.ready.Closes[:0]
	h.ready.Checks = h.ready.Checks[:0]
	h.ready.Records = h.ready.Records[:0]
	h.ready.Notices = h.ready.Notices[:0]
	clear(h.ready.Bots) // they hold game copies
	h.ready.Bots = h.ready.Bots[:0]
}

// Reply is the meaning of a one-byte reply code, independent of dialect.
type Reply uint8

// Replies the hub gives.
const (
	ReplyNoUser          Reply = iota // InfoResp: no such user; InvitResponse: invitee not online
	ReplyOK                           // InfoResp, PasswdResp OK; InvitResponse accepted
	ReplyRefused                      // InvitResponse: refused
	ReplyWrongPassword                // PasswdResp
	ReplyError                        // any response: something failed
	ReplyAlreadyLoggedIn              // Refuse to the session that kicked an older one
	ReplyBusy                         // InvitResponse: invitee busy
	ReplyKicked                       // Refuse to the session being kicked
)

// Dialect is a reply-code table.
type Dialect uint8

// Dialects.
const (
	// Reference is the table the reference client and server share (the default).
	Reference Dialect = iota
	// Document is seed 003's flag table, for clients built from the document.
	Document
)

var codeTables = [2][8]byte{
	Reference: {ReplyNoUser: 0, ReplyOK: 1, ReplyRefused: 2, ReplyWrongPassword: 3, ReplyError: 4, ReplyAlreadyLoggedIn: 5, ReplyBusy: 6, ReplyKicked: 4},
	Document:  {ReplyNoUser: 0, ReplyOK: 1, ReplyRefused: 2, ReplyWrongPassword: 0, ReplyError: 4, ReplyAlreadyLoggedIn: 1, ReplyBusy: 3, ReplyKicked: 4},
}

// Code is the byte the dialect uses for r.
func (d Dialect) Code(r Reply) byte { return codeTables[d][r] }

func (d Dialect) String() string {
	if d == Document {
		return "document"
	}
	return "reference"
}

// ParseDialect reads "reference" or "document".
func ParseDialect(s string) (Dialect, error) {
	switch s {
	case "reference", "":
		return Reference, nil
	case "document":
		return Document, nil
	}
	return Reference, fmt.Errorf("unknown dialect %q (want reference or document)", s)
}

// Stats are counters the shell exports as metrics.
type Stats struct {
	SegmentsIn    [128]uint64 // by base descriptor (a fragment counts as its message type)
	SegmentsOut   [128]uint64
	Ignored       uint64 // well-formed segments that meant nothing in their state
	LoginsOK      uint64
	LoginsFailed  uint64 // wrong password or unknown user
	LoginsError   uint64 // store unavailable
	Kicks         uint64
	GamesStarted  uint64
	GamesEnded    [len(record.Reasons)]uint64 // by record.Reason.Index
	Invitations   uint64
	BadBoards     uint64
	Throttled     uint64 // logins refused by throttling
	RateLimited   uint64 // connections closed for sending too fast
	MalformedShot uint64 // unreadable guesses taken as misses
	BadExtended   uint64 // connections closed for extended segments they may not send
	ExtErrors     uint64 // extended requests answered with an Error
	TablesCreated uint64
	Watches       uint64
	TableMoves    uint64 // moves accepted at extended tables
	ChatLines     uint64
	ChatFlood     uint64 // chat lines refused by the chat rate limit
	BotSeats      uint64 // seats given to the computer
	BotMoves      uint64 // computer players' moves played
	BotLate       uint64 // bot answers for a table that had moved on
	BotIllegal    uint64 // bot answers the rules refused (replaced by a legal move)
	SeatsHeld     uint64 // seats held for a player whose connection dropped
	HoldsExpired  uint64
	Resumes       uint64
	ClockExpiries uint64
	BadInputs     uint64       // inputs that could not apply (settings that do not parse, a reused connection id)
	SeatsRefused  uint64       // seat changes the seat's life forbids, refused (a bug in the hub)
	Pairing       PairingStats // last: a snapshot from before it restores with it at zero
}

// PairingStats are quick pairing's counters: seeks made, cancelled (asked
// for, or the player sat elsewhere), pairs made, computers offered and
// accepted, and how long paired players waited (buckets of PairWaitBounds
// seconds).
type PairingStats struct {
	Seeks          uint64
	SeeksCancelled uint64
	Pairings       uint64
	ComputerOffers uint64
	ComputerGames  uint64
	PairWaits      [len(pairWaitBounds) + 1]uint64
}

// Stats returns the hub's counters.
func (h *Hub) Stats() *Stats { return &h.stats }

// timerQueue is a min-heap of deadlines. Its deadlines come in any order:
// the durations behind them (login timeout, kick grace, offer TTL, resume
// grace) change with a configuration reload, so a deadline set after one
// may fall before those already waiting. Timers due at the same time leave
// in the order they were pushed, so the same inputs always fire them in
// the same order. Steady state allocates nothing: the slice keeps its
// capacity.
type timerQueue struct {
	items []timer
	seq   uint64 // pushes so far: the tie-break between equal deadlines
}

type timer struct {
	at   int64
	seq  uint64
	conn ConnID
}

// before orders timers by deadline, then by push.
func (a timer) before(b timer) bool { return a.at < b.at || a.at == b.at && a.seq < b.seq }

func (q *timerQueue) push(at int64, c ConnID) {
	q.seq++
	q.items = append(q.items, timer{at, q.seq, c})
	q.up(len(q.items) - 1)
}

// pop returns the next timer due at or before now.
func (q *timerQueue) pop(now int64) (ConnID, bool) {
	if len(q.items) == 0 || q.items[0].at > now {
		return 0, false
	}
	t := q.items[0]
	last := len(q.items) - 1
	q.items[0] = q.items[last]
	q.items = q.items[:last]
	q.down(0)
	return t.conn, true
}

// dropWhile takes the timers due at or before now off the front of q, in
// the order they fire, for as long as stale says they are.
func (q *timerQueue) dropWhile(now int64, stale func(ConnID) bool) {
	for len(q.items) > 0 && q.items[0].at <= now && stale(q.items[0].conn) {
		q.pop(now)
	}
}

// each calls f with every timer due at or before now, in no set order
// (the heap's, which every copy of the hub keeps alike).
func (q *timerQueue) each(now int64, f func(ConnID)) {
	var walk func(i int)
	walk = func(i int) {
		if i < len(q.items) && q.items[i].at <= now { // a timer's children are no earlier
			f(q.items[i].conn)
			walk(2*i + 1)
			walk(2*i + 2)
		}
	}
	walk(0)
}

// next is the earliest deadline, false for an empty queue.
func (q *timerQueue) next() (int64, bool) {
	if len(q.items) == 0 {
		return 0, false
	}
	return q.items[0].at, true
}

// sorted appends the timers to buf in the order they fire.
func (q *timerQueue) sorted(buf []timer) []timer {
	buf = append(buf, q.items...)
	slices.SortFunc(buf[len(buf)-len(q.items):], func(a, b timer) int {
		return cmp.Or(cmp.Compare(a.at, b.at), cmp.Compare(a.seq, b.seq))
	})
	return buf
}

// drop takes c's timers out of q.
func (q *timerQueue) drop(c ConnID) {
	kept := q.items[:0]
	for _, t := range q.items {
		if t.conn != c {
			kept = append(kept, t)
		}
	}
	if len(kept) == len(q.items) {
		return
	}
	q.items = kept
	for i := len(kept)/2 - 1; i >= 0; i-- {
		q.down(i)
	}
}

// up moves item i towards the root until its parent comes before it.
func (q *timerQueue) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !q.items[i].before(q.items[p]) {
			return
		}
		q.items[i], q.items[p] = q.items[p], q.items[i]
		i = p
	}
}

// down moves item i towards the leaves until it comes before its children.
func (q *timerQueue) down(i int) {
	n := len(q.items)
	for {
		m, l, r := i, 2*i+1, 2*i+2
		if l < n && q.items[l].before(q.items[m]) {
			m = l
		}
		if r < n && q.items[r].before(q.items[m]) {
			m = r
		}
		if m == i {
			return
		}
		q.items[i], q.items[m] = q.items[m], q.items[i]
		i = m
	}
}

// timerQueues lists the hub's timer queues, in the order snapshots keep them.
func (h *Hub) timerQueues() [5]*timerQueue {
	return [5]*timerQueue{&h.timers, &h.kicks, &h.offerTimers, &h.awayTimers[0], &h.awayTimers[1]}
}
