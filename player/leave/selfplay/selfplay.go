// Package selfplay learns an exhaustive leave table by iterated self-play:
// both players use the current table, every leave they keep is recorded
// with what the next turn was worth, leave.Fit turns the observations of
// all iterations so far into the next table, and the next iteration plays
// with it. Runs are reproducible from the seed whatever the number of
// threads, and a checkpoint file lets a long run stop and resume with the
// same result as an uninterrupted one.
package selfplay

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"time"

	"atril/alphabet"
	"atril/game"
	"atril/lexicon"
	"atril/match"
	"atril/move"
	"atril/movegen"
	"atril/player"
	"atril/player/leave"
	"atril/variant"
)

// Config describes a learning run.
type Config struct {
	Variant   *variant.Variant
	Lexicon   *lexicon.Lexicon
	Generator movegen.Generator
	// Name is the name written into the learnt table.
	Name string
	// Level is the player both seats use ("" : inhuman, which moves by
	// score plus leave with exchanges considered).
	Level string
	// Games per iteration, Iterations, and the games played at once.
	Games, Iterations, Threads int
	Seed                       uint64
	// From is the table the first iteration plays with.
	From *leave.Exhaustive
	// Checkpoint is a file written after every Chunk games (0: 1000); a
	// run started with the same settings resumes from it.
	Checkpoint string
	Chunk      int
	// Fit tunes the estimator.
	Fit leave.FitOptions
	// Progress is called after every game with the games done and the
	// total over all iterations (from one goroutine at a time).
	Progress func(done, total int)
	// Log receives the convergence report of each iteration (nil: none).
	Log io.Writer
	// StopAfter stops the run with ErrStopped after that many chunks
	// have been played in this call (0: never); for tests of resuming.
	StopAfter int
	// Target picks what a leave is credited with: TargetKept (the
	// default), TargetRack or TargetDraw.
	Target string
}

// The learning targets of Config.Target.
const (
	// TargetKept credits a leave a player kept with what its next turn
	// was worth (Observations).
	TargetKept = "kept"
	// TargetRack credits every sub-leave of a full rack with what the
	// turn played from that rack was worth (RackObservations).
	TargetRack = "rack"
	// TargetDraw is TargetRack crediting only the sub-leaves that hold
	// every tile the rack kept from the turn before (RackObservations
	// with held set).
	TargetDraw = "draw"
)

// ErrStopped is returned when Config.StopAfter ends a run early.
var ErrStopped = errors.New("selfplay: stopped after the requested number of chunks")

// Result is a finished run.
type Result struct {
	Table   *leave.Exhaustive
	Games   int // games played in all iterations
	Samples int
	Elapsed time.Duration // time of this call (not of earlier resumed parts)
	Resumed bool
}

// state is what a checkpoint holds.
type state struct {
	iter, chunk int // next iteration and chunk to play
	iterObs     int // observations before the current iteration
	table       *leave.Exhaustive
	obs         []leave.Obs
}

// Run learns a table.
func Run(cfg Config) (*Result, error) {
	if cfg.Games <= 0 || cfg.Iterations <= 0 {
		return nil, fmt.Errorf("selfplay: need games (%d) and iterations (%d) above 0", cfg.Games, cfg.Iterations)
	}
	if cfg.From == nil {
		return nil, fmt.Errorf("selfplay: no starting table")
	}
	if cfg.Chunk <= 0 {
		cfg.Chunk = 1000
	}
	if cfg.Level == "" {
		cfg.Level = "inhuman"
	}
	switch cfg.Target {
	case "":
		cfg.Target = TargetKept
	case TargetKept, TargetRack, TargetDraw:
	default:
		return nil, fmt.Errorf("selfplay: unknown target %q (want %s, %s or %s)", cfg.Target, TargetKept, TargetRack, TargetDraw)
	}
	if cfg.Name == "" {
		cfg.Name = "learnt"
	}
	ix := cfg.From.Index()
	st := &state{table: cfg.From}
	res := &Result{}
	if cfg.Checkpoint != "" {
		s, err := loadCheckpoint(cfg)
		switch {
		case err == nil:
			st, res.Resumed = s, true
			logf(cfg.Log, "resuming from %s: iteration %d, chunk %d, %d observations\n", cfg.Checkpoint, s.iter+1, s.chunk, len(s.obs))
		case !errors.Is(err, os.ErrNotExist):
			return nil, err
		}
	}
	start := time.Now()
	chunks := (cfg.Games + cfg.Chunk - 1) / cfg.Chunk
	total := cfg.Games * cfg.Iterations
	played := 0
	for ; st.iter < cfg.Iterations; st.iter++ {
		if st.chunk == 0 {
			st.iterObs = len(st.obs)
		}
		for ; st.chunk < chunks; st.chunk++ {
			if cfg.StopAfter > 0 && played == cfg.StopAfter {
				return nil, ErrStopped
			}
			lo := st.chunk * cfg.Chunk
			n := min(cfg.Chunk, cfg.Games-lo)
			obs, err := playChunk(cfg, st, ix, n, st.iter*cfg.Games+lo, total)
			if err != nil {
				return nil, err
			}
			st.obs = append(st.obs, obs...)
			played++
			if cfg.Checkpoint != "" {
				next := *st
				next.chunk++
				if err := saveCheckpoint(cfg, &next); err != nil {
					return nil, err
				}
			}
		}
		t0 := time.Now()
		name := fmt.Sprintf("%s (iteration %d)", cfg.Name, st.iter+1)
		if st.iter == cfg.Iterations-1 {
			name = cfg.Name
		}
		next, rep, err := leave.Fit(name, cfg.Variant.Name, ix, st.obs, st.table, cfg.Fit)
		if err != nil {
			return nil, err
		}
		report(cfg, st, st.iterObs, next, rep, time.Since(t0))
		st.table = next
		st.chunk = 0
		if cfg.Checkpoint != "" {
			next := *st
			next.iter++
			next.iterObs = len(st.obs)
			if err := saveCheckpoint(cfg, &next); err != nil {
				return nil, err
			}
		}
	}
	res.Table = st.table
	res.Games = total
	res.Samples = len(st.obs)
	res.Elapsed = time.Since(start)
	return res, nil
}

func logf(w io.Writer, format string, args ...any) {
	if w != nil {
		fmt.Fprintf(w, format, args...)
	}
}

// playChunk plays n games of the current iteration with the current
// table and returns their observations in game order.
func playChunk(cfg Config, st *state, ix *leave.Index, n, doneBefore, total int) ([]leave.Obs, error) {
	per := make([][]leave.Obs, n)
	o := player.Options{LeaveTable: st.table}
	sc := match.Config{Variant: cfg.Variant, Lexicon: cfg.Lexicon, Generator: cfg.Generator,
		Players: [2]string{cfg.Level, cfg.Level}, Options: [2]player.Options{o, o},
		Games: n, Seed: chunkSeed(cfg.Seed, st.iter, st.chunk), Threads: cfg.Threads,
		Observe: func(i int, g *game.Game) {
			if cfg.Target != TargetKept {
				per[i] = RackObservations(g, ix, cfg.Target == TargetDraw)
			} else {
				per[i] = Observations(g, ix)
			}
		}}
	if cfg.Progress != nil {
		sc.Progress = func(done, _ int) { cfg.Progress(doneBefore+done, total) }
	}
	if _, err := match.Run(sc); err != nil {
		return nil, fmt.Errorf("selfplay: iteration %d: %w", st.iter+1, err)
	}
	var out []leave.Obs
	for _, p := range per {
		out = append(out, p...)
	}
	return out, nil
}

func chunkSeed(seed uint64, iter, chunk int) uint64 {
	return match.GameSeed(seed^uint64(iter+1)*0x9e3779b97f4a7c15, chunk)
}

// Observations lists the leaves kept in a finished game: for every
// placement or exchange after which the rack was refilled, the leave, the
// points of the same player's next turn, and the leave kept after that
// turn (NoNext when that turn was a pass or its leave was not refilled).
func Observations(g *game.Game, ix *leave.Index) []leave.Obs {
	var out []leave.Obs
	h := g.History
	for i := range h {
		t := &h[i]
		left, ok := t.Kept()
		if !ok {
			continue
		}
		r, ok := ix.Rank(&left)
		if !ok {
			continue
		}
		for j := i + 1; j < len(h); j++ {
			u := &h[j]
			if u.Kind != game.Played || u.Player != t.Player {
				continue
			}
			o := leave.Obs{Leave: uint32(r), Next: leave.NoNext, Points: int16(u.Points)}
			if l2, ok := u.Kept(); ok {
				if r2, ok := ix.Rank(&l2); ok {
					o.Next = uint32(r2)
				}
			}
			out = append(out, o)
			break
		}
	}
	return out
}

// RackObservations lists, for every turn of a finished game played from
// a full rack while the bag still held tiles, one whole-rack observation
// (see leave.Obs): the rack, the points of the turn, and the leave it
// kept (NoNext when the bag could not refill it). leave.Fit credits every
// sub-multiset of the rack with the turn's worth, so a leave's value is
// what racks holding it were worth against all racks, whatever the player
// kept: unlike Observations, the leave is not one the player chose (a
// leave kept only on boards where it is hard to play is not blamed for
// the board), and each turn informs a hundred-odd leaves instead of one.
//
// With held set each observation also records the tiles the rack held
// before its last draw (Obs.Held), so that Fit credits only the
// sub-leaves holding all of them: a sub-leave made partly of drawn tiles
// and partly of tiles the player chose to keep shares the rack with the
// rest of that choice, which is not random (a player keeps ES with a
// good third tile more often than with a bad one), while the tiles drawn
// beside the kept ones are.
func RackObservations(g *game.Game, ix *leave.Index, held bool) []leave.Obs {
	var out []leave.Obs
	full := g.Variant.RackSize
	// drawn[p]: the tiles player p drew after its last turn; moved[p]: p
	// has had a turn.
	drawn := make([][]alphabet.Tile, len(g.Seats))
	moved := make([]bool, len(g.Seats))
	for i := range g.History {
		t := &g.History[i]
		prevDrawn, prevMoved := drawn[t.Player], moved[t.Player]
		drawn[t.Player], moved[t.Player] = t.Drawn, true
		// A placement or exchange that drew tiles was played with tiles
		// in the bag.
		if t.Kind != game.Played || t.Rack.Len() != full || len(t.Drawn) == 0 || t.Move.Kind == move.Pass {
			continue
		}
		next := leave.NoNext
		if left, ok := t.Kept(); ok {
			if r, ok := ix.Rank(&left); ok {
				next = uint32(r)
			}
		}
		// The rack as a leave one tile short of it, plus that tile.
		rest := t.Rack
		last := len(rest) - 1
		for rest[last] == 0 {
			last--
		}
		rest[last]--
		o := leave.Obs{Points: int16(t.Points), Whole: uint8(last + 1), Next: next}
		if held && prevMoved {
			// The rack less what was drawn into it.
			k := t.Rack
			for _, x := range prevDrawn {
				k.Remove(x)
			}
			r, ok := ix.Rank(&k)
			if !ok {
				continue // nothing drawn (a pass): no sub-leave is random
			}
			o.Held = uint32(r)
		}
		if r, ok := ix.Rank(&rest); ok {
			o.Leave = uint32(r)
			out = append(out, o)
		}
	}
	return out
}

// report prints the convergence report of an iteration.
func report(cfg Config, st *state, iterStart int, next *leave.Exhaustive, rep leave.FitReport, fit time.Duration) {
	w := cfg.Log
	if w == nil {
		return
	}
	ix := next.Index()
	freq := make([]float64, ix.Len())
	for _, o := range st.obs[iterStart:] {
		switch {
		case o.Whole == 0:
			freq[o.Leave]++
		case o.Next != leave.NoNext:
			freq[o.Next]++ // a whole rack: weigh the leave the turn kept
		}
	}
	plain, weighted := leave.MeanAbsDiff(st.table, next, func(r int) float64 { return freq[r] })
	fmt.Fprintf(w, "\niteration %d/%d: %d observations in all (%d this iteration), %d distinct leaves seen of %d; fit %.1f s\n",
		st.iter+1, cfg.Iterations, rep.Samples, len(st.obs)-iterStart, rep.Seen, ix.Len()-1, fit.Seconds())
	fmt.Fprintf(w, "  baseline (next turn after keeping nothing) %.2f, within-leave sd %.2f, shrinkage by size %v\n",
		rep.Baseline, rep.Sigma, roundAll(rep.Shrink[1:]))
	fmt.Fprintf(w, "  mean absolute change %.3f over all leaves, %.3f weighted by this iteration's leaves\n", plain, weighted)
	best, worst := next.Extremes(20, nil)
	fmt.Fprintf(w, "  best: ")
	for _, b := range best {
		fmt.Fprintf(w, "%s %+.1f  ", b.Leave, b.Value)
	}
	fmt.Fprintf(w, "\n  worst: ")
	for _, b := range worst {
		fmt.Fprintf(w, "%s %+.1f  ", b.Leave, b.Value)
	}
	fmt.Fprintln(w)
}

func roundAll(xs []float64) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = float64(int(x*10+0.5)) / 10
	}
	return out
}

// Checkpoint file: magic, the settings that must match to resume, the
// position (iteration, chunk, observations at the iteration's start), the
// current table, the observations (15 bytes each), CRC-32C.
const ckptMagic = "ATRLEAVECKPT3"

func settings(cfg Config) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s|%s|%s|%s|%d|%d|%d|%d|%+v|", cfg.Variant.Name, cfg.Lexicon.Name, cfg.Generator.Name(), cfg.Level,
		cfg.Seed, cfg.Games, cfg.Iterations, cfg.Chunk, cfg.Fit)
	if cfg.Target != TargetKept {
		fmt.Fprintf(&b, "target %s|", cfg.Target)
	}
	cfg.From.WriteTo(&b)
	return b.Bytes()
}

var ckptCRC = crc32.MakeTable(crc32.Castagnoli)

// obsBytes is the size of an observation in a checkpoint.
const obsBytes = 15

func saveCheckpoint(cfg Config, st *state) error {
	var b bytes.Buffer
	le := binary.LittleEndian
	b.WriteString(ckptMagic)
	b.Write(le.AppendUint32(nil, crc32.Checksum(settings(cfg), ckptCRC)))
	for _, x := range []int{st.iter, st.chunk, st.iterObs} {
		b.Write(le.AppendUint64(nil, uint64(x)))
	}
	var tb bytes.Buffer
	st.table.WriteTo(&tb)
	b.Write(le.AppendUint64(nil, uint64(tb.Len())))
	b.Write(tb.Bytes())
	b.Write(le.AppendUint64(nil, uint64(len(st.obs))))
	buf := make([]byte, obsBytes*len(st.obs))
	for i, o := range st.obs {
		p := buf[obsBytes*i:]
		le.PutUint32(p, o.Leave)
		le.PutUint32(p[4:], o.Next)
		le.PutUint16(p[8:], uint16(o.Points))
		p[10] = o.Whole
		le.PutUint32(p[11:], o.Held)
	}
	b.Write(buf)
	b.Write(le.AppendUint32(nil, crc32.Checksum(b.Bytes(), ckptCRC)))
	tmp := cfg.Checkpoint + ".tmp"
	if err := os.WriteFile(tmp, b.Bytes(), 0o644); err != nil {
		return fmt.Errorf("selfplay: checkpoint: %w", err)
	}
	if err := os.Rename(tmp, cfg.Checkpoint); err != nil {
		return fmt.Errorf("selfplay: checkpoint: %w", err)
	}
	return nil
}

func loadCheckpoint(cfg Config) (*state, error) {
	data, err := os.ReadFile(cfg.Checkpoint)
	if err != nil {
		return nil, err
	}
	bad := func(why string) error {
		return fmt.Errorf("selfplay: checkpoint %s: %s (delete it to start afresh)", cfg.Checkpoint, why)
	}
	le := binary.LittleEndian
	if !bytes.HasPrefix(data, []byte(ckptMagic)) || len(data) < len(ckptMagic)+40 {
		return nil, bad("not a checkpoint of leaves learn")
	}
	body := data[:len(data)-4]
	if crc32.Checksum(body, ckptCRC) != le.Uint32(data[len(data)-4:]) {
		return nil, bad("checksum mismatch: the file is damaged")
	}
	p := body[len(ckptMagic):]
	if le.Uint32(p) != crc32.Checksum(settings(cfg), ckptCRC) {
		return nil, bad("made with other settings (variant, lexicon, seed, games, iterations, chunk or starting table)")
	}
	p = p[4:]
	st := &state{iter: int(le.Uint64(p)), chunk: int(le.Uint64(p[8:])), iterObs: int(le.Uint64(p[16:]))}
	p = p[24:]
	tl := int(le.Uint64(p))
	p = p[8:]
	if tl > len(p) {
		return nil, bad("truncated")
	}
	st.table, err = leave.ReadExhaustive(p[:tl], cfg.Variant)
	if err != nil {
		return nil, bad(err.Error())
	}
	p = p[tl:]
	if len(p) < 8 {
		return nil, bad("truncated")
	}
	no := int(le.Uint64(p))
	p = p[8:]
	if len(p) != obsBytes*no {
		return nil, bad("truncated")
	}
	st.obs = make([]leave.Obs, no)
	for i := range st.obs {
		q := p[obsBytes*i:]
		st.obs[i] = leave.Obs{Leave: le.Uint32(q), Next: le.Uint32(q[4:]), Points: int16(le.Uint16(q[8:])), Whole: q[10], Held: le.Uint32(q[11:])}
	}
	return st, nil
}
