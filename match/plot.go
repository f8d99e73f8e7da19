package match

import (
	"fmt"
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// Plot draws the distribution of both players' final scores as two
// overlaid histograms and saves it to path (the format follows the
// extension: .png, .svg, .pdf).
func (r *Report) Plot(path string) error {
	p := plot.New()
	s := r.Summaries()
	p.Title.Text = fmt.Sprintf("%s: %s vs %s, %d games (seed %d)", r.Config.Variant.Name, s[0].Name, s[1].Name, len(r.Games), r.Config.Seed)
	p.X.Label.Text = "final score"
	p.Y.Label.Text = "games"
	lo, hi := r.Games[0].Score[0], r.Games[0].Score[0]
	for i := range r.Games {
		for k := 0; k < 2; k++ {
			lo, hi = min(lo, r.Games[i].Score[k]), max(hi, r.Games[i].Score[k])
		}
	}
	bins := max(10, min(60, (hi-lo)/10))
	colors := []color.NRGBA{{R: 0x1f, G: 0x77, B: 0xb4, A: 0x90}, {R: 0xd6, G: 0x27, B: 0x28, A: 0x90}}
	for k := 0; k < 2; k++ {
		vals := make(plotter.Values, len(r.Games))
		for i := range r.Games {
			vals[i] = float64(r.Games[i].Score[k])
		}
		h, err := plotter.NewHist(vals, bins)
		if err != nil {
			return fmt.Errorf("plot %s: %w", path, err)
		}
		// Same bin edges for both players.
		w := float64(hi-lo+1) / float64(bins)
		for b := range h.Bins {
			h.Bins[b].Min = float64(lo) + float64(b)*w
			h.Bins[b].Max = h.Bins[b].Min + w
			h.Bins[b].Weight = 0
		}
		for _, x := range vals {
			b := min(int((x-float64(lo))/w), bins-1)
			h.Bins[b].Weight++
		}
		h.FillColor = colors[k]
		h.LineStyle.Color = color.NRGBA{A: 0x60}
		p.Add(h)
		label := fmt.Sprintf("player %d %s (mean %.0f)", k+1, s[k].Name, s[k].PointsGame)
		p.Legend.Add(label, h)
	}
	p.Legend.Top = true
	if err := p.Save(10*vg.Inch, 5*vg.Inch, path); err != nil {
		return fmt.Errorf("plot %s: %w", path, err)
	}
	return nil
}
