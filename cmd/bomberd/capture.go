package main

import (
	"errors"
	"io"

	"go.uber.org/zap"

	"github.com/bomber-game/bomber/cmd/internal/config"
	"github.com/bomber-game/bomber/server"
)

func newCapture(c config.Capture, log *zap.Logger) (server.Tap, error) {
	return nil, errors.New("capture.enabled: capture is not built into this bomberd yet")
}

func (d *daemonState) tapCloser() (io.Closer, bool) { return nil, false }
