package leave

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"

	"atril/alphabet"
)

// Sample is one observation from self-play: a leave that a player kept
// (and then refilled from the bag) and the points it scored on its next
// turn.
type Sample struct {
	Leave alphabet.Rack
	Y     float64
}

// Learn fits a leave table to self-play samples. A leave's value is the
// difference it makes to the next turn's score: every sample's points
// minus the mean over all samples is regressed (least squares with a
// small ridge term, no intercept, so the empty leave is worth 0) on the
// number of copies of each tile and, for each letter, the number of
// duplicate pairs c(c−1)/2. The result has the form of the hand tables:
// a value per tile and a duplicate penalty per letter. Tiles that never
// appear get 0.
func Learn(name string, a *alphabet.Alphabet, samples []Sample, ridge float64) (*Spec, error) {
	if len(samples) == 0 {
		return nil, fmt.Errorf("learn %s: no samples", name)
	}
	n := a.Size() + 1 // tile features 0..Size (0 = blank)
	dim := n + a.Size()
	mean := 0.0
	for _, s := range samples {
		mean += s.Y
	}
	mean /= float64(len(samples))
	A := make([][]float64, dim)
	for i := range A {
		A[i] = make([]float64, dim+1)
	}
	x := make([]float64, dim)
	for _, s := range samples {
		for i := range x {
			x[i] = 0
		}
		for t := 0; t < n; t++ {
			c := float64(s.Leave[t])
			x[t] = c
			if t > 0 {
				x[n+t-1] = c * (c - 1) / 2
			}
		}
		y := s.Y - mean
		for i := 0; i < dim; i++ {
			if x[i] == 0 {
				continue
			}
			for j := 0; j < dim; j++ {
				A[i][j] += x[i] * x[j]
			}
			A[i][dim] += x[i] * y
		}
	}
	for i := 0; i < dim; i++ {
		A[i][i] += ridge
	}
	beta, err := solve(A)
	if err != nil {
		return nil, fmt.Errorf("learn %s: %w", name, err)
	}
	spec := &Spec{Name: name, Values: map[string]float64{}, DupBy: map[string]float64{}}
	spec.Values["?"] = round2(beta[0])
	for t := 1; t < n; t++ {
		l := a.String(alphabet.Tile(t))
		spec.Values[l] = round2(beta[t])
		spec.DupBy[l] = round2(-beta[n+t-1])
	}
	return spec, nil
}

func round2(x float64) float64 { return math.Round(x*100) / 100 }

// solve runs Gaussian elimination with partial pivoting on the augmented
// matrix A (dim × dim+1).
func solve(A [][]float64) ([]float64, error) {
	dim := len(A)
	for c := 0; c < dim; c++ {
		p := c
		for r := c + 1; r < dim; r++ {
			if math.Abs(A[r][c]) > math.Abs(A[p][c]) {
				p = r
			}
		}
		if math.Abs(A[p][c]) < 1e-12 {
			return nil, fmt.Errorf("singular system at column %d", c)
		}
		A[c], A[p] = A[p], A[c]
		for r := c + 1; r < dim; r++ {
			f := A[r][c] / A[c][c]
			if f == 0 {
				continue
			}
			for k := c; k <= dim; k++ {
				A[r][k] -= f * A[c][k]
			}
		}
	}
	x := make([]float64, dim)
	for r := dim - 1; r >= 0; r-- {
		s := A[r][dim]
		for k := r + 1; k < dim; k++ {
			s -= A[r][k] * x[k]
		}
		x[r] = s / A[r][r]
	}
	return x, nil
}

// Write saves a table as text: a comment line with the name, then one
// line per letter: the letter, its value and its duplicate penalty,
// separated by tabs ("?" is the blank).
func (s *Spec) Write(w io.Writer) error {
	var ls []string
	for l := range s.Values {
		ls = append(ls, l)
	}
	sort.Strings(ls)
	if _, err := fmt.Fprintf(w, "# leave table %s: letter, value, duplicate penalty\n", s.Name); err != nil {
		return err
	}
	for _, l := range ls {
		d := s.Dup
		if v, ok := s.DupBy[l]; ok {
			d = v
		}
		if _, err := fmt.Fprintf(w, "%s\t%g\t%g\n", l, s.Values[l], d); err != nil {
			return err
		}
	}
	return nil
}

// Read loads a table written by Write.
func Read(r io.Reader, name string) (*Spec, error) {
	s := &Spec{Name: name, Values: map[string]float64{}, DupBy: map[string]float64{}}
	sc := bufio.NewScanner(r)
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		f := strings.Split(text, "\t")
		if len(f) != 3 {
			return nil, fmt.Errorf("leave table %s, line %d: want letter, value and penalty separated by tabs", name, line)
		}
		v, err := strconv.ParseFloat(f[1], 64)
		if err != nil {
			return nil, fmt.Errorf("leave table %s, line %d: value: %w", name, line, err)
		}
		d, err := strconv.ParseFloat(f[2], 64)
		if err != nil {
			return nil, fmt.Errorf("leave table %s, line %d: penalty: %w", name, line, err)
		}
		if _, dup := s.Values[f[0]]; dup {
			return nil, fmt.Errorf("leave table %s, line %d: letter %q twice", name, line, f[0])
		}
		s.Values[f[0]] = v
		s.DupBy[f[0]] = d
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("leave table %s: %w", name, err)
	}
	if len(s.Values) == 0 {
		return nil, fmt.Errorf("leave table %s: no letters", name)
	}
	return s, nil
}
