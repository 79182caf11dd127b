// Package checkers is English draughts (American checkers), seed 001's
// "standard game of checkers", as a pure, server-authoritative rule package.
//
// # Rules
//
// The board is the 32 dark squares of an 8x8 board, numbered 1 to 32 as in
// PDN: squares 1-4 on Black's back row, 29-32 on White's. Each side starts
// with 12 men, Black on 1-12, White on 21-32. Black (seat 0, the first to
// join) moves first; White is seat 1.
//
//   - A man moves one square diagonally forward, a king one square in any
//     diagonal direction.
//   - A jump takes an enemy piece on a diagonally adjacent square by landing
//     on the empty square beyond it; men jump forward only, kings both ways.
//     After a jump the same piece must jump again while it can: the chosen
//     sequence is completed. A piece cannot be jumped twice in one move.
//   - Capturing is compulsory: with any jump available, a simple move is
//     illegal. Any jump sequence may be chosen, not necessarily the longest.
//   - A man ending a move on the far row is crowned king, and reaching that
//     row ends the move even if the new king could jump on.
//   - The side to move loses when it has no pieces or no legal move.
//   - Draws: by agreement (an offer the opponent accepts); by threefold
//     repetition (the same pieces on the same squares with the same side to
//     move for the third time, ended automatically); and after 40 moves by
//     each side (80 plies) in which no man moved and nothing was taken.
//   - A player may resign at any time, on turn or not (the server resigns
//     a player who leaves); the other side wins.
//
// # Options
//
// rules.Options keys; booleans take true/false, on/off, yes/no or 1/0.
//
//   - compulsory_capture (default true): false gives seed 001's simpler
//     game, in which jumping is optional; a jump once begun must still be
//     completed.
//   - draw_agreement (default true): draw offers and answers are allowed.
//   - draw_repetition (default true): threefold repetition draws.
//   - draw_40_moves (default true): the 40-move rule draws.
//   - resign (default true): Legal lists resignation for the side to move.
//     Play accepts it from either seat whatever this option says, since a
//     player who leaves the table resigns.
//   - fen (default the opening position): the starting position in PDN FEN.
//
// Spec().Options describes every key for catalogues and settings forms (fen
// is rules.OptionText, the others rules.OptionBool).
//
// # Moves
//
// A rules.Move holds a board move as its path of PDN squares: Kind KindMove
// with Arg[0] the start and Arg[1] the end square (Len 2), or Kind KindJump
// with Arg[0..Len-1] every square the piece lands on, the start first (Len is
// the number of captures plus one). Other moves use the shared kinds of
// package rules with no arguments: KindOfferDraw (the side to move offers a
// draw; the opponent must then play KindAcceptDraw or KindDeclineDraw, after
// a decline the offerer moves and may not offer again until after that move)
// and KindResign. Notation is PDN: "11-15", "22x15", "11x18x25"; ParseMove
// also takes the short form "11x25" of a multi-jump when only one path fits,
// the older "11-18-25", and the words draw-offer, draw-accept, draw-decline
// and resign.
//
// # Steps
//
// Step squares are PDN squares. StepMove: A from, B to. StepJump (one per
// piece captured): A from, B to, C the captured piece's square. StepCrown: A
// the new king's square. StepDrawOffer, StepDrawDecline, StepDrawAccept and
// StepResign carry only Player.
//
// # View layout
//
// Observe gives every viewer the same rules.View (nothing is hidden):
//
//   - Cells: 32 bytes, byte i for PDN square i+1: 0 empty, 1 Black man,
//     2 Black king, 3 White man, 4 White king (CellEmpty ... CellWhiteKing).
//   - Extra: 2 bytes. Extra[0] is the side to move on the board (0 Black,
//     1 White); Extra[1] is the seat whose draw offer is pending, or 255
//     (NoOffer). While an offer is pending ToMove holds the seat to answer.
//   - Scores: pieces captured by Black, then White. ToMove and Status as the
//     Game reports them.
//
// Example: from FEN "W:WK26,K27,30:B5,K8,9" Cells is zero but for
// Cells[4]=1, Cells[7]=2, Cells[8]=1, Cells[25]=4, Cells[26]=4, Cells[29]=3;
// Extra is [1 255] and ToMove [1].
//
// Redact returns a clone: there is nothing to hide and no chance.
//
// # Scores, positions and games
//
// Scores are the pieces each seat has captured, as seed 001 shows them.
// Positions are written in PDN FEN ("B:W21,...,32:B1,...,12", K before a
// king's square; ranges such as 1-12 are read too) and whole games as PDN
// (ParsePDN, Record.Replay, Game.Record, Record.String). PDN results list
// Black first: "1-0" is a Black win, "0-1" a White win.
//
// # Bot
//
// Bot searches with iterative-deepening alpha-beta, capture sequences
// searched to their end, bounded by depth and by a node count, so its play
// depends only on the position and its seed. It evaluates material (a king
// is worth 1.5 men), advancement, the back rank, the centre, trading down
// when ahead and bringing kings to the enemy when ahead.
package checkers
