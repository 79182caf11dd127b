// Package bot is a Bomber guesser that plays fair and well, and draws boards.
//
// Fairness: a Guesser is told only the result of each of its own guesses
// (Wrong, Body or Head for a single; right or wrong for a double), never the
// enemy board, although the reference protocol sends that board to clients.
// It keeps the set of the 66,816 valid boards consistent with those results.
//
// Strategy: whenever a plane lies in every consistent board and is not yet
// fully revealed, it is declared by a double guess. Otherwise the guesser
// minimises the expected number of paid guesses still to come, where a paid
// guess is a single or a wrong double: each plane needs exactly one right
// double (or all its cells hit), so a right double is free and a double on a
// likely plane is a cheap yes/no question. Guesses are scored by a two-level
// expectimax over the answers: the six best guesses by one-step cost are
// expanded, each answer is valued by its best one-step guess, and a set of m
// boards left is valued by a measured cost curve (estimatePoints). Ties are
// broken by the injected rules.Rand, so a seed fixes the play.
//
// Strength over 10,000 uniformly random boards (BenchmarkStrength): about
// 13.9 guesses on average, against 15.1 for a greedy highest-entropy guesser
// that doubles planes once certain; see the benchmark for the exact figures.
//
// Levels (NewLevelGuesser): Hard is the strategy above and NewGuesser's
// default; Medium keeps the consistent boards, guesses the cell most likely
// to hold a plane and declares certain planes (about 22 guesses); Easy plays
// like a beginner, random cells and then mostly the cells next to its hits,
// singles only (about 76 guesses). BenchmarkLevels measures all three.
//
// A guess is never repeated: singles only go to cells whose answer is still
// open, doubles only to planes not tried. If the answers contradict every
// valid board (a broken opponent), the guesser sweeps the cells not guessed
// yet and then the planes not tried.
//
// SeatBot is the rules.Bot the hub seats: it draws boards with RandomBoard
// and, each turn, rebuilds a Guesser (Observed) from the seat's redacted game
// alone, so it knows only what its seat may know.
package bot
