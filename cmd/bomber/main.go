// Command bomber is Bomber's terminal client, and with --bot a computer
// player. It speaks the segment protocol exactly like the reference client,
// so it plays against bomberd or any compatible server.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/term"
)

// config is what the flags set.
type config struct {
	addr     string
	user     string
	password string
	bot      bool
	invite   string
	games    int
	seed     uint64
	mono     bool
	tables   bool   // the extended protocol: lobby, tables, every game
	replay   string // a game record file to replay
}

const usageText = `bomber: play Bomber in a terminal, or run a bot.

Usage:
  bomber [flags]                          play (log in, invite, draw, guess)
  bomber --bot --user NAME --password PW  run a computer player
  bomber --tables [flags]                 the lobby, tables and every game
                                          (keys: docs/client.md)
  bomber --replay FILE.json               step through a game record
                                          (bomberctl games export ID --json)

Flags:
  --addr HOST:PORT   server address (default 127.0.0.1:20343)
  --user NAME        user name (play: fills the login form; bot: required)
  --password PW      password (play: logs in at once with --user; without it
                     the login form asks; bot: read from BOMBER_PASSWORD when
                     the flag is absent, else asked on the terminal)
  --bot              run a bot instead of the terminal UI: it logs in, accepts
                     every invitation (or invites --invite), draws a random
                     board and guesses from what its guesses revealed only
  --invite NAME      bot: invite NAME (again after each game) instead of
                     waiting to be invited
  --games N          bot: stop after N finished games (default 0: forever)
  --seed N           bot: random seed for boards and ties (default: from the
                     clock); the same seed plays the same way
  --mono             no colours (also when NO_COLOR is set)
  -h, --help         this help

Keys (play):
  everywhere     ctrl+c quit
  login          type the name, tab or enter to the password, enter to log in
  lobby          up/down or k/j choose a user, enter or i invite, q quit
  invitation     a or y accept, r or n refuse
  drawing        arrows or h/j/k/l move, r rotate, enter or space place,
                 u undo, s send the three planes; a plane that does not fit
                 is shown with ! before you can place it
  playing        arrows or h/j/k/l move on the opponent's board,
                 enter or space guess one cell,
                 d mark a head then d (or enter) on the tail centre to guess
                 a whole plane, esc cancel the mark
  result         enter back to the lobby
  kicked         r log in again here (logs the other session out), q quit
  disconnected   the client reconnects every 0.5 s and logs in again by
                 itself; q quits

Boards: rows A..J from the top, columns 0..9 from the left. Your board:
  # plane  @ head  o their miss  X their hit.  Opponent's board: . unknown
  o miss  # hit  @ head hit.  The inviter guesses first.
`

func parseFlags(args []string, stderr io.Writer) (config, error) {
	var cfg config
	fs := flag.NewFlagSet("bomber", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {} // main prints usageText for --help; errors say see --help
	fs.StringVar(&cfg.addr, "addr", "127.0.0.1:20343", "server address")
	fs.StringVar(&cfg.user, "user", "", "user name")
	fs.StringVar(&cfg.password, "password", "", "password")
	fs.BoolVar(&cfg.bot, "bot", false, "run a bot")
	fs.StringVar(&cfg.invite, "invite", "", "bot: user to invite")
	fs.IntVar(&cfg.games, "games", 0, "bot: games to play (0: forever)")
	fs.Uint64Var(&cfg.seed, "seed", 0, "bot: random seed")
	fs.BoolVar(&cfg.mono, "mono", false, "no colours")
	fs.BoolVar(&cfg.tables, "tables", false, "tables client")
	fs.StringVar(&cfg.replay, "replay", "", "replay a game record")
	if err := fs.Parse(args); err != nil {
		return cfg, err
	}
	if fs.NArg() > 0 {
		return cfg, fmt.Errorf("unexpected argument %q (see --help)", fs.Arg(0))
	}
	if cfg.games < 0 {
		return cfg, fmt.Errorf("--games must be 0 or more")
	}
	if !cfg.bot && (cfg.invite != "" || cfg.games != 0) {
		return cfg, fmt.Errorf("--invite and --games are for --bot")
	}
	return cfg, nil
}

func main() {
	cfg, err := parseFlags(os.Args[1:], os.Stderr)
	if err == flag.ErrHelp {
		fmt.Print(usageText)
		return
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "bomber:", err, "(see --help)")
		os.Exit(2)
	}
	if cfg.bot {
		os.Exit(botMain(cfg))
	}
	if cfg.tables || cfg.replay != "" {
		os.Exit(tablesMain(cfg))
	}
	os.Exit(playMain(cfg))
}

func botMain(cfg config) int {
	if cfg.user == "" {
		fmt.Fprintln(os.Stderr, "bomber: --bot needs --user")
		return 2
	}
	if cfg.password == "" {
		cfg.password = os.Getenv("BOMBER_PASSWORD")
	}
	if cfg.password == "" {
		pw, err := askPassword()
		if err != nil {
			fmt.Fprintln(os.Stderr, "bomber:", err)
			return 2
		}
		cfg.password = pw
	}
	if cfg.seed == 0 {
		cfg.seed = clockSeed()
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := runBot(ctx, cfg, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "bomber:", err)
		return 1
	}
	return 0
}

func askPassword() (string, error) {
	if !term.IsTerminal(os.Stdin.Fd()) {
		return "", fmt.Errorf("no password: use --password or BOMBER_PASSWORD")
	}
	fmt.Fprint(os.Stderr, "password: ")
	b, err := term.ReadPassword(os.Stdin.Fd())
	fmt.Fprintln(os.Stderr)
	return strings.TrimRight(string(b), "\r\n"), err
}

func playMain(cfg config) int {
	opts := []tea.ProgramOption{}
	if cfg.mono || os.Getenv("NO_COLOR") != "" {
		opts = append(opts, tea.WithColorProfile(colorprofile.ASCII))
	}
	m := newModel(cfg, newStyles(), func(gen int) tea.Cmd { return dialCmd(cfg.addr, gen) })
	if _, err := tea.NewProgram(m, opts...).Run(); err != nil {
		fmt.Fprintln(os.Stderr, "bomber:", err)
		return 1
	}
	return 0
}

func errHelp() error { return flag.ErrHelp }
