//go:build linux

package main

import (
	"encoding/xml"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

func hist(values ...time.Duration) *hdrhistogram.Histogram {
	h := hdrhistogram.New(1000, int64(time.Minute), 3)
	for _, v := range values {
		h.RecordValue(int64(v))
	}
	return h
}

// TestPlotShowsEveryServer: the bench's SVG is well-formed, draws one line
// per server at the top fixed rate both ran and one per client of the load
// generator check, and its legend gives each line's p50.
func TestPlotShowsEveryServer(t *testing.T) {
	res := &results{opts: options{transports: []string{"reactor"}, games: []int{1000}, rates: []float64{2000, 13700}},
		byTr: map[string]*trResult{floorName: newTrResult(), "reactor": newTrResult()}}
	res.byTr[floorName].series[13700] = latRun{hist: hist(90*time.Microsecond, 100*time.Microsecond, 3*time.Millisecond)}
	res.byTr["reactor"].series[13700] = latRun{hist: hist(200*time.Microsecond, 250*time.Microsecond, 20*time.Millisecond)}
	res.byTr[floorName].series[2000] = latRun{hist: hist(time.Millisecond)} // only the top rate is drawn
	res.client = []clientRun{{cClient, latRun{hist: hist(100 * time.Microsecond)}}, {pollClient, latRun{hist: hist(150 * time.Microsecond)}}, {goroutineClient, latRun{hist: hist(700 * time.Microsecond)}},
		{cClient, latRun{hist: hist(120 * time.Microsecond)}}} // each client's first run is drawn
	path := filepath.Join(t.TempDir(), "lat.svg")
	if err := writePlot(path, res); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	svg := string(b)
	dec := xml.NewDecoder(strings.NewReader(svg))
	lines := 0
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("not well-formed XML: %v", err)
		}
		if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "polyline" {
			lines++
		}
	}
	if lines != 5 {
		t.Errorf("%d lines drawn, want 5 (relay, reactor, three clients)", lines)
	}
	for _, want := range []string{"13700 guesses/s", "minimal relay (floor): p50 100 µs", "bomberd reactor: p50 250 µs", "goroutine-per-connection client: p50 700 µs", "minimal C client: p50 100 µs"} {
		if !strings.Contains(svg, want) {
			t.Errorf("the plot lacks %q", want)
		}
	}
}
