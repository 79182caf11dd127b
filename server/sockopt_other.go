//go:build !linux

package server

// sendQueuedFD: this system's kernel-held output is not read; only the
// bounded send buffer limits it.
func sendQueuedFD(int) int { return 0 }
