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
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/term"

	"github.com/bomber-game/bomber/cmd/internal/cli"
	"github.com/bomber-game/bomber/rules/bomber/bot"
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
	level    bot.Level     // bot: how well it plays
	think    time.Duration // bot: pause before each guess, so people can follow
	tables   bool          // the extended protocol: lobby, tables, every game
	replay   string        // a game record file to replay
	web      string        // tables: the web page invite links point at
	join     string        // tables: an invitation to follow once logged in
	play     string        // the tables client seeks this game at login ("GAME [MINUTES] [rated]")
}

// defaultThink is the bot's pause before each guess: long enough to see
// each guess land, short enough not to bore.
const defaultThink = 600 * time.Millisecond

const usageText = `bomber: play Bomber in a terminal, or run a bot.

Usage:
  bomber [flags]                          play (log in, invite, draw, guess)
  bomber --bot --user NAME --password PW  run a computer player
  bomber --tables [flags]                 the lobby, tables and every game
                                          (keys below; docs/client.md)
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
  --level L          bot: easy (default; plays like a beginner: random cells,
                     then the cells around its hits), medium (knows the plane
                     shapes, guesses the likeliest cell) or hard (its best:
                     about 14 guesses a game)
  --think D          bot: pause before each guess (default 600ms; 0: none)
  --mono             no colours (also when NO_COLOR is set)
  --tables           the tables client (extended protocol): the lobby of
                     tables, chat, every game of the server's catalogue
  --play "GAME [MINUTES[+INC]] [rated]"
                     tables client: play GAME now once logged in (quick
                     pairing with someone of close rating; the key p does
                     the same from the lobby), e.g. --play "dots 3 rated"
  --replay FILE      step through an exported game record (JSON) instead
                     of connecting
  --join LINK        tables: once logged in, join the table of an invite
                     link (http://HOST/#t=7&c=ABC234; &w=1 watches it) or
                     of "7 ABC234" (number and join code); implies --tables
  --web URL          tables: the web page the invite links shown for a
                     table with a code open (default http://HOST:20380/,
                     HOST from --addr: bomberd's default web listener)
  --version          print the version
  -h, --help         this help

Keys (play):
  everywhere     ctrl+c quit; in a game q asks, then y quits
  login          type the name, tab or enter to the password, enter to log in
  lobby          up/down or k/j choose a user, enter or i invite, q quit
  invitation     a or y accept, r or n refuse
  drawing        arrows or h/j/k/l move, r rotate, enter or space place,
                 u undo, s send the three planes; the cursor offers each
                 plane of a random valid board (enter three times gives
                 one nobody can predict); a plane that does not fit is
                 shown with ! before you can place it
  playing        arrows or h/j/k/l move on the opponent's board,
                 enter or space guess one cell,
                 d mark a head then d (or enter) on the tail centre to guess
                 a whole plane, esc cancel the mark
  result         enter back to the lobby, q quit
  kicked         r log in again here (logs the other session out), q quit
  disconnected   the client reconnects every 0.5 s and logs in again by
                 itself; q quits

Boards: rows A..J from the top, columns 0..9 from the left. Your board:
  a b c your three planes  @ a head  o their miss  X their hit.
  Opponent's board: . unknown  o miss  # hit  @ head hit; after the game,
  a b c @ where their planes were.  The inviter guesses first.

Keys (--tables):
  everywhere     ctrl+c quit
  lobby          up/down or k/j choose a table, enter sit at it, w watch it,
                 c create a table, J join (W watch) by invite link or by
                 number and code (7 ABC234), a accept the last invitation,
                 t chat, r refresh, q quit
  create form    up/down field, left/right change, enter create, esc back;
                 start: when every player is ready or when the host starts
                 it; chat: one room for players and watchers or watchers
                 apart; a private table shows its invite links to share
  at a table     r ready (again after a game), b give the computer one
                 empty seat (creator, before the game), i invite a user,
                 t chat, q leave (twice during a game: leaving resigns)
  playing        arrows or h/j/k/l move, enter or space pick a piece then
                 play it to a * place, tab show the next legal move (enter
                 plays it), esc drop the piece, : or m type a move in the
                 game's notation, d offer a draw, u offer a takeback (where
                 the game has them), y / n answer an offer, R R resign;
                 Aeroplane Chess: enter rolls, 1-4 move that piece;
                 Pai Sho: 1-7 take a tile from the hand; Bomber: enter
                 places the random board offered, or draw your own: p on
                 a + cell picks a head, p on a + tail places the plane
                 (+ comes from the server: where a plane may go); then
                 enter guesses the cell
  after a game   M offer a rematch, v replay the game, r ready
  replay         right/n next move, left/p previous, home/end first and
                 last position, q leave
`

// flagSet is the command line's flags, writing into cfg; level is --level
// before it is parsed.
func flagSet(cfg *config) (fs *flag.FlagSet, level *string) {
	fs = flag.NewFlagSet("bomber", flag.ContinueOnError)
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
	fs.StringVar(&cfg.web, "web", "", "tables: the web page for invite links")
	fs.StringVar(&cfg.join, "join", "", "tables: join or watch a table by link or number and code")
	fs.StringVar(&cfg.play, "play", "", "tables client: play this game now")
	level = fs.String("level", "easy", "bot: easy, medium or hard")
	fs.DurationVar(&cfg.think, "think", defaultThink, "bot: pause before each guess")
	return fs, level
}

// parseFlags parses the command line. done reports that main should exit
// with code at once: after --help (usage on stdout), --version, or a wrong
// command line (what was wrong and the usage on stderr, code 2).
func parseFlags(args []string, stdout, stderr io.Writer) (cfg config, done bool, code int) {
	fs, level := flagSet(&cfg)
	usage := func(w io.Writer) { io.WriteString(w, usageText) }
	if done, code := cli.ParseStd(fs, args, stdout, stderr, usage); done {
		return cfg, true, code
	}
	fail := func(format string, a ...any) (config, bool, int) {
		return cfg, true, cli.Fail(stderr, "bomber", fmt.Sprintf(format, a...), usage)
	}
	if fs.NArg() > 0 {
		return fail("unexpected argument %q", fs.Arg(0))
	}
	if cfg.games < 0 {
		return fail("--games must be 0 or more")
	}
	if cfg.think < 0 {
		return fail("--think must be 0 or more")
	}
	lv, err := bot.ParseLevel(*level)
	if err != nil {
		return fail("--level: %v", err)
	}
	cfg.level = lv
	if !cfg.bot && (cfg.invite != "" || cfg.games != 0) {
		return fail("--invite and --games are for --bot")
	}
	if cfg.join != "" {
		if _, err := parseInvite(cfg.join); err != nil {
			return fail("--join: %v", err)
		}
		cfg.tables = true
	}
	return cfg, false, 0
}

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	cfg, done, code := parseFlags(args, stdout, stderr)
	if done {
		return code
	}
	if cfg.bot {
		return botMain(cfg)
	}
	if cfg.tables || cfg.replay != "" || cfg.play != "" {
		return tablesMain(cfg)
	}
	return playMain(cfg)
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
