package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"time"

	"atril/movegen"
)

func init() {
	register("gen", "list the legal moves of a CGP position, best first", runGen)
}

// jsonMove is the --json form of a generated move.
type jsonMove struct {
	Position string `json:"position"`
	Word     string `json:"word"`
	Score    int    `json:"score"`
	Tiles    int    `json:"tiles"`
	Dir      string `json:"direction"`
}

func runGen(args []string) error {
	fs := flag.NewFlagSet("gen", flag.ContinueOnError)
	vn, ln := envFlags(fs)
	pos := fs.String("cgp", "", "the position, as a CGP line (required)")
	algo := fs.String("algo", "gaddag", "move generator: "+fmt.Sprint(movegen.Names())+" (brute is the slow reference)")
	top := fs.Int("top", 0, "show only the best N moves (0: all)")
	count := fs.Bool("count", false, "print only the number of placements")
	asJSON := fs.Bool("json", false, "print the moves as JSON")
	timing := fs.Bool("time", false, "report the generation time on stderr")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *pos == "" {
		fs.Usage()
		return fmt.Errorf("--cgp is required")
	}
	e, p, err := positionEnv(fs, *vn, *ln, *pos)
	if err != nil {
		return err
	}
	b, err := p.Board(e.Lex)
	if err != nil {
		return err
	}
	gen, err := movegen.New(*algo, e.Lex)
	if err != nil {
		return err
	}
	rack := p.RackTiles[0]
	start := time.Now()
	ms := movegen.All(gen, b, &rack)
	if *timing {
		fmt.Fprintf(os.Stderr, "%s: %d moves in %v\n", gen.Name(), len(ms), time.Since(start))
	}
	if *count {
		fmt.Println(len(ms))
		return nil
	}
	if *top > 0 && len(ms) > *top {
		ms = ms[:*top]
	}
	if *asJSON {
		out := make([]jsonMove, len(ms))
		for i := range ms {
			out[i] = jsonMove{Position: ms[i].Position(), Word: ms[i].Word(b, true), Score: ms[i].Score,
				Tiles: ms[i].NewTiles(), Dir: ms[i].Dir.String()}
		}
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", " ")
		return enc.Encode(out)
	}
	for i := range ms {
		fmt.Printf("%s %s %d\n", ms[i].Position(), ms[i].Word(b, true), ms[i].Score)
	}
	return nil
}
