// Package load is the Bomber load generator: a fleet of simulated clients on
// loopback that log in, idle, or pair up and play whole games (invitation,
// random boards, random non-repeating single guesses, a new game as soon as
// one ends).
//
// Guesses are sent closed-loop (a client answers its opponent's guess at
// once) or open-loop at a fixed total rate. In open-loop mode every guess has
// an intended send time on a per-game schedule, and its latency is measured
// from that intended time to the moment the opponent reads the relayed
// segment, so a slow server cannot hide its queueing by delaying the sender
// (no coordinated omission). Latencies go into HdrHistogram shards, and so
// does how late the client itself sent each guess, the part of the latency
// that is the load generator's own.
//
// After login, game clients play on poll loops (poll_linux.go): one OS
// thread per GOMAXPROCS waits in epoll_wait on its clients' sockets and on a
// timerfd for the next scheduled guess, so the client adds tens of
// microseconds, not the half millisecond a goroutine per connection with
// time.Sleep added. In open loop a player awaiting its opponent's guess is
// read ahead of the loop's other sockets (poller.awaiting), as a client on
// a machine of its own would read it, so a login storm's presence, which
// reaches every player at once, is not counted as relay latency.
// Config.Goroutines keeps that client to compare.
//
// Config.Relay drives the minimal relay of bench/relay, the floor the
// bench measures bomberd against: no login or invitation, the same games.
// The winner of every game sends GameOver, as the reference client does, so
// a server that only forwards it (the reference server, the relay) sees
// whole games one after another.
//
// Every connection is bounded in time (dial and login deadlines) and the
// fleet in count; more than about 28,000 connections need several
// 127.0.0.x source addresses (Config.Sources), one ephemeral port range each.
package load
