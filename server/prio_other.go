//go:build !linux

package server

// lowerPriority does nothing where threads have no priority of their own.
func lowerPriority() {}

// leaveLoopCPU does nothing where threads have no CPU affinity of their own.
func leaveLoopCPU() {}

// nameThread does nothing where threads have no name of their own.
func nameThread(string) {}

// YieldProcess does nothing where threads have no priority of their own.
func YieldProcess() {}
