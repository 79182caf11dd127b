// Package paisho implements Vagabond Pai Sho, the Pai Sho variant of the
// story "Gambler and Vagabond" as published on skudpaisho.com, behind the
// rules interface. Seed 004 describes a Pai Sho engine built around the
// Godai variant, whose rules have no complete public text; Vagabond is fully
// specified, so Bomber hosts it instead. The code is written from the rules,
// not from any Pai Sho implementation.
//
// # Board
//
// Tiles stand on the intersections of a 17x17 grid clipped to the disc
// x²+y² <= 80, which keeps exactly 249 points (rows |y| <= 4 hold 17 points,
// |y| = 5, 6, 7, 8 hold 15, 13, 11, 9). Coordinates x and y run from -8 to 8.
// The four temples (gates) are (0,8), (0,-8), (8,0) and (-8,0). A step is one
// point along x or y (the diagonal lines of the drawn board), and distances
// count steps (|dx|+|dy|). "Adjacent" means one step away.
//
// # Tiles and turns
//
// Seat 0 is the host, who moves first; seat 1 is the guest. Each holds a
// White Lotus (L), two Sky Bisons (S), two Badgermoles (B), two Wheels (W),
// two Chrysanthemums (C), a Fire Lily (F) and a White Dragon (D). Lotus,
// Chrysanthemum and Fire Lily are Flower tiles. A turn deploys a tile from
// the library or moves a tile on the board.
//
// Deploying: a Sky Bison only onto an empty temple; the White Dragon only
// while its owner's Fire Lily is on the board, onto an empty point within 5
// steps of it; every other tile onto any empty point that is not a temple.
// No tile ever moves onto an empty temple (a capture may end on an occupied
// one).
//
// Moving:
//   - White Lotus: one step.
//   - Badgermole: one step, or along a line (a row or column) to the point
//     just before the first tile on that line when that tile is a Flower
//     (either player's: the published rule says "a Flower Tile").
//   - Sky Bison: up to six steps through empty points, turning freely (it may
//     pass over an empty temple). It may not move at all, nor fly on from a
//     point, while next to an enemy Chrysanthemum (it may stop there). It may
//     not end within 6 steps of an active enemy Sky Bison; a bison is active
//     once out of the temples and while not frozen, and the zone applies to
//     captures too, so an active bison cannot be captured by a bison. Own
//     bisons have no zone against each other.
//   - Wheel: any distance along a diagonal of the grid (across the squares
//     of the drawn board), over empty points only.
//   - Chrysanthemum and Fire Lily: never move.
//   - White Dragon: to any point within 5 steps of its owner's Fire Lily, no
//     path needed; it cannot move while that Fire Lily is off the board.
//
// Capturing: only the Sky Bison, Wheel and White Dragon capture, by moving
// onto an enemy tile. Flower tiles may be captured only once the capturer's
// own Lotus is deployed, other tiles only once both Lotuses are. A Flower
// next to a Badgermole of its owner cannot be captured. A Sky Bison next to
// an enemy Chrysanthemum is frozen: it cannot move and has no zone.
//
// # End of the game
//
// Capturing the enemy White Lotus wins. The player to move may offer a draw
// (then still makes a move); the opponent, on their turn, accepts it (a
// draw), declines it, or declines by simply moving. Either player may
// resign at any time, on turn or not (the other wins); only the player to
// move has resign listed among its legal actions, and the bot never
// resigns or offers draws. The published rules set no move limit: option "move-limit" (an
// integer, default 0 = none) draws the game once that many board moves
// (deploys and tile moves of both players) have been made. If the player to
// move has no deploy and no tile move, the game is drawn ("no legal move";
// the rules are silent on this and it is rare).
//
// # Encodings
//
// Moves: KindDeploy (Arg tile, x+8, y+8; Len 3), KindMove (Arg from x+8,
// from y+8, to x+8, to y+8; Len 4), and the shared rules.KindOfferDraw,
// KindAcceptDraw, KindDeclineDraw, KindResign (no arguments). Tile numbers:
// 1 Lotus, 2 Sky Bison, 3 Badgermole, 4 Wheel, 5 Chrysanthemum, 6 Fire Lily,
// 7 White Dragon.
//
// Steps (points as PointCode, (x+8)*17 + (y+8)): StepDeploy (A tile, B
// point), StepMove (A tile, B from, C to), StepCapture (Player capturer, A
// captured tile, B point, C its owner; it follows the StepMove), and
// StepDrawOffered, StepDrawDeclined, StepDrawAccepted, StepResigned (Player
// acting). Scores count the tiles each player has captured.
//
// # Notation
//
// Following seed 004's notation builder, a line is the turn number, H or G,
// a dot and the move: "3H.S(0,8)" deploys a Sky Bison on (0,8) and
// "4G.(-8,0)-(-6,3)" moves the guest's tile on (-8,0) to (-6,3). Other
// actions are "offer-draw", "accept-draw", "decline-draw" and "resign".
// Host and guest share a turn number, which grows after the guest's deploy
// or move; a resignation by the seat not to move carries that seat's
// letter and the current number ("4H.resign" while the guest is to move). FormatMove writes the bare move; ParseMove accepts a bare move or
// a full line (whose number and seat must be this turn's). Line and
// ParseLine build and read lines, FormatGame, ParseGame and Replay whole
// games (one line per action).
//
// # View layout
//
// Observe gives every viewer the same rules.View: Pai Sho hides nothing,
// both libraries included.
//
// Cells holds all 289 points of the enclosing 17x17 grid, in PointCode
// order: point (x, y) at index (x+8)*17 + (y+8), so column x = -8 first,
// each column from y = -8 (bottom) up to y = 8 (top). A byte is 0 for an
// empty playable point, the tile number 1..7 for a host tile, 8 + the tile
// number (9..15) for a guest tile, and 0xFF for the 40 grid points outside
// the disc. The temples (0,±8) and (±8,0) are fixed and not marked.
//
// Extra, 19 bytes:
//
//	[0..6]   host library: tiles still to deploy, for tile numbers 1..7
//	[7..13]  guest library, likewise
//	[14..15] turn number, big-endian
//	[16]     pending draw offer: 0 none, 1 by the host, 2 by the guest
//	[17]     how the game ended: 0 running, 1 White Lotus captured,
//	         2 resignation, 3 draw agreed, 4 move limit reached,
//	         5 no legal move
//	[18]     winner: 0 none, 1 host, 2 guest
//
// ToMove holds the seat to move (none once over), Scores the tiles each
// seat has captured. Example: after "1H.L(0,0)" and "1G.W(1,-2)" the cell
// at 8*17+8 = 144 is 1 (host Lotus), the cell at 9*17+6 = 159 is 12 (guest
// Wheel), cell 0 (-8,-8) is 0xFF, and Extra is
//
//	0 2 2 2 2 1 1  1 2 2 1 2 1 1  0 2  0 0 0
//
// # Bot
//
// NewBot returns a one-ply bot with a static evaluation that looks at the
// opponent's captures in reply; it beats a uniformly random mover in every
// one of 100 test games.
package paisho
