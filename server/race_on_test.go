//go:build race

package server_test

// raceOn: the race detector slows everything several times over.
const raceOn = true
