package paisho

// Tile is a kind of Vagabond Pai Sho tile.
type Tile uint8

// The seven tile kinds; NoTile marks an empty point.
const (
	NoTile        Tile = iota
	Lotus              // White Lotus: flower, 1 step, losing it loses the game
	SkyBison           // deploys on a temple, flies up to 6 steps, captures
	Badgermole         // 1 step or a leap beside a flower in sight; guards flowers
	Wheel              // any distance along a diagonal, captures
	Chrysanthemum      // flower, never moves, freezes adjacent enemy Sky Bisons
	FireLily           // flower, never moves, anchors the White Dragon
	WhiteDragon        // deploys and moves within 5 steps of its Fire Lily, captures
	tileKinds
)

const tileLetters = "?LSBWCFD"

var tileNames = [tileKinds]string{"none", "White Lotus", "Sky Bison", "Badgermole", "Wheel", "Chrysanthemum", "Fire Lily", "White Dragon"}

// startLibrary is each player's set of tiles before the first move.
var startLibrary = [tileKinds]uint8{0, 1, 2, 2, 2, 2, 1, 1}

// Letter is the tile's one-letter notation code (L S B W C F D).
func (t Tile) Letter() byte {
	if t >= tileKinds {
		return '?'
	}
	return tileLetters[t]
}

// String is the tile's full name.
func (t Tile) String() string {
	if t >= tileKinds {
		return "unknown"
	}
	return tileNames[t]
}

// IsFlower reports whether t is a Flower tile (White Lotus, Chrysanthemum,
// Fire Lily), which a Badgermole guards and which is capturable earlier.
func (t Tile) IsFlower() bool { return t == Lotus || t == Chrysanthemum || t == FireLily }

// Captures reports whether t may capture (Sky Bison, Wheel, White Dragon).
func (t Tile) Captures() bool { return t == SkyBison || t == Wheel || t == WhiteDragon }

func tileFromLetter(c byte) Tile {
	for t := Lotus; t < tileKinds; t++ {
		if tileLetters[t] == c {
			return t
		}
	}
	return NoTile
}
