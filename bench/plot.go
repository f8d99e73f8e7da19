package bench

import (
	"fmt"
	"image/color"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

var palette = []color.NRGBA{
	{R: 0x1f, G: 0x77, B: 0xb4, A: 0xff}, {R: 0xd6, G: 0x27, B: 0x28, A: 0xff},
	{R: 0x2c, G: 0xa0, B: 0x2c, A: 0xff}, {R: 0xff, G: 0x7f, B: 0x0e, A: 0xff},
	{R: 0x94, G: 0x67, B: 0xbd, A: 0xff}, {R: 0x8c, G: 0x56, B: 0x4b, A: 0xff},
}

// addLine adds a line with points in the i-th palette colour.
func addLine(p *plot.Plot, i int, name string, xys plotter.XYs) error {
	l, s, err := plotter.NewLinePoints(xys)
	if err != nil {
		return err
	}
	c := palette[i%len(palette)]
	l.Color, s.Color = c, c
	s.Shape = draw.CircleGlyph{}
	s.Radius = vg.Points(2)
	p.Add(l, s)
	p.Legend.Add(name, l, s)
	return nil
}

// CountersPath is the file the counters plot goes to next to the time
// plot at path: name-counters.png.
func CountersPath(path string) string {
	if i := strings.LastIndexByte(path, '.'); i > 0 {
		return path[:i] + "-counters" + path[i:]
	}
	return path + "-counters"
}

// Plot draws the average time per turn of every algorithm (Sánchez Bello
// 2025 Figure 6.4, Anagram 2018 Table 2) and saves it to path (.png, .svg,
// .pdf).
// When some algorithm keeps counters it also writes CountersPath(path):
// Hand-Interval instances and candidates per turn (Figures 6.1 and 6.3).
func (r *MovegenResult) Plot(path string) error {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%s (%s): move generation time per turn, %d greedy games", r.Variant, r.Lexicon, r.Games)
	p.X.Label.Text = "turn"
	p.Y.Label.Text = "ms per position (mean of medians)"
	for ai, a := range r.Algos {
		xys := make(plotter.XYs, 0, len(r.Turns))
		for _, row := range r.Turns {
			if row.Positions > 0 {
				xys = append(xys, plotter.XY{X: float64(row.Turn), Y: float64(row.Time[ai]) / 1e6 / float64(row.Positions)})
			}
		}
		if err := addLine(p, ai, a, xys); err != nil {
			return fmt.Errorf("plot %s: %w", path, err)
		}
	}
	p.Legend.Top = true
	p.Add(plotter.NewGrid())
	if err := p.Save(10*vg.Inch, 5*vg.Inch, path); err != nil {
		return fmt.Errorf("plot %s: %w", path, err)
	}
	any := false
	for _, c := range r.Counted {
		any = any || c
	}
	if !any {
		return nil
	}
	cp := CountersPath(path)
	q := plot.New()
	q.Title.Text = fmt.Sprintf("%s: Hand-Interval instances and candidate words per turn", r.Variant)
	q.X.Label.Text = "turn"
	q.Y.Label.Text = "per position (log scale)"
	q.Y.Scale = plot.LogScale{}
	q.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	k := 0
	for ai, a := range r.Algos {
		if !r.Counted[ai] {
			continue
		}
		for _, what := range []string{"instances", "candidates"} {
			xys := make(plotter.XYs, 0, len(r.Turns))
			for _, row := range r.Turns {
				v := row.Instances[ai]
				if what == "candidates" {
					v = row.Candidates[ai]
				}
				if v > 0 && row.Positions > 0 {
					xys = append(xys, plotter.XY{X: float64(row.Turn), Y: float64(v) / float64(row.Positions)})
				}
			}
			if len(xys) == 0 {
				continue
			}
			if err := addLine(q, k, a+" "+what, xys); err != nil {
				return fmt.Errorf("plot %s: %w", cp, err)
			}
			k++
		}
	}
	q.Legend.Top = true
	q.Add(plotter.NewGrid())
	if err := q.Save(10*vg.Inch, 5*vg.Inch, cp); err != nil {
		return fmt.Errorf("plot %s: %w", cp, err)
	}
	return nil
}

// Plot draws the index-table entries of the low- and high-level tables
// per threshold (Sánchez Bello 2025 Figure 5.6) with the IWM time per
// position on a second file, ThresholdTimePath(path).
func (r *ThresholdResult) Plot(path string) error {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%s (%s): IWM index-table entries by decision threshold", r.Variant, r.Lexicon)
	p.X.Label.Text = "decision threshold"
	p.Y.Label.Text = "index-table entries"
	var hi, lo, tot plotter.XYs
	for _, row := range r.Rows {
		x := float64(row.Threshold)
		hi = append(hi, plotter.XY{X: x, Y: float64(row.HighIndex)})
		lo = append(lo, plotter.XY{X: x, Y: float64(row.LowIndex)})
		tot = append(tot, plotter.XY{X: x, Y: float64(row.HighIndex + row.LowIndex)})
	}
	for i, s := range []struct {
		n string
		v plotter.XYs
	}{{"low-level table", lo}, {"high-level table", hi}, {"total", tot}} {
		if err := addLine(p, i, s.n, s.v); err != nil {
			return fmt.Errorf("plot %s: %w", path, err)
		}
	}
	p.Legend.Top = true
	p.Add(plotter.NewGrid())
	if err := p.Save(8*vg.Inch, 5*vg.Inch, path); err != nil {
		return fmt.Errorf("plot %s: %w", path, err)
	}
	tp := ThresholdTimePath(path)
	q := plot.New()
	q.Title.Text = fmt.Sprintf("%s: IWM time per position by decision threshold", r.Variant)
	q.X.Label.Text = "decision threshold"
	q.Y.Label.Text = "ms per position"
	all := plotter.XYs{}
	for _, row := range r.Rows {
		all = append(all, plotter.XY{X: float64(row.Threshold), Y: float64(row.Time) / 1e6 / float64(max(r.Positions, 1))})
	}
	if err := addLine(q, 0, "all positions", all); err != nil {
		return fmt.Errorf("plot %s: %w", tp, err)
	}
	for si, s := range Stages {
		if r.StagePositions[si] == 0 {
			continue
		}
		xys := plotter.XYs{}
		for _, row := range r.Rows {
			xys = append(xys, plotter.XY{X: float64(row.Threshold), Y: float64(row.StageTime[si]) / 1e6 / float64(r.StagePositions[si])})
		}
		if err := addLine(q, si+1, s.Name, xys); err != nil {
			return fmt.Errorf("plot %s: %w", tp, err)
		}
	}
	q.Legend.Top = true
	q.Add(plotter.NewGrid())
	if err := q.Save(8*vg.Inch, 5*vg.Inch, tp); err != nil {
		return fmt.Errorf("plot %s: %w", tp, err)
	}
	return nil
}

// ThresholdTimePath is the file of the time plot next to the
// index-entries plot at path: name-time.png.
func ThresholdTimePath(path string) string {
	if i := strings.LastIndexByte(path, '.'); i > 0 {
		return path[:i] + "-time" + path[i:]
	}
	return path + "-time"
}
