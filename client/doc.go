// Package client is the client side of Bomber's segment protocol as a pure,
// deterministic state machine: no I/O, no goroutines, no clock. A terminal
// client or a bot owns the socket and the timers; it feeds this package what
// happened (a connection came up or went down, a segment arrived, the user
// asked for something) and gets back the segments to write and notices to
// show.
//
// It speaks exactly like the reference (AngularJS/Electron) client, so it
// works against the reference server and any compatible one:
//
//   - states Init, GatherUserInfo, WaitForUsernameResponse,
//     WaitForPasswordResponse, UserSync, ClientWaiting, ClientInvited,
//     ClientInviting and Game (with the phases Drawing, WaitingForBoard and
//     Playing), plus Kicked after a Refuse 4;
//   - a wrong user name or password is retried on the same connection with a
//     new Info; after a successful login the credentials are kept, and a new
//     connection logs in again with them at once (the reference client
//     reconnects 500 ms after a close; the timer is the caller's);
//   - reply codes are the reference table (segment.Code*); Refuse is handled
//     in every state: 4 you were kicked by a newer login, 5 you kicked an
//     older session;
//   - coordinates go out as ASCII digits (Board, SingleCoord, DoubleCoord);
//     coordinates coming in are read in either encoding. A wrong double
//     guess is sent as a well-formed 4-byte DoubleCoord, not the reference
//     client's malformed 6-byte one;
//   - RecvInvit is dropped unless the client is idle in the lobby;
//   - the inviter guesses first, and a client guesses again only after it
//     has received the opponent's guess;
//   - the opponent's Board, forwarded by the server once both boards are
//     in, starts play; the client judges its own guesses against it (Wrong,
//     Body, Head; a double is right when it names one of the three planes)
//     and declares victory when all 30 cells are revealed, sending GameOver
//     with length 0;
//   - a GameOver received in a game ends it: a loss when the opponent has
//     revealed all 30 of our cells, otherwise the opponent left.
//
// The opponent's board never leaves this package: callers see only the
// result of each of their own guesses (Mark, notices), which is what a human
// player sees. That is what keeps a bot built on it fair.
package client
