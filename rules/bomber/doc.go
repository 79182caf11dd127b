// Package bomber is the rules of Bomber, the game the reference client
// plays: each seat hides three planes on a 10x10 grid and the seats take
// turns guessing where the other's planes are.
//
// # Rules
//
// Cells are numbered X*10+Y, X the row and Y the column (0..9). A plane is
// given by its head and the middle cell of its tail, three cells apart in
// one row or column; it covers ten cells (see Plane.Cells). While Drawing,
// both seats place a board of three non-overlapping planes, in any order
// and secretly. Then seats guess in turn, the seat of option "first"
// beginning: a single guess reveals one cell (wrong, body or head); a double
// guess names a whole plane by head and tail and, when right, reveals all of
// it. The first seat to reveal all 30 enemy plane cells wins. A seat may
// resign at any time, in any phase, on turn or not; the other seat wins.
//
// # Options
//
// "first" (int 0..1, default 0): the seat that guesses first; 0 is the
// inviter, as the reference client plays. Spec().Options lists it.
//
// # Moves, notation and steps
//
// Moves: KindBoard (Arg: h1x h1y t1x t1y h2x ... t3y, Len 12; "02-32 07-37
// 52-82"), KindSingle (Arg x y; "34"), KindDouble (Arg head x y, tail x y;
// "02-32"), KindMiss (a guess the reference client could not send readably;
// "-") and rules.KindResign ("resign"). A board move is secret
// (SecretMove): it is shown to its seat alone until the game is over.
//
// Steps: StepBoard (Player placed a board; nothing about where, so it is
// public), StepSingle (A the cell, B the Result), StepDouble (A head, B tail,
// C 1 when right), StepMiss, StepWon (Player found all three planes) and
// StepResign (Player resigned). No step is Hidden: every guess and its
// answer is public.
//
// # View layout
//
// Observe(viewer) returns:
//
//   - Cells: 200 bytes, seat 0's grid then seat 1's grid; byte X*10+Y of a
//     grid is that cell of the seat's own planes, as the viewer knows it:
//     0 nothing known, 1 the viewer's own plane (not hit), 2 the viewer's
//     own plane head (not hit), 3 the opponent guessed it singly and there
//     is no plane, 4 a revealed plane cell, 5 a revealed plane head. Values
//     1 and 2 appear only in the viewer's own grid (never for a spectator).
//   - Extra: 91 bytes. [0] phase (0 drawing, 1 guessing, 2 over); [1] the
//     seat to guess; [2] the winner, or 255; [3:5] and [5:7] the number of
//     guesses seat 0 and seat 1 made (uint16, big-endian); then for seat 0
//     and then seat 1, 21 bytes "tried" and 21 bytes "right": bit i (byte
//     i/8, value 1<<(i%8)) is set when the seat made a double guess on
//     placement i, and when that guess was right. Placements are numbered
//     as Placements() lists them: by head cell ascending, and for one head
//     the tail 3 rows down, 3 columns left, 3 rows up, 3 columns right, each
//     kept only when the whole plane fits.
//   - Scores: the enemy plane cells each seat has revealed. ToMove: both
//     seats that have not placed while drawing, the seat to guess after.
//
// Example: boards placed, seat 0 guessed 02 (a head of seat 1), seat 1
// guessed 99 (nothing) and seat 0 doubled 07-37 (right). Observe(1) has
// Cells[100+2] = 5, Cells[100+7] = 5, Cells[100+17] = 4 (a revealed body),
// Cells[99] = 3, seat 1's own unhit planes as 1 and 2 in Cells[100:200],
// and seat 0's unhit planes as 0; Extra starts 1 1 255 0 2 0 1 and has the
// placement index of 07-37 set in seat 0's tried and right bitsets.
// Observe(Spectator) is the same with no 1 or 2 anywhere.
//
// View(viewer) is the same as text: each grid with P/H for the viewer's own
// planes, x where they are hit, h/b for revealed heads and bodies, o for a
// miss, then each seat's doubles in placement order, + when right.
//
// # Redact and bots
//
// Redact(p) erases the other seat's planes, keeping only the cells already
// revealed and which of them are heads; whether it placed, every guess and
// every answer stay, as they are public. Play on a redacted game answers
// guesses by that erased board (a cell not revealed yet is wrong, a plane
// not found yet is not there), so it cannot play a game out; bots read the
// observations instead (Guessed, Revealed, RevealedHeads, Doubles), as
// bot.SeatBot does.
//
// # Allocation
//
// Play, Single, Double and Miss allocate nothing, so the hub relays guesses
// with no garbage.
package bomber
