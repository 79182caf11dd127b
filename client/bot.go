package client

import (
	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/rules/bomber"
	"github.com/bomber-game/bomber/rules/bomber/bot"
	"github.com/bomber-game/bomber/segment"
)

// Bot plays Bomber through a Client: it logs in, accepts invitations (or
// invites one named user), draws a random valid board and guesses with a
// bot.Guesser. Like a person, it learns only the result of each of its own
// guesses (the notices); the opponent's board, which the protocol sends to
// every client, stays inside the Client. Bot is pure: the caller runs the
// connection and the pauses.
type Bot struct {
	C        *Client
	User     string
	Password string
	Invite   string    // user to invite; empty: wait for invitations
	Games    int       // stop after this many finished games; 0: never
	Level    bot.Level // how well it guesses; the zero value is bot.Hard

	rng     rules.Rand
	guesser *bot.Guesser
	played  int
	won     int
	winGs   int // guesses made in the games won
	retry   bool
	failed  bool
}

// NewBot returns a bot for user; rng draws its boards and breaks its ties.
func NewBot(user, password string, rng rules.Rand) *Bot {
	return &Bot{C: New(), User: user, Password: password, rng: rng}
}

// Played is the number of games finished (won, lost or abandoned).
func (b *Bot) Played() int { return b.played }

// Won is the number of games won.
func (b *Bot) Won() int { return b.won }

// WinGuesses is the number of guesses made in the games won, in all.
func (b *Bot) WinGuesses() int { return b.winGs }

// Done reports whether the bot has played all its games, or cannot log in.
func (b *Bot) Done() bool { return b.failed || b.Games > 0 && b.played >= b.Games }

// Failed reports whether the server refused the bot's login.
func (b *Bot) Failed() bool { return b.failed }

// WantsRetry reports whether the bot wants to invite again after a pause
// (the invitee was busy, refused or offline, or a game just ended).
func (b *Bot) WantsRetry() bool { return b.retry && !b.Done() }

// Connected handles a new connection.
func (b *Bot) Connected() Out {
	o := b.C.Connected()
	if b.C.State() == GatherUserInfo {
		l, _ := b.C.Login(b.User, b.Password) // GatherUserInfo takes a login
		o = merge(o, l)
	}
	return b.react(o)
}

// Disconnected handles the loss of the connection.
func (b *Bot) Disconnected() Out { return b.react(b.C.Disconnected()) }

// Receive handles a segment from the server.
func (b *Bot) Receive(s segment.Segment) Out { return b.react(b.C.Receive(s)) }

// Retry invites again after the pause WantsRetry asked for.
func (b *Bot) Retry() Out {
	b.retry = false
	return b.react(b.tryInvite())
}

func (b *Bot) tryInvite() Out {
	if b.Invite == "" || b.Done() || b.C.State() != ClientWaiting {
		return Out{}
	}
	o, err := b.C.Invite(b.Invite)
	if err != nil {
		return Out{}
	}
	return o
}

// react acts on the notices of o, and on those its own actions raise, and
// returns everything to send.
func (b *Bot) react(o Out) Out {
	all := o
	queue := append([]Notice(nil), o.Notices...) // its own array: all grows apart
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		next := b.act(n)
		all = merge(all, next)
		queue = append(queue, next.Notices...)
	}
	return all
}

func (b *Bot) act(n Notice) Out {
	switch n.Kind {
	case NoticeWrongUser, NoticeWrongPassword:
		b.failed = true
	case NoticeLoggedIn:
		return b.tryInvite()
	case NoticeOnline:
		if n.Name == b.Invite {
			return b.tryInvite()
		}
	case NoticeRefused, NoticeBusy, NoticeNotOnline, NoticeInviteError:
		b.retry = true
	case NoticeInvited:
		o, _ := b.C.Answer(!b.Done()) // we are in ClientInvited
		if b.C.State() == Game {
			o = merge(o, b.draw())
		}
		return o
	case NoticeAccepted:
		return b.draw()
	case NoticeGameStarted, NoticeTheirSingle, NoticeTheirDouble, NoticeTheirMiss:
		return b.guess()
	case NoticeYourSingle:
		b.guesser.ObserveSingle(n.Cell, n.Result)
	case NoticeYourDouble:
		b.guesser.ObserveDouble(n.Plane, n.Right)
	case NoticeGameOver:
		b.played++
		if n.Outcome == Won {
			b.won++
			b.winGs += b.C.Guesses()
		}
		b.retry = b.Invite != ""
	}
	return Out{}
}

func (b *Bot) draw() Out {
	b.guesser = bot.NewLevelGuesser(b.rng, b.Level)
	o, err := b.C.PlaceBoard(bot.RandomBoard(b.rng))
	if err != nil {
		panic("client: bot.RandomBoard drew an invalid board: " + err.Error())
	}
	return o
}

func (b *Bot) guess() Out {
	if !b.C.MyTurn() || b.guesser == nil {
		return Out{}
	}
	g := b.guesser.Next()
	var o Out
	var err error
	if g.Double {
		o, err = b.C.GuessDouble(g.Plane)
	} else {
		o, err = b.C.GuessSingle(g.Cell)
	}
	if err == nil {
		return o
	}
	// The guesser repeated something the client refuses (it should not):
	// fall back to the first cell nobody guessed, so the game goes on.
	for x := bomber.Cell(0); x < bomber.Size*bomber.Size; x++ {
		if b.C.CanSingle(x) == nil {
			o, _ = b.C.GuessSingle(x) // its notice reaches the guesser
			return o
		}
	}
	return Out{}
}

func merge(a, b Out) Out {
	a.Send = append(a.Send, b.Send...)
	a.Notices = append(a.Notices, b.Notices...)
	return a
}
