// Package web holds the browser client's files that bomberd serves at / on
// its web listener (the gateway, package server/ws). dist/ is the built
// client, embedded so that the daemon is one file and `make run` serves it
// on a fresh machine.
package web

import (
	"embed"
	"io/fs"
)

//go:embed dist
var dist embed.FS

// FS is the client's files, rooted at dist/ (index.html at its top).
func FS() fs.FS {
	sub, err := fs.Sub(dist, "dist")
	if err != nil {
		panic("web: " + err.Error()) // dist is embedded at build time: cannot fail
	}
	return sub
}
