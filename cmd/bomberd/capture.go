package main

import (
	"fmt"

	"go.uber.org/zap"

	"github.com/bomber-game/bomber/capture"
	"github.com/bomber-game/bomber/cmd/internal/config"
	"github.com/bomber-game/bomber/server"
)

// A capture is the transport's tap.
var _ server.Tap = (*capture.Capture)(nil)

// newCapture starts recording traffic as transcripts. Each file starts with
// the protocol settings as a "config:" line, so an in-process replay
// (bomber-replay) runs the hub the way this daemon ran it.
func newCapture(cfg *config.Config, log *zap.Logger) (*capture.Capture, error) {
	p := cfg.Protocol
	header := fmt.Sprintf("config: dialect=%s first=%s kick-grace=%s login-timeout=%s hide-unknown-users=%t login-failures=%d login-window=%s login-lockout=%s segment-rate=%d segment-burst=%d",
		p.Dialect, p.FirstGuess, p.KickGrace, cfg.Limits.LoginTimeout, p.HideUnknownUsers,
		cfg.Limits.LoginFailures, cfg.Limits.LoginWindow, cfg.Limits.LoginLockout, cfg.Limits.SegmentRate, cfg.Limits.SegmentBurst)
	c, err := capture.New(capture.Config{
		Dir: cfg.Capture.Dir, ShowPasswords: cfg.Capture.ShowPasswords,
		MaxFileBytes: cfg.Capture.MaxFileBytes, MaxFiles: cfg.Capture.MaxFiles,
		Header: []string{header},
	}, server.SystemClock{}, log)
	if err != nil {
		return nil, fmt.Errorf("capture: %w", err)
	}
	log.Info("capturing traffic", zap.String("dir", cfg.Capture.Dir), zap.Bool("show_passwords", cfg.Capture.ShowPasswords))
	return c, nil
}
