//go:build linux

package main

import (
	"fmt"
	"math"
	"os"
	"strings"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

// A small SVG writer for the one chart the bench draws: relay latency by
// percentile (x: 0, 90, 99, 99.9, 99.99 %, evenly spaced as 1/(1-q) grows
// tenfold; y: latency, logarithmic), one line per server at the highest
// fixed rate both ran, and the two load generator clients on the floor.
// No plotting library: the module proxy may not be reachable where the
// bench runs, and the chart needs a few dozen lines of SVG.

type series struct {
	name  string
	color string
	dash  bool
	h     *hdrhistogram.Histogram
}

// quantiles are the x positions: q = 1 - 10^-x for x in [0, 4].
func quantile(x float64) float64 { return 100 * (1 - math.Pow(10, -x)) }

var palette = map[string]string{
	floorName: "#1b7837", refName: "#762a83", "reactor": "#2166ac", "net": "#b2182b",
}

// plotSeries picks what the chart shows.
func plotSeries(res *results) (title string, ss []series) {
	var rate float64
	for _, r := range res.opts.rates {
		ok := true
		for _, tr := range res.columns() {
			if _, ran := res.byTr[tr].series[r]; !ran {
				ok = false
			}
		}
		if ok {
			rate = max(rate, r)
		}
	}
	if rate > 0 {
		for _, tr := range res.columns() {
			name := tr
			if tr == floorName {
				name = "minimal relay (floor)"
			} else if tr != refName {
				name = "bomberd " + tr
			}
			ss = append(ss, series{name: name, color: cmpOr(palette[tr], "#444"), h: res.byTr[tr].series[rate].hist})
		}
		title = fmt.Sprintf("Relay latency by percentile, open loop at %.0f guesses/s, %s games", rate, kilo(res.opts.games[0]))
	}
	drawn := map[clientKind]bool{}
	for _, c := range res.client {
		if drawn[c.kind] {
			continue // the first of each client
		}
		drawn[c.kind] = true
		col := map[clientKind]string{pollClient: "#1b7837", goroutineClient: "#999999", cClient: "#762a83"}[c.kind]
		ss = append(ss, series{name: fmt.Sprintf("relay, %d games at %d/s, %s", checkGames, checkRate, c.kind), color: col, dash: true, h: c.hist})
	}
	if title == "" {
		title = "Relay latency by percentile"
	}
	return title, ss
}

// writePlot writes the chart to path.
func writePlot(path string, res *results) error {
	title, ss := plotSeries(res)
	if len(ss) == 0 {
		return nil
	}
	svg := renderPlot(title, ss)
	if err := os.WriteFile(path, []byte(svg), 0o644); err != nil {
		return fmt.Errorf("writing the latency plot: %w", err)
	}
	return nil
}

func renderPlot(title string, ss []series) string {
	const (
		W, H                     = 760.0, 480.0
		left, right, top, bottom = 70.0, 20.0, 40.0, 150.0
	)
	pw, ph := W-left-right, H-top-bottom
	// y range: decades around the data, in microseconds
	lo, hi := math.Inf(1), 0.0
	const steps = 80
	pts := make([][][2]float64, len(ss))
	for i, s := range ss {
		for k := 0; k <= steps; k++ {
			x := 4 * float64(k) / steps
			v := float64(s.h.ValueAtQuantile(quantile(x))) / 1e3
			v = max(v, 1)
			lo, hi = min(lo, v), max(hi, v)
			pts[i] = append(pts[i], [2]float64{x, v})
		}
	}
	dlo, dhi := math.Floor(math.Log10(lo)), math.Ceil(math.Log10(hi))
	if dhi <= dlo {
		dhi = dlo + 1
	}
	X := func(x float64) float64 { return left + pw*x/4 }
	Y := func(v float64) float64 { return top + ph*(1-(math.Log10(v)-dlo)/(dhi-dlo)) }
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" font-family="sans-serif" font-size="12">`+"\n", W, H, W, H)
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="white"/>`+"\n")
	fmt.Fprintf(&b, `<text x="%.0f" y="22" font-size="14" font-weight="bold">%s</text>`+"\n", left, esc(title))
	// grid: decades on y (with 2 and 5 in between), percentiles on x
	for d := dlo; d <= dhi; d++ {
		for _, m := range []float64{1, 2, 5} {
			v := m * math.Pow(10, d)
			if math.Log10(v) > dhi+1e-9 {
				break
			}
			y := Y(v)
			stroke, width := "#e0e0e0", 1.0
			if m == 1 {
				stroke = "#bbbbbb"
			}
			fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="%.1f"/>`+"\n", left, y, left+pw, y, stroke, width)
			fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="end">%s</text>`+"\n", left-6, y+4, durLabel(v))
		}
	}
	for i, lab := range []string{"p0", "p50", "p90", "p99", "p99.9", "p99.99"} {
		x := X(max(float64(i-1), 0))
		if lab == "p50" {
			x = X(math.Log10(2)) // 1/(1-q) = 2
		}
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#bbbbbb"/>`+"\n", x, top, x, top+ph)
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle">%s</text>`+"\n", x, top+ph+18, lab)
	}
	fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle">percentile (each step: ten times rarer)</text>`+"\n", left+pw/2, top+ph+36)
	fmt.Fprintf(&b, `<text transform="translate(16 %.1f) rotate(-90)" text-anchor="middle">latency from intended send (log scale)</text>`+"\n", top+ph/2)
	fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="none" stroke="#444"/>`+"\n", left, top, pw, ph)
	for i, s := range ss {
		var d []string
		for _, p := range pts[i] {
			d = append(d, fmt.Sprintf("%.1f,%.1f", X(p[0]), Y(p[1])))
		}
		dash := ""
		if s.dash {
			dash = ` stroke-dasharray="6 4"`
		}
		fmt.Fprintf(&b, `<polyline fill="none" stroke="%s" stroke-width="2"%s points="%s"/>`+"\n", s.color, dash, strings.Join(d, " "))
		// legend below the plot, with each line's p50 and p99
		ly := top + ph + 58 + 18*float64(i)
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="2"%s/>`+"\n", left, ly-4, left+30, ly-4, s.color, dash)
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f">%s: p50 %s, p99 %s</text>`+"\n", left+38, ly, esc(s.name),
			durLabel(float64(s.h.ValueAtQuantile(50))/1e3), durLabel(float64(s.h.ValueAtQuantile(99))/1e3))
	}
	b.WriteString("</svg>\n")
	return b.String()
}

// durLabel writes microseconds as µs below a millisecond, ms or s above.
func durLabel(v float64) string {
	switch {
	case v >= 1e6:
		return trimZero(fmt.Sprintf("%.2f", v/1e6)) + " s"
	case v >= 1e3:
		return trimZero(fmt.Sprintf("%.2f", v/1e3)) + " ms"
	}
	return trimZero(fmt.Sprintf("%.0f", v)) + " µs"
}

func trimZero(s string) string {
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}

func esc(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}
