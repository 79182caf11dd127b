// Package aeroplane implements Aeroplane Chess (飞行棋) for 2 to 4 players
// as designed in seed 000, as a pure rules.Game: no I/O, no clock, dice
// drawn only from the injected rules.Rand.
//
// # Players and pieces
//
// Seats take the colours yellow, blue, red and green in joining order
// (seat 0 is yellow); yellow rolls first and the turn passes clockwise
// (seat order). Each colour has four pieces, numbered 0 to 3, which start
// in its camp.
//
// # Board geometry
//
// The shared track has 52 spaces, indexed 0..51 clockwise. Track space i
// has colour (i+3) mod 4 (0 yellow, 1 blue, 2 red, 3 green), so the colours
// repeat yellow, blue, red, green from space 1 and each has 13 spaces.
//
// A piece's position is its progress along its own colour's route:
//
//	-1      Camp: in the camp
//	 0      Start: on the colour's starting space, off the track
//	 1..50  on the track; progress k is track index (13c + k - 1) mod 52
//	        for colour c, so colour c enters the track at 13c
//	51..55  bridge spaces 1..5 of the colour's own bridge
//	56      Centre: the piece has finished
//
// From the starting space to the centre is 56 steps for every colour. The
// spaces of a piece's own colour are the progress values 2, 6, ..., 50
// (k mod 4 = 2), 13 in all. Among them:
//
//	progress 50, the turning space (track 13c+49 mod 52: yellow 49,
//	  blue 10, red 23, green 36): the piece turns onto its bridge after it;
//	progress 18, the shortcut (track 13c+17 mod 52: yellow 17, blue 30,
//	  red 43, green 4): a flight to progress 30 (yellow 29, blue 42, red 3,
//	  green 16), 12 track spaces ahead.
//
// The flight line crosses the bridge of the opposite colour (yellow-red,
// blue-green), whose turning space lies halfway along it, over that
// bridge's third space (the opposite colour's progress 53, CrossedBridge).
// The two track spaces just before a colour's entry are not on its route.
//
// # Rules (seed 000, the defaults)
//
// A turn starts with a roll. A piece leaves the camp only on a 6 and waits
// on its starting space. A piece out of camp moves clockwise by the face;
// a roll equal to or larger than the distance left to the centre finishes
// the piece (no exact roll needed). Landing on a track space of its own
// colour jumps the piece to the next one (+4), except on the turning space
// and the shortcut; landing on the shortcut flies it 12 spaces ahead. A
// jump that ends on the shortcut flies on (+16 in all), but a flight is
// never followed by a jump. Where the piece comes to rest, after any jump
// and flight, every opponent piece on that track space goes back to its
// camp (as seed 000 resolves captures after the piece's last move; spaces
// only touched on the way are not attacked). Pieces on starting spaces and
// bridges cannot be captured. Own pieces may share a space.
//
// Any 6 gives another roll. A third 6 in a row cannot be used: the pieces
// moved with the two previous 6s go back to camp (a piece that reached the
// centre stays there) and the turn passes. When no piece can use a roll
// the turn passes at once, so the player to move always has a legal move.
// The first player with all four pieces at the centre wins and the game
// ends.
//
// # Resigning
//
// Any seat still playing may resign ("resign", rules.KindResign), on turn
// or not, even with a rolled die waiting; it is never listed among the
// legal moves. In a two-player game the other seat wins at once. In a game
// of three or four the seat leaves: its pieces are taken off the board
// (they can no longer be captured, block or count: its score becomes 0),
// its turns are skipped, and if it was to roll or move the next seat still
// playing rolls. When only one seat is left, it wins.
//
// # Dice
//
// Each roll calls IntN once on the game's Rand: the face is
// min(IntN(n), 5) + 1, with n = 8 while the six bias applies and n = 6
// otherwise. IntN(8) gives a 6 for 5, 6 and 7, so a 6 comes 3 times in 8
// (37.5%) and every other face 1 time in 8. A Rand answering face-1 thus
// yields that face for either n, which is how tests script the dice and
// Replay feeds a record's rolls back. The same Rand and the same moves
// always give the same game. Clone gives the copy a private generator
// seeded from the position, so rolling on a clone neither changes nor
// reveals the game's own rolls.
//
// # Options
//
// Boolean values ("on"/"off", "true"/"false", "1"/"0", "yes"/"no"):
//
//	six-bias        on   a roller with no piece in play (all unfinished
//	                     pieces in camp) rolls a 6 with probability 37.5%
//	stack           off  a piece landing on its own colour's pieces on the
//	                     track or bridge stacks with them; moving any piece
//	                     of a stack moves the whole stack, which is captured
//	                     whole and, moved with a six, sent back whole
//	exact-finish    off  the centre needs the exact roll; the excess
//	                     bounces the piece back down its bridge
//	launch-on-5     off  a 5 also launches a piece (without an extra roll)
//	flight-capture  off  a flight also sends back the opposite colour's
//	                     pieces on the bridge space it passes over
//
// # Moves and notation
//
//	KindRoll         "roll"    no arguments; expected when Die() is 0
//	KindMove         "move N"  Arg[0] = N, the piece 0..3, with the rolled face
//	rules.KindResign "resign"  no arguments; from any seat still playing
//
// # Steps
//
// Play reports each stage of a move as a rules.Step, in order, so clients
// can show them one by one (positions are the piece owner's progress):
//
//	StepRoll        A face, B sixes in a row if it is a six
//	StepLaunch      A piece, camp to start
//	StepMove        A piece, B -> C by the die count
//	StepBounce      A piece, B -> C back from the centre (exact-finish)
//	StepJump        A piece, B -> C to the next space of its colour
//	StepFlight      A piece, B -> C along the shortcut
//	StepCapture     Player's piece A, at B, sent to camp by seat C
//	StepFinish      A piece reached the centre
//	StepThreeSixes  the third six in a row
//	StepReturn      A piece, at B, back to camp for the three sixes
//	StepNoMove      no piece can use face A
//	StepTurn        Player rolls next; A = 1 for the extra roll after a six
//	StepWin         Player has won
//	StepResign      Player resigned and left (then StepTurn if it was
//	                to play, or StepWin for the last seat left)
//
// A moving stack reports a move, bounce, jump, flight and finish step per
// piece. Every step is public.
//
// # View layout
//
// Observe gives every viewer the same rules.View. With N seats:
//
//	Cells  N*4 bytes, seat by seat, pieces 0..3 of each: progress + 1,
//	       so 0 camp, 1 start, 2..51 track progress 1..50 (track index
//	       (13*seat + progress - 1) mod 52), 52..56 bridge spaces 1..5,
//	       57 centre (home); 0xFF (CellGone) for every piece of a seat
//	       that resigned
//	Extra  [0] N
//	       [1] the seat to act (PhaseRoll, PhaseMove) or the winner
//	           (PhaseOver)
//	       [2] phase: 0 PhaseRoll (a roll is expected), 1 PhaseMove (the
//	           face in [3] waits to be used), 2 PhaseOver
//	       [3] the rolled face waiting to be used, 1..6; 0 otherwise
//	       [4] sixes rolled in a row this turn (counting [3])
//	       [5] options, a bit each: 1 six-bias, 2 stack, 4 exact-finish,
//	           8 launch-on-5, 16 flight-capture
//	       [6] seats that resigned, a bit per seat
//
// ToMove holds the seat to act, Scores the pieces home per seat. Example:
// two seats, default options, yellow rolled a 6, launched piece 0 and
// rolled a 3:
//
//	Cells  1 0 0 0  0 0 0 0
//	Extra  2 0 1 3 1 1 0
//
// # Records
//
// Record, Record.String, ParseRecord and Replay keep a whole game as text:
//
//	aeroplane
//	players 2
//	option six-bias on
//	option stack off
//	option exact-finish off
//	option launch-on-5 off
//	option flight-capture off
//	yellow roll 6
//	yellow move 0
//	yellow roll 2
//	yellow move 0
//	blue roll 4
//	blue resign
//
// Blank lines and lines starting with # are ignored; options left out
// take their defaults.
//
// # Bot
//
// NewBot returns a bot that scores each piece it could move: finishing,
// capturing (more for advanced victims), flying, jumping, launching and
// reaching the bridge earn points, as does leaving a space opponents can
// reach next roll; ending on such a space costs points; the rest goes by
// steps gained. Ties are broken by its seeded generator.
package aeroplane
