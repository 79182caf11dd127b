package aeroplane

import "github.com/bomber-game/bomber/rules"

// Colours are seat indices: players take them in joining order.
const (
	Yellow rules.Player = iota // the first seat, who rolls first
	Blue                       // the second seat
	Red                        // the third seat
	Green                      // the fourth seat
)

// Board dimensions and the progress values a piece's position is kept in.
// A piece's position is its progress along its own colour's route: Camp,
// then Start (the launch space off the track), then 1..LastTrack on the
// shared track, then LastTrack+1..Centre on its bridge.
const (
	TrackLen  = 52 // spaces on the shared track, indexed 0..51 clockwise
	Pieces    = 4  // pieces per colour
	Camp      = -1 // in the camp (hangar) at the board's corner
	Start     = 0  // on the colour's starting space, waiting to enter the track
	LastTrack = 50 // progress of the colour's turning space, the last track space
	Centre    = 56 // progress of the centre: the piece has finished
	BridgeLen = Centre - LastTrack
	JumpLen   = 4  // a jump goes to the next space of the piece's colour
	FlightLen = 12 // a flight crosses the board along the shortcut
	Shortcut  = 18 // progress of the colour's shortcut space
	FlightEnd = Shortcut + FlightLen
	// CrossedBridge is the progress, in the opposite colour's terms, of the
	// bridge space a flight passes over (the third of its six bridge spaces).
	CrossedBridge = LastTrack + 3
	sideLen       = TrackLen / 4 // track spaces between two colours' entries
	maxColours    = 4
)

// ColourName is the lower-case name of seat c's colour.
func ColourName(c rules.Player) string {
	switch c {
	case Yellow:
		return "yellow"
	case Blue:
		return "blue"
	case Red:
		return "red"
	case Green:
		return "green"
	}
	return "none"
}

// EntrySpace is the track index a piece of colour c reaches with its first
// step from the starting space (progress 1).
func EntrySpace(c rules.Player) int { return sideLen * int(c) }

// TrackIndex maps a progress of colour c to the shared track index 0..51,
// or -1 when the progress is not on the track (camp, start, bridge).
func TrackIndex(c rules.Player, progress int) int {
	if progress < 1 || progress > LastTrack {
		return -1
	}
	return (EntrySpace(c) + progress - 1) % TrackLen
}

// SpaceColour is the colour of track space i; the colours repeat yellow,
// blue, red, green clockwise from space 1, so space 0 is green.
func SpaceColour(i int) rules.Player { return rules.Player((i + 3) % 4) }

// TurningSpace is the track index where colour c turns onto its bridge.
func TurningSpace(c rules.Player) int { return TrackIndex(c, LastTrack) }

// ShortcutSpace is the track index of colour c's shortcut (flight start).
func ShortcutSpace(c rules.Player) int { return TrackIndex(c, Shortcut) }

// FlightEndSpace is the track index where colour c's flight lands.
func FlightEndSpace(c rules.Player) int { return TrackIndex(c, FlightEnd) }

// Opposite is the colour across the board from c, whose bridge c's flight
// passes over.
func Opposite(c rules.Player) rules.Player { return (c + 2) % 4 }

// ownColour reports whether progress p (on the track) is a space of the
// moving piece's own colour.
func ownColour(p int) bool { return p >= 1 && p <= LastTrack && p%JumpLen == 2 }
