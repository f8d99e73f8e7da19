package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"atril/board"
	"atril/cgp"
	"atril/move"
	"atril/movegen"
	"atril/player"
	"atril/review"
)

func init() {
	register("analyze", "rank the moves of a CGP position by simulation, pre-endgame or endgame search, or every move of a GCG game by static equity", runAnalyze)
}

func runAnalyze(args []string) error {
	fs := flag.NewFlagSet("analyze", flag.ContinueOnError)
	vn, ln := envFlags(fs)
	pos := fs.String("cgp", "", "the position, as a CGP line; the player on turn is analysed")
	gcgPath := fs.String("gcg", "", "a game, as a GCG file (- for standard input): every move ranked by static equity, and how each player played")
	simulate := fs.Bool("sim", false, "simulate the candidates (default: rank them by score plus leave); with --gcg, judge every move by simulation or, with the bag empty, by the endgame, within --time each")
	plies := fs.Int("plies", 2, "moves simulated after each candidate")
	budget := fs.Duration("time", 5*time.Second, "time budget of the simulation or of the endgame search")
	iters := fs.Int("iterations", 0, "most iterations per candidate (0: as many as the time allows)")
	threads := fs.Int("threads", 2, "goroutines of the simulation and of the endgame search")
	cands := fs.Int("candidates", 40, "candidates simulated (by score plus leave)")
	top := fs.Int("top", 10, "candidates shown (with --gcg: best moves shown a move, default 1)")
	leaveName := fs.String("leave", "", "leave table (default: the players' default)")
	seed := fs.Uint64("seed", 1, "seed of the simulation's samples")
	asJSON := fs.Bool("json", false, "print the analysis as JSON")
	infer := fs.Bool("infer", false, "with --gcg: infer what each placement made with tiles in the bag told the next player about the tiles kept (rack inference by static value)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *gcgPath != "" {
		if *pos != "" {
			return fmt.Errorf("give --cgp (a position) or --gcg (a game), not both")
		}
		n := 1
		if flagSet(fs, "top") {
			n = max(*top, 1)
		}
		var judge *player.Options
		if *simulate {
			judge = &player.Options{Seed: *seed, Candidates: *cands, Iterations: *iters, Plies: *plies, Threads: *threads,
				Budget: *budget, EndgameTime: *budget, EndgameThreads: *threads}
			if *iters == 0 {
				judge.Iterations = math.MaxInt32
			}
		}
		return analyzeGCG(os.Stdout, fs, *vn, *ln, *gcgPath, *leaveName, n, *asJSON, *infer, judge)
	}
	if *pos == "" {
		fs.Usage()
		return fmt.Errorf("--cgp or --gcg is required")
	}
	e, p, err := positionEnv(fs, *vn, *ln, *pos)
	if err != nil {
		return err
	}
	view, err := cgpView(p, e)
	if err != nil {
		return err
	}
	gen, err := movegen.New("gaddag", e.Lex)
	if err != nil {
		return err
	}
	o := player.Options{Variant: e.V, Lexicon: e.Lex, Generator: gen, Seed: *seed, Leave: *leaveName,
		Candidates: *cands, Iterations: *iters, Plies: *plies, Threads: *threads, Budget: *budget,
		EndgameTime: *budget, EndgameThreads: *threads}
	if *iters == 0 {
		o.Iterations = math.MaxInt32
	}
	a, err := player.Analyze(view, o, *simulate, *top)
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", " ")
		return enc.Encode(analysisJSON(a, view.Board, *top))
	}
	return writeAnalysis(os.Stdout, a, view, *top, *threads)
}

// cgpView is the view of the player on turn in a CGP position: its rack,
// the board, the scores, and as unseen every tile of the set not on the
// board or on its rack; the bag holds what the other players' full racks
// leave of them (cgp.Position.Game).
func cgpView(p *cgp.Position, e *env) (*player.View, error) {
	g, err := p.Game(e.Lex, 1)
	if err != nil {
		return nil, err
	}
	return player.ViewOf(g, 0), nil
}

// candidateJSON is one ranked move of --json.
type candidateJSON struct {
	Move       string   `json:"move"`
	Static     float64  `json:"static"`
	Mean       *float64 `json:"mean,omitempty"`
	Low        *float64 `json:"low,omitempty"`
	High       *float64 `json:"high,omitempty"`
	Win        *float64 `json:"win,omitempty"`
	Iterations int      `json:"iterations,omitempty"`
	Eliminated bool     `json:"eliminated,omitempty"`
	Exact      *bool    `json:"exact,omitempty"`
}

// analysisReply is the --json form of an analysis (and the server's).
type analysisReply struct {
	Phase      string          `json:"phase"`
	Best       string          `json:"best"`
	Candidates []candidateJSON `json:"candidates,omitempty"`
	Iterations int             `json:"iterations,omitempty"`
	Spread     *int            `json:"spread,omitempty"`
	Exact      *bool           `json:"exact,omitempty"`
	Line       []string        `json:"line,omitempty"`
	Nodes      int64           `json:"nodes,omitempty"`
	Millis     int64           `json:"ms"`
}

func analysisJSON(a *player.Analysis, b *board.Board, top int) analysisReply {
	best := a.Best()
	out := analysisReply{Phase: a.Phase, Best: best.String(b), Iterations: a.Iterations, Millis: a.Elapsed.Milliseconds()}
	for i, c := range a.Candidates {
		if top > 0 && i >= top {
			break
		}
		cj := candidateJSON{Move: c.Move.String(b), Static: round2(c.Static)}
		if a.Phase == "simulation" {
			cj.Mean, cj.Win, cj.Iterations, cj.Eliminated = review.Hundredths(c.Mean), review.Hundredths(100*c.Win), c.Iterations, !c.Alive
			cj.Low, cj.High = review.Hundredths(c.Mean-c.Half), review.Hundredths(c.Mean+c.Half)
		}
		out.Candidates = append(out.Candidates, cj)
	}
	for i, c := range a.PreEndgame {
		if top > 0 && i >= top {
			break
		}
		ex := c.Exact
		out.Candidates = append(out.Candidates, candidateJSON{Move: c.Move.String(b), Static: round2(c.Static),
			Mean: review.Hundredths(c.Spread), Win: review.Hundredths(100 * c.Wins), Exact: &ex})
	}
	if r := a.Endgame; r != nil {
		v, ex := r.Value, r.Exact
		out.Spread, out.Exact, out.Nodes = &v, &ex, r.Nodes
		out.Line = lineText(b, r.PV)
	}
	return out
}

func round2(x float64) float64 { return math.Round(100*x) / 100 }

// lineText writes a line of play move by move, each on the board as the
// moves before it leave it.
func lineText(b *board.Board, pv []move.Move) []string {
	c := b.Clone()
	var out []string
	for i := range pv {
		m := &pv[i]
		out = append(out, m.String(c))
		if m.Kind == move.Place {
			c.PlaceLine(m.Dir, m.Row, m.Col, m.Tiles, 1000)
		}
	}
	return out
}

func writeAnalysis(w io.Writer, a *player.Analysis, v *player.View, top, threads int) error {
	b := v.Board
	fmt.Fprintf(w, "rack %s, bag %d, scores %v, unseen %d\n", b.Variant.Alphabet.Spell(v.Rack.InWritingOrder()), v.BagLen, v.Scores, v.Unseen.Len())
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	switch a.Phase {
	case "endgame":
		r := a.Endgame
		kind := "exact"
		if !r.Exact {
			kind = fmt.Sprintf("best found to depth %d", r.Depth)
		}
		fmt.Fprintf(w, "endgame: %s, spread %+d for the player on turn, %d nodes in %.2f s\n", kind, r.Value, r.Nodes, a.Elapsed.Seconds())
		for i, m := range lineText(b, r.PV) {
			who := "me"
			if i%2 == 1 {
				who = "opp"
			}
			fmt.Fprintf(w, "  %2d. %-3s %s\n", i+1, who, m)
		}
		return nil
	case "preendgame":
		fmt.Fprintf(w, "pre-endgame (%d in the bag): %d candidates in %.2f s\n", v.BagLen, len(a.PreEndgame), a.Elapsed.Seconds())
		fmt.Fprintln(tw, "#\tmove\tstatic\texpected spread\twin %\texact\t")
		for i, c := range a.PreEndgame {
			if top > 0 && i >= top {
				break
			}
			fmt.Fprintf(tw, "%d\t%s\t%.1f\t%+.1f\t%.1f\t%v\t\n", i+1, c.Move.String(b), c.Static, c.Spread, 100*c.Wins, c.Exact)
		}
	case "simulation":
		alive := 0
		for _, c := range a.Candidates {
			if c.Alive {
				alive++
			}
		}
		fmt.Fprintf(w, "simulation: %d candidates, %d left, %d candidate-iterations in %.2f s on %d threads\n",
			len(a.Candidates), alive, a.Iterations, a.Elapsed.Seconds(), threads)
		fmt.Fprintln(tw, "#\tmove\tstatic\tmean\t95% interval\twin %\titers\t\t")
		for i, c := range a.Candidates {
			if top > 0 && i >= top {
				break
			}
			mark := ""
			if !c.Alive {
				mark = "eliminated"
			}
			fmt.Fprintf(tw, "%d\t%s\t%.1f\t%+.1f\t[%+.1f, %+.1f]\t%.1f\t%d\t%s\t\n", i+1, c.Move.String(b), c.Static, c.Mean,
				c.Mean-c.Half, c.Mean+c.Half, 100*c.Win, c.Iterations, mark)
		}
	default:
		fmt.Fprintf(w, "static ranking (score plus leave) in %.2f s; --sim simulates\n", a.Elapsed.Seconds())
		fmt.Fprintln(tw, "#\tmove\tscore\tstatic\t")
		for i, c := range a.Candidates {
			if top > 0 && i >= top {
				break
			}
			fmt.Fprintf(tw, "%d\t%s\t%d\t%.1f\t\n", i+1, c.Move.String(b), c.Move.Score, c.Static)
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	best := a.Best()
	_, err := fmt.Fprintf(w, "best: %s\n", strings.TrimSpace(best.String(b)))
	return err
}
