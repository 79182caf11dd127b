//go:build !unix

package server

// ReservedDescriptors is what the daemon keeps for itself besides its
// connections and listeners.
const ReservedDescriptors = 64

// FileLimit is what FitFileLimit found.
type FileLimit struct {
	Soft, Hard uint64
	Raised     bool
	Fit        int
}

// FitFileLimit has no descriptor limit to check off Unix: everything fits.
func FitFileLimit(int) (FileLimit, error) { return FileLimit{Fit: int(^uint(0) >> 1)}, nil }
