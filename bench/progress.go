package bench

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

// Progress draws a progress bar on a terminal; on anything else it
// draws nothing.
type Progress struct {
	w     io.Writer
	label string
	total int
	start time.Time
	last  time.Time
	on    bool
}

// IsTerminal reports whether f is a character device (a terminal).
func IsTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// NewProgress starts a bar of total steps on f when f is a terminal.
func NewProgress(f *os.File, label string, total int) *Progress {
	return &Progress{w: f, label: label, total: total, start: time.Now(), on: IsTerminal(f)}
}

// Set shows done steps out of the total (redrawn at most 5 times a
// second, and always at the end).
func (p *Progress) Set(done int) {
	if p == nil || !p.on {
		return
	}
	now := time.Now()
	if done < p.total && now.Sub(p.last) < 200*time.Millisecond {
		return
	}
	p.last = now
	fmt.Fprint(p.w, "\r"+p.Line(done, now.Sub(p.start)))
	if done >= p.total {
		fmt.Fprintln(p.w)
	}
}

// Line renders the bar for done steps after elapsed time.
func (p *Progress) Line(done int, elapsed time.Duration) string {
	const width = 30
	frac := 0.0
	if p.total > 0 {
		frac = min(float64(done)/float64(p.total), 1)
	}
	n := int(frac * width)
	eta := "?"
	if done > 0 {
		eta = (time.Duration(float64(elapsed) * (1/frac - 1))).Round(time.Second).String()
	}
	return fmt.Sprintf("%s [%s%s] %d/%d %3.0f%% elapsed %v eta %s ", p.label, strings.Repeat("#", n),
		strings.Repeat(".", width-n), done, p.total, 100*frac, elapsed.Round(time.Second), eta)
}
