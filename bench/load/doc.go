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
// (no coordinated omission). Latencies go into HdrHistogram shards.
//
// Every connection is bounded in time (dial and login deadlines) and the
// fleet in count; more than about 28,000 connections need several
// 127.0.0.x source addresses (Config.Sources), one ephemeral port range each.
package load
