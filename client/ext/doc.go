// Package ext is the client side of Bomber's extended protocol (Hello,
// tables, every game, chat) as a pure state machine: no I/O, no goroutines,
// no clock. The caller owns the connection and the timers; it feeds the
// Client every segment the server sent (Receive), tells it when a
// connection came up or went down, and asks it to build requests (Create,
// Join, Move, Chat ...). Each call returns Out: the segments to write, in
// order, and the Events to show.
//
// It is a sibling of package client rather than a part of it because the
// two dialects share nothing but the login: package client is the
// reference client's exact state machine (one game, invitations, boards
// judged on the client), and a terminal client in reference mode must keep
// behaving byte for byte as before. This package holds what a table client
// knows instead: online users, the catalogue, the listed tables, the table
// it sits or watches at, its seat, the current game's View and moves, chat
// logs, offers and errors.
//
// For games without secret moves the Client keeps a Replica of the game,
// built from the table's options and fed every Moved (and the dice faces of
// Aeroplane Chess from its roll Steps), so a player sees the board after
// each move and the legal moves of its seat without asking the server; a
// View from the server (at the start, after a takeback, on request) is
// checked against the replica, which is rebuilt or dropped when they
// differ. A client that lost a roll's face with its connection resumes
// from before that roll, and the server sends the roll again with its
// face. Without a replica (Bomber, a watcher who came in mid-game) the
// Client asks for a fresh View after every move.
package ext
