package interval

import (
	"sync"
	"sync/atomic"

	"atril/alphabet"
	"atril/board"
	"atril/move"
	"atril/movegen"
)

// Parallel IWM: the Hand-Interval instances are independent (Sánchez Bello 2025,
// Recommendations), so the lines of the board (both directions) are
// handed out to the workers through an atomic counter. Each worker keeps
// its own state and buffers its moves in flat slices reused from call to
// call; when all are done the moves are passed to the sink from the
// calling goroutine, so the sink needs no locking.

type iwmParallel struct {
	workers []*iwmWorker
	m       move.Move
	tiles   [MaxBoard]alphabet.Tile
}

type pmove struct {
	row, col int8
	dir      board.Dir
	n        uint8
	score    int32
	off      uint32
}

type iwmWorker struct {
	st    iwmState
	stats Stats
	buf   []alphabet.Tile
	moves []pmove
	sink  movegen.Sink
}

func newIWMWorker(T *IWMTables) *iwmWorker {
	w := &iwmWorker{}
	w.st.init(T)
	w.sink = func(m *move.Move) {
		w.moves = append(w.moves, pmove{row: int8(m.Row), col: int8(m.Col), dir: m.Dir,
			n: uint8(len(m.Tiles)), score: int32(m.Score), off: uint32(len(w.buf))})
		w.buf = append(w.buf, m.Tiles...)
	}
	return w
}

func (w *iwmWorker) run(b *board.Board, rack *alphabet.Rack, next *atomic.Int32) {
	w.moves, w.buf, w.stats = w.moves[:0], w.buf[:0], Stats{}
	w.st.prepare(b, rack, w.sink, &w.stats)
	units := int32(2 * b.Size)
	for {
		u := next.Add(1) - 1
		if u >= units {
			return
		}
		w.st.line(b, board.Dir(u%2), int(u/2))
	}
}

func (g *IWM) generateParallel(b *board.Board, rack *alphabet.Rack, sink movegen.Sink) {
	if g.par == nil || len(g.par.workers) != g.Workers {
		g.par = &iwmParallel{m: move.Move{Kind: move.Place}}
		for i := 0; i < g.Workers; i++ {
			g.par.workers = append(g.par.workers, newIWMWorker(g.Tables))
		}
	}
	var next atomic.Int32
	var wg sync.WaitGroup
	for _, w := range g.par.workers[1:] {
		wg.Add(1)
		go func(w *iwmWorker) {
			defer wg.Done()
			w.run(b, rack, &next)
		}(w)
	}
	g.par.workers[0].run(b, rack, &next)
	wg.Wait()
	m := &g.par.m
	for _, w := range g.par.workers {
		g.stats.Add(&w.stats)
		for _, pm := range w.moves {
			m.Row, m.Col, m.Dir, m.Score = int(pm.row), int(pm.col), pm.dir, int(pm.score)
			m.Tiles = g.par.tiles[:pm.n]
			copy(m.Tiles, w.buf[pm.off:pm.off+uint32(pm.n)])
			sink(m)
		}
	}
}
