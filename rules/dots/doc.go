// Package dots implements Dots and Boxes (seed 002) for two to four
// players, with an exact solver and a bot.
//
// # Rules
//
// The board is a grid of dots, 3 to 8 rows by 3 to 8 columns chosen
// independently. Seats 0..n-1 play in joining order and seat 0, the host,
// moves first. A move joins two horizontally or vertically adjacent dots
// with a line not yet drawn. A line that completes the fourth side of a box
// scores that box for the mover (one line can complete two boxes) and the
// mover moves again; otherwise the turn passes to the next seat. The game
// ends when every line is drawn. The seat with most boxes wins; several
// seats tied for first are all winners (status Won); if every seat ties
// the game is Drawn. Scores (boxes per seat) are available at any time.
// There are no draw offers: those shared kinds are refused with
// rules.ErrIllegal.
//
// # Resigning
//
// Any seat still playing may resign (rules.KindResign, "resign"), on turn
// or not; it is never listed among the legal moves. In a two-player game
// the other seat then wins at once. In a game of three or four the seat
// leaves and the others play on: its turns are skipped (if it was to move,
// the next seat still playing moves), and the boxes it scored stay its own
// and stay counted in Scores, but a seat that left can never win; at the
// end the most boxes among the seats still playing wins (a tie of all of
// them is a draw). When only one seat is left, it wins at once.
//
// # Options
//
//	rows  dot rows, 3..8 (default 5)
//	cols  dot columns, 3..8 (default 5)
//
// # Moves and notation
//
// A move has Kind KindLine, Len 4 and Arg {r1, c1, r2, c2}: the two dots,
// rows and columns counted from 0 at the top left, the top-left dot first
// (Line builds it in either order). In text a dot is its column letter and
// row number, a1 being the top-left dot, and a move is its two dots joined
// by '-': "a1-b1" (horizontal), "c2-c3" (vertical). ParseMove accepts
// either dot first and either letter case; FormatMove writes the top-left
// dot first in lower case. Resign is Kind rules.KindResign with no
// arguments, "resign" in text.
//
// # Steps
//
// StepLine: Player drew the line from dot (A, B) rightwards (C = 0) or
// downwards (C = 1). StepBox, after it, once per completed box: Player
// scored the box whose top-left dot is (A, B), and C is that seat's new
// score. StepResign: Player resigned and left (A, B, C are 0). Every step
// is public.
//
// # View layout
//
// Game.Observe gives every viewer the same rules.View (there is no hidden
// information). With R dot rows and C dot columns:
//
//	Cells[0 : R*(C-1)]          horizontal lines, row by row top to bottom,
//	                            left to right: line from dot (r, c) to
//	                            (r, c+1) at index r*(C-1)+c; 1 drawn, 0 not
//	then (R-1)*C bytes          vertical lines, row by row: line from dot
//	                            (r, c) to (r+1, c) at R*(C-1) + r*C + c
//	then (R-1)*(C-1) bytes      boxes row by row, box with top-left dot
//	                            (r, c) at R*(C-1) + (R-1)*C + r*(C-1) + c:
//	                            0 open, 1+seat once scored
//	Extra[0] R, Extra[1] C, Extra[2] number of seats,
//	Extra[3] seats that resigned, as a bit mask (bit p for seat p)
//
// ToMove holds the seat to move (empty once over) and Scores the boxes per
// seat. Example: 3x3 dots, two seats, after a1-b1, a1-a2, b1-b2, a2-b2
// (seat 1 closed the top-left box and moves again):
//
//	Cells  1 0  1 0  0 0       horizontal: a1-b1, a2-b2 drawn
//	       1 1 0  0 0 0        vertical: a1-a2, b1-b2 drawn
//	       2 0  0 0            box a1 is seat 1's
//	Extra  3 3 2 0
//	ToMove [1], Scores [0 1]
//
// # Records
//
// Game.Record writes a game as a header line ("dots rows=4 cols=4
// players=2"), one line per move with the seat and the move ("0 a1-b1"),
// and a closing comment with the scores; ReadRecord replays such text.
//
// # Solver and bot
//
// Solve and Solver compute exact two-player values (the net margin in
// boxes for the player to move with perfect play) on boards of any size
// with at most 64 lines, including ones below the game's 3x3-dot minimum,
// such as 1x1 boxes. The Bot plays perfectly in two-player positions it
// can solve within its search budget and otherwise follows a chain-aware
// strategy: take boxes, give nothing away while it can, decline the last
// two boxes of a chain (four of a loop) to keep control, and open the
// smallest chain when it must.
package dots
