package browsertest

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"testing"
	"time"
)

// refClient is a reference-protocol client over TCP: the segments the
// reference Electron client sends (no Hello).
type refClient struct {
	t *testing.T
	c net.Conn
	r *bufio.Reader
}

func dialRef(t *testing.T, addr, name string) *refClient {
	c, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	rc := &refClient{t: t, c: c, r: bufio.NewReader(c)}
	rc.send(0x00, []byte(name))  // Info
	rc.expect(0x01)              // InfoResp
	rc.send(0x02, []byte("123")) // Passwd
	if b := rc.expect(0x03); len(b) != 1 || b[0] != 1 {
		t.Fatalf("%s: login refused: %v", name, b)
	}
	return rc
}

func (rc *refClient) send(typ byte, payload []byte) {
	rc.t.Helper()
	seg := append([]byte{typ, byte(len(payload) >> 8), byte(len(payload))}, payload...)
	if _, err := rc.c.Write(seg); err != nil {
		rc.t.Fatal(err)
	}
}

// expect reads segments until one of type typ arrives (the user list and
// other news in between are skipped) and returns its payload.
func (rc *refClient) expect(typ byte) []byte {
	rc.t.Helper()
	rc.c.SetReadDeadline(time.Now().Add(step))
	for {
		var h [3]byte
		if _, err := io.ReadFull(rc.r, h[:]); err != nil {
			rc.t.Fatalf("reference client: waiting for segment %#02x: %v", typ, err)
		}
		p := make([]byte, int(h[1])<<8|int(h[2]))
		if _, err := io.ReadFull(rc.r, p); err != nil {
			rc.t.Fatal(err)
		}
		if h[0] == typ {
			return p
		}
	}
}

// duelWithReferenceClient has the browser user invite a reference-client
// user (Larry, over TCP) to Bomber the reference way and win the game.
func duelWithReferenceClient(t *testing.T, albert *page, tcp string) {
	larry := dialRef(t, tcp, "Larry")
	albert.wait("Larry online", `!!document.querySelector('#users [data-user="Larry"] .ref-invite')`)
	albert.click(`#users [data-user="Larry"] .ref-invite`)
	if from := string(larry.expect(0x0a)); from != "Albert" { // RecvInvit
		t.Fatalf("Larry was invited by %q", from)
	}
	larry.send(0x0b, []byte{1}) // accept
	albert.wait("the duel", `document.body.dataset.screen === 'duel'`)
	larry.send(0x0c, []byte("023207375282")) // Board: 02-32 07-37 52-82
	planes := [][2]string{{"02", "32"}, {"07", "37"}, {"52", "82"}}
	for k, pl := range planes {
		albert.clickJS(fmt.Sprintf(`#duel-svg [data-grid="0"] [data-cell="%s"]`, pl[0]))
		albert.wait("the head picked", `!!document.querySelector('#duel-svg .cell-pick')`)
		albert.clickJS(fmt.Sprintf(`#duel-svg [data-grid="0"] [data-cell="%s"]`, pl[1]))
		albert.wait("the plane drawn", fmt.Sprintf(`document.querySelector('#duel-controls').textContent.includes('Planes drawn: %d/3')`, k+1))
	}
	albert.click("#bomber-place")
	if b := string(larry.expect(0x0c)); b != "023207375282" { // Albert's board, once both are in
		t.Fatalf("Larry received Albert's board %q", b)
	}
	misses := []string{"55", "99"}
	for k, pl := range planes {
		albert.wait("Albert to guess", `document.querySelector('#duel-svg')?.dataset.canmove === '1'`)
		albert.clickJS("#mode-double")
		albert.clickJS(fmt.Sprintf(`#duel-svg [data-grid="1"] [data-cell="%s"]`, pl[0]))
		albert.wait("the head picked", `!!document.querySelector('#duel-svg .cell-pick')`)
		albert.clickJS(fmt.Sprintf(`#duel-svg [data-grid="1"] [data-cell="%s"]`, pl[1]))
		got := larry.expect(0x0e)
		if fmt.Sprintf("%d%d-%d%d", got[0], got[1], got[2], got[3]) != pl[0]+"-"+pl[1] {
			t.Fatalf("Larry received the double guess %v, want %s-%s", got, pl[0], pl[1])
		}
		if k < 2 {
			larry.send(0x0d, []byte(misses[k])) // SingleCoord, a miss
		}
	}
	larry.expect(0x0f) // GameOver: Larry lost
	albert.wait("Albert's win", `document.querySelector('#duel-info').dataset.over === '1' && document.querySelector('#duel-info').textContent.startsWith('You won')`)
	if n := eval[int](albert, `document.querySelectorAll('#duel-svg [data-grid="0"] .cell-miss').length`); n != 2 {
		t.Errorf("Albert's grid shows %d of Larry's misses, want 2", n)
	}
	albert.screenshotOf("#duel-svg", "bomber-duel")
	albert.click("#duel-back")
	albert.wait("the lobby", `document.body.dataset.screen === 'lobby'`)
}
