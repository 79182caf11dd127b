package main

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
)

// An invitation to a table in the words a person shares: the web page's
// link (http://HOST/#t=ID&c=CODE, &w=1 to watch), the link's fragment
// alone, or the table's number and join code ("7 ABC234"). The tables
// client prints the link after creating a table with a code, and follows
// one given to --join or typed at J (join) or W (watch) in the lobby.

// invite is a table to join or watch, with its join code.
type invite struct {
	table uint32
	code  string
	watch bool
}

// errInvite says what an invitation looks like.
var errInvite = errors.New("give a link (…#t=7&c=ABC234) or the table number and its join code (7 ABC234)")

// parseInvite reads an invitation: a link or fragment with t=ID and c=CODE
// (w=1: watch), or "ID CODE" ("#7 ABC234"; the code may be left out for
// a table without one).
func parseInvite(text string) (invite, error) {
	text = strings.TrimSpace(text)
	if i := strings.Index(text, "#"); i >= 0 && strings.Contains(text[i:], "t=") {
		q, err := url.ParseQuery(text[i+1:])
		if err != nil {
			return invite{}, errInvite
		}
		id, err := strconv.ParseUint(q.Get("t"), 10, 32)
		if err != nil || id == 0 {
			return invite{}, errInvite
		}
		return invite{table: uint32(id), code: strings.ToUpper(strings.TrimSpace(q.Get("c"))), watch: q.Get("w") == "1"}, nil
	}
	f := strings.Fields(text)
	if len(f) == 0 || len(f) > 2 {
		return invite{}, errInvite
	}
	id, err := strconv.ParseUint(strings.TrimPrefix(f[0], "#"), 10, 32)
	if err != nil || id == 0 {
		return invite{}, errInvite
	}
	inv := invite{table: uint32(id)}
	if len(f) == 2 {
		inv.code = strings.ToUpper(f[1])
	}
	return inv, nil
}

// defaultWebPort is the port of bomberd's web listener in its default
// configuration (web.listen).
const defaultWebPort = "20380"

// webBase is the web page invite links point at: --web, or else the host
// of --addr with the web listener's default port.
func webBase(cfg config) string {
	if cfg.web != "" {
		if !strings.HasSuffix(cfg.web, "/") {
			return cfg.web + "/"
		}
		return cfg.web
	}
	host, _, err := net.SplitHostPort(cfg.addr)
	if err != nil || host == "" {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, defaultWebPort) + "/"
}

// inviteLink is the link that opens the web page, logs in and joins (or
// watches) the table: the same link the web client shares.
func inviteLink(base string, id uint32, code string, watch bool) string {
	l := fmt.Sprintf("%s#t=%d&c=%s", base, id, url.QueryEscape(code))
	if watch {
		l += "&w=1"
	}
	return l
}
