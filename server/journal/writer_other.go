//go:build !linux

package journal

import "os"

// mapped is nil here: segments are written with pwrite(2).
func mapped(*os.File, int64) writer { return nil }
