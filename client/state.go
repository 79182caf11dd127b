package client

// State is the client's protocol state, named as in the reference client.
type State uint8

// Client states. The first nine are the reference client's; Kicked is
// where a session ends after Refuse 4 until the caller closes it.
const (
	Init                    State = iota // no connection
	GatherUserInfo                       // connected, asking for name and password
	WaitForUsernameResponse              // Info sent
	WaitForPasswordResponse              // Passwd sent
	UserSync                             // logged in, receiving the online list
	ClientWaiting                        // idle in the lobby
	ClientInvited                        // someone invited us; we answer
	ClientInviting                       // we invited someone; waiting for the answer
	Game                                 // drawing planes or playing
	Kicked                               // a newer login took our session over
)

var stateNames = [...]string{
	"Init", "GatherUserInfo", "WaitForUsernameResponse", "WaitForPasswordResponse",
	"UserSync", "ClientWaiting", "ClientInvited", "ClientInviting", "Game", "Kicked",
}

func (s State) String() string {
	if int(s) < len(stateNames) {
		return stateNames[s]
	}
	return "State(?)"
}

// Phase is where a game stands while the state is Game.
type Phase uint8

// Game phases.
const (
	Drawing         Phase = iota // placing our three planes
	WaitingForBoard              // our board is sent; the opponent's has not arrived
	Playing                      // guessing in turn
)

func (p Phase) String() string {
	switch p {
	case Drawing:
		return "drawing"
	case WaitingForBoard:
		return "waiting for the opponent's board"
	case Playing:
		return "playing"
	}
	return "Phase(?)"
}

// Outcome is how the last game ended.
type Outcome uint8

// Game outcomes.
const (
	NoOutcome    Outcome = iota // no game finished since the last Acknowledge
	Won                         // we revealed all 30 enemy cells
	Lost                        // the opponent revealed all 30 of ours
	OpponentLeft                // GameOver arrived before the opponent had won
	Disconnected                // our connection dropped during the game
)

func (o Outcome) String() string {
	switch o {
	case NoOutcome:
		return "none"
	case Won:
		return "you won"
	case Lost:
		return "you lost"
	case OpponentLeft:
		return "game over: the opponent left"
	case Disconnected:
		return "game over: disconnected"
	}
	return "Outcome(?)"
}
