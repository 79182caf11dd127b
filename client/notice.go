package client

import (
	"fmt"

	"github.com/bomber-game/bomber/rules/bomber"
	"github.com/bomber-game/bomber/segment"
)

// NoticeKind says what happened, for the user interface.
type NoticeKind uint8

// Notice kinds.
const (
	NoticeWrongUser     NoticeKind = iota // InfoResp 0: no such user
	NoticeWrongPassword                   // PasswdResp 3
	NoticeLoginError                      // InfoResp/PasswdResp 4: the server could not check
	NoticeLoggedIn                        // the online list is complete
	NoticeOnline                          // Name came online
	NoticeOffline                         // Name went offline
	NoticeKicked                          // Refuse 4: a newer login took our session
	NoticeKickedOther                     // Refuse 5: we took over an older session
	NoticeInvited                         // Name invites us
	NoticeAccepted                        // Name accepted our invitation; drawing starts
	NoticeRefused                         // Name refused our invitation
	NoticeBusy                            // Name is busy
	NoticeNotOnline                       // Name is not online
	NoticeInviteError                     // InvitResponse with another code
	NoticeGameStarted                     // both boards are in; Name is the opponent
	NoticeYourSingle                      // our single guess on Cell gave Result
	NoticeYourDouble                      // our double guess on Plane was Right or not
	NoticeTheirSingle                     // the opponent guessed Cell with Result
	NoticeTheirDouble                     // the opponent guessed Plane, Right or not
	NoticeTheirMiss                       // the opponent's guess could not be read: a miss
	NoticeGameOver                        // the game ended; see Outcome
	NoticeDisconnected                    // the connection dropped
	NoticeProtocol                        // the server sent something this client cannot read
)

// Notice is one thing the user should be told.
type Notice struct {
	Kind    NoticeKind
	Name    string // the user concerned, when there is one
	Cell    bomber.Cell
	Plane   bomber.Plane
	Result  bomber.Result // single guesses
	Right   bool          // double guesses
	Outcome Outcome       // NoticeGameOver
	Detail  string        // NoticeProtocol: what was wrong
}

func (n Notice) String() string {
	switch n.Kind {
	case NoticeWrongUser:
		return "no such user: check the name"
	case NoticeWrongPassword:
		return "wrong password"
	case NoticeLoginError:
		return "the server could not check the login; try again"
	case NoticeLoggedIn:
		return "logged in as " + n.Name
	case NoticeOnline:
		return n.Name + " is online"
	case NoticeOffline:
		return n.Name + " went offline"
	case NoticeKicked:
		return "you were logged out: your account logged in elsewhere"
	case NoticeKickedOther:
		return "you were already logged in elsewhere: that session was closed"
	case NoticeInvited:
		return n.Name + " invites you to a game"
	case NoticeAccepted:
		return n.Name + " accepted: draw your planes"
	case NoticeRefused:
		return n.Name + " refused your invitation"
	case NoticeBusy:
		return n.Name + " is busy"
	case NoticeNotOnline:
		return n.Name + " is not online"
	case NoticeInviteError:
		return "the invitation to " + n.Name + " failed"
	case NoticeGameStarted:
		return "both boards are in: the game against " + n.Name + " starts"
	case NoticeYourSingle:
		return fmt.Sprintf("your guess %s: %s", cellName(n.Cell), n.Result)
	case NoticeYourDouble:
		return fmt.Sprintf("your plane guess %s: %s", planeName(n.Plane), rightWord(n.Right))
	case NoticeTheirSingle:
		return fmt.Sprintf("%s guessed %s: %s", n.Name, cellName(n.Cell), n.Result)
	case NoticeTheirDouble:
		return fmt.Sprintf("%s guessed the plane %s: %s", n.Name, planeName(n.Plane), rightWord(n.Right))
	case NoticeTheirMiss:
		return n.Name + " sent an unreadable guess: a miss"
	case NoticeGameOver:
		return n.Outcome.String()
	case NoticeDisconnected:
		return "disconnected from the server"
	case NoticeProtocol:
		return "protocol error: " + n.Detail
	}
	return "notice"
}

func rightWord(right bool) string {
	if right {
		return "right, the whole plane is revealed"
	}
	return "wrong"
}

// CellName writes a cell as the UI labels it: row letter A..J, column 0..9.
func CellName(c bomber.Cell) string { return cellName(c) }

func cellName(c bomber.Cell) string {
	if c >= bomber.Size*bomber.Size {
		return "??"
	}
	return fmt.Sprintf("%c%d", 'A'+c.X(), c.Y())
}

func planeName(p bomber.Plane) string { return cellName(p.Head) + "-" + cellName(p.Tail) }

func toCell(c segment.Coord) bomber.Cell { return bomber.CellAt(int(c.X), int(c.Y)) }

func toCoord(c bomber.Cell) segment.Coord { return segment.Coord{X: uint8(c.X()), Y: uint8(c.Y())} }
