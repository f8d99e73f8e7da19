// Package endgame solves the end of a two-player game once the bag is
// empty and both racks are known (Pícek 2008, 5.2, 6.2 and 7.3.3.3).
//
// Solve is a negamax search with alpha-beta pruning over placements and
// passes. Its value is the spread the side to move gains from here to the
// end of the game: the points of every move it makes minus the
// opponent's, plus the end adjustment (going out earns twice the value
// of the tiles left on the other rack; when the game stops on two passes
// in a row, each side loses its own rack). Moves are ordered by the
// transposition table's best move, then by orderValue (score, tiles
// played, going out), the pass last; a transposition table
// keyed by a Zobrist hash of the position (tiles on the board, both
// racks, side to move, whether the last move was a pass) stores bounds
// (at the root, only the move: the last iteration's best is tried first);
// iterative deepening on the number of plies returns the best move of
// the last finished depth when the time or node budget runs out. Moves
// after the first at a node get a null-window search first (principal
// variation search) and a full one only when they beat the best so far.
//
// At the frontier a position is estimated by the best score of the side
// to move on the board as it is, minus its opponent's. One ply above it,
// the node's own listing of its moves gives the first half for every move
// at once (keptBest), and the opponent's best reply is found from the
// move list of the node's parent and a search of the lines the parent's
// move changed (movegen.BestAfter), not by one whole-board search each.
// With Options.Playout the frontier is valued instead by playing the
// position out: each side in turn plays its best move by score plus a
// bonus for going out and minus the face value of the tiles it keeps,
// until the game ends. That costs several searches a position, but sees
// stuck tiles and who goes out first, which a 7-against-7 endgame at a
// budget of a few hundred thousand nodes, three or four plies deep, does
// not reach.
//
// A node lists its moves from the list of the node two plies up, where
// the same side moved with the same tiles or more: the moves off the
// lines the two moves since then changed (board.Changed) that keep to
// the tiles still on the rack are moves here with the same scores, and
// only the changed lines are searched (movegen.LineGenerator). And a
// long search works with the word list cut down to the words the tiles
// still to be played can form on the board (Words): the same moves, from
// a GADDAG small enough to stay in the processor's caches. A side with
// no placement passes without using up a ply of the depth, so stuck
// tiles do not halve the horizon.
//
// With Options.Threads above one, the other threads help the first on
// its leftmost line (splitNode): at the root and at each first child
// down from it, once the node's first move is searched, its other moves
// are taken one at a time by whichever thread is free, each against the
// best value so far (a young-brothers-wait split), all of the threads
// sharing the transposition table (lock-free slots: table).
//
// Options.Width restricts every node to its Width best moves by score:
// Width 10 is the limited minimax of Pícek 2008 (alpha-beta finds the same value
// as minimax over the same restricted tree, only faster). Width 0 is the
// exact solver.
//
// The end rule is two passes in a row, which is the Spanish rule; under
// the English six-scoreless-turns rule the position after two passes is
// the same as before them, so further passes cannot change the outcome
// for players that would not have moved anyway.
package endgame

import (
	"math"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"atril/alphabet"
	"atril/board"
	"atril/move"
	"atril/movegen"
)

// Options bound the search.
type Options struct {
	// Width, when positive, keeps only the Width best-scoring placements
	// at each node (Pícek 2008: 10).
	Width int
	// MaxDepth caps the plies searched (0: until the game ends).
	MaxDepth int
	// TimeLimit stops the search, returning the best move of the last
	// finished iteration (0: none). Results then depend on the machine.
	TimeLimit time.Duration
	// NodeLimit stops the search after this many nodes (0: none); unlike
	// TimeLimit it keeps results reproducible.
	NodeLimit int64
	// TableBits sets the transposition table to 2^TableBits entries
	// (0: 18).
	TableBits int
	// Playout values the positions where a depth-limited iteration
	// stops by playing them out greedily (see solver.playout) instead of
	// by each side's best score on the board as it stands.
	Playout bool
	// Threads searches with that many goroutines (0 or 1: one; not with
	// Width): on the first thread's leftmost line, the moves of each
	// node after its first are shared out among the threads. The value
	// is the same; NodeLimit bounds each thread's nodes, and which of
	// two moves of equal value is returned, and the node counts, then
	// depend on timing.
	Threads int
	// Words is the word list cut down to the tiles still to be played
	// (NewWords), for a search of b or of a position reached from b by
	// placing tiles of the pool it was cut for. When nil, Solve cuts the
	// list to the two racks itself if the generator is a GADDAG and the
	// search may be long (no Width, no node limit or one of at least
	// pruneNodes, and no time limit or one of at least pruneTime; the
	// time limit counts the cut): the moves and values are the same
	// either way.
	Words *Words
	// FullList searches with the generator's whole word list, never a
	// cut-down one (for comparisons).
	FullList bool
}

// A search is worth cutting the word list for (see Options.Words) when
// it may visit pruneNodes nodes or run pruneTime: the cut costs a few
// milliseconds, the time of some thousands of nodes (about 0.1 s with a
// blank, some tens of thousands).
const (
	pruneNodes = 50_000
	pruneTime  = 250 * time.Millisecond
)

// Result is the outcome of a search.
type Result struct {
	// Move is the best move found for the side to move.
	Move move.Move
	// Value is the spread the side to move gains from here to the end
	// with best play, as far as the search could see.
	Value int
	// Exact is set when the search reached the end of the game on every
	// line (within Width, when Width is set).
	Exact bool
	// Depth is the last iteration finished (plies).
	Depth int
	// Nodes is the number of positions visited.
	Nodes int64
	// PV is the expected line of play, starting with Move.
	PV []move.Move
	// Stopped is set when a time or node limit ended the search.
	Stopped bool
}

const (
	flagExact = iota + 1
	flagLower
	flagUpper
)

type entry struct {
	key   uint64
	value int32
	depth int16 // remaining plies searched; deepExact when exact to the end
	flag  uint8
	best  uint64 // hash of the best move
}

const deepExact = math.MaxInt16

// solver holds the state of one search.
type solver struct {
	gen   movegen.Generator
	lgen  movegen.LineGenerator // gen, when it can keep to some lines
	b     *board.Board
	racks [2]alphabet.Rack
	opt   Options
	tt    *table
	zsq   [][128]uint64 // per square, per letter (designated blanks from 64)
	zrack [2][64][8]uint64
	zside uint64
	zpass uint64
	hash  uint64
	// bhash is the Zobrist hash of the board's tiles alone; ecache
	// remembers the best score of a rack on a board (keyed by bhash and
	// the rack), the two halves of a leaf's estimate.
	bhash  uint64
	ecache []estEntry
	nodes  int64
	stop   bool
	start  time.Time
	scores []int
	// rootBest is the best root move of the running iteration.
	rootBest move.Move
	// plies holds each ply's move list and the tiles of its moves,
	// reused from node to node so a search allocates nothing per node.
	plies []plyBuf
	one   []movegen.Scored
	ch    board.Changes // the squares the last placement changed
	// pol is the playout's move policy; pcache remembers playout values
	// by position hash.
	pol    outPolicy
	pcache []estEntry
	// checkReply, when set (by tests), is given every reply score the
	// frontier's shortcut finds and the score a whole-board search finds.
	checkReply func(shortcut, searched int)
	// serial numbers the nodes entered (plyBuf.visit); checkList, when
	// set (by tests), is given every move list made from the one two
	// plies up (see candidates).
	serial    uint64
	checkList func(b *board.Board, rack *alphabet.Rack, ms []move.Move)
	// halt, shared by the threads of a search, tells the helpers to
	// stop (nil with one thread).
	halt *atomic.Bool
	// split is the first thread's helpers (nil: none); path is the line
	// from the root to the node it is searching, and leftmost says every
	// move of it was its node's first.
	split    *helpers
	path     []step
	leftmost bool
}

// plyBuf is the move buffer of one ply.
type plyBuf struct {
	moves  []move.Move // as listed
	sorted []move.Move // best first
	// rest: sorted holds only the first move so far (see rest);
	// ttBest is the table's move it was ordered with.
	rest   bool
	ttBest uint64
	keys   []uint64
	// byScore lists the moves' indices best score first (movegen.Order
	// keys), made on first use by replyScore (scored says it is).
	byScore []uint64
	scored  bool
	tiles   []alphabet.Tile
	lens    []int
	// kept answers, at a node one ply above the frontier, the best score
	// of what the side to move keeps after each of its moves.
	kept keptBest
	// visit numbers the node at this ply on the line searched now;
	// listed is the visit whose every move moves holds, moved the
	// visit at which the move searched now was made, and changed the
	// lines that move changed (none for a pass).
	visit, listed, moved uint64
	changed              board.Lines
}

// keptBest holds, for every sub-rack S of a rack R, the best score a
// move using only tiles of S makes on the node's board: one listing of
// R's moves files each move's score under the tiles it uses, and a
// subset-maximum (over the rack's mixed-radix index) spreads it to every
// sub-rack holding them. At the frontier the estimate needs the best
// score of the rack kept after each move; this answers them all from
// the moves the node lists anyway, instead of one search per move.
type keptBest struct {
	ok    bool // the rack is small enough to tabulate
	radix [alphabet.MaxLetters + 1]int32
	dims  int
	place [8]int32 // radix of each distinct tile kind
	count [8]int32 // count of each distinct tile kind
	best  [128]int32
}

// reset prepares the table for rack r (blanks at index 0).
func (k *keptBest) reset(r *alphabet.Rack) {
	k.ok, k.dims = true, 0
	size := int32(1)
	for t, c := range r {
		k.radix[t] = 0
		if c == 0 {
			continue
		}
		if k.dims == len(k.place) || int(size)*(int(c)+1) > len(k.best) {
			k.ok = false
			return
		}
		k.radix[t] = size
		k.place[k.dims], k.count[k.dims] = size, int32(c)
		k.dims++
		size *= int32(c) + 1
	}
	clear(k.best[:size])
}

// add files a move of the rack.
func (k *keptBest) add(m *move.Move) {
	i := int32(0)
	for _, t := range m.Tiles {
		switch {
		case t == move.PlayThrough:
		case t.IsBlanked():
			i += k.radix[alphabet.Blank]
		default:
			i += k.radix[t]
		}
	}
	k.best[i] = max(k.best[i], int32(m.Score))
}

// close turns the scores filed per tiles used into the best score per
// sub-rack: best[S] = max over T ⊆ S.
func (k *keptBest) close() {
	size := int32(1)
	for d := 0; d < k.dims; d++ {
		size *= k.count[d] + 1
	}
	for d := 0; d < k.dims; d++ {
		p, c := k.place[d], k.count[d]
		for i := int32(0); i < size; i++ {
			if (i/p)%(c+1) > 0 {
				k.best[i] = max(k.best[i], k.best[i-p])
			}
		}
	}
}

// of is the best score of the sub-rack r (of the tabulated rack).
func (k *keptBest) of(r *alphabet.Rack) int {
	i := int32(0)
	for t, c := range r {
		i += int32(c) * k.radix[t]
	}
	return int(k.best[i])
}

type stopSearch struct{}

// estEntry is an entry of the estimate cache: the best score of a rack
// on a board, plus one (0 marks an empty entry).
type estEntry struct {
	key   uint64
	score int32
}

const estBits = 14

// Solve searches the endgame with side 0 to move holding me and the
// opponent holding opp on board b (b is not changed: the search works on
// a copy).
// lastPass tells whether the opponent's last move was a pass.
func Solve(gen movegen.Generator, b *board.Board, me, opp alphabet.Rack, lastPass bool, opt Options) Result {
	orig, whole := b, gen
	start := time.Now() // a time limit pays for the cut word list too
	words := opt.Words
	if words == nil && !opt.FullList && opt.Width == 0 && (opt.NodeLimit == 0 || opt.NodeLimit >= pruneNodes) &&
		(opt.TimeLimit == 0 || opt.TimeLimit >= pruneTime) {
		pool := me
		pool.AddRack(&opp)
		words, _ = NewWords(gen, b, pool)
	}
	if words != nil && !opt.FullList {
		// the search works on a copy of the board either way: a stopped
		// search leaves its moves on it
		gen, b = words.gen.Fork(), b.WithWords(words.lex)
	} else {
		b = b.Clone()
	}
	s := newSolver(gen, b, me, opp, opt)
	s.start = start
	if lastPass {
		s.hash ^= s.zpass
	}
	res := Result{}
	maxDepth := 2*(me.Len()+opp.Len()) + 2
	if opt.MaxDepth > 0 && opt.MaxDepth < maxDepth {
		maxDepth = opt.MaxDepth
	}
	helpers := s.startHelpers(gen, b)
	if helpers.halt != nil {
		s.split = helpers
	}
	for d := 1; d <= maxDepth; d++ {
		v, exact, done := s.root(d, lastPass)
		if !done {
			res.Stopped = true
			break
		}
		res.Value = v
		res.Depth = d
		res.Move = s.rootBest
		res.PV = s.pv(lastPass, d)
		if len(res.PV) == 0 || moveHash(&res.PV[0]) != moveHash(&res.Move) {
			res.PV = []move.Move{res.Move}
		}
		if exact {
			res.Exact = true
			break
		}
	}
	if res.Depth == 0 { // not even one ply finished: play the top score
		res.Move = move.Move{Kind: move.Pass}
		if m, ok := movegen.Best(whole, orig, &me); ok {
			res.Move = m
		}
		res.PV = []move.Move{res.Move}
	}
	res.Nodes = s.nodes + helpers.stop()
	return res
}

// helpers are the extra threads of a search. They join the first
// thread at the nodes of its leftmost line (splitNode), one at a time.
type helpers struct {
	halt    *atomic.Bool
	rounds  []chan *round // one per helper
	solvers []*solver
	wg      sync.WaitGroup // the helpers' goroutines
}

// round is a node whose moves after the first are shared by the threads:
// the line from the root to it, its window, its moves (the first
// thread's list, copied: another generator's listing order may differ)
// handed out one at a time, and the best value so far.
type round struct {
	path             []step
	moves            []move.Move
	side, ply, depth int
	alpha, beta      int
	lastPass         bool
	ttBest           uint64 // the node's table move, which the order puts first
	next             atomic.Int64
	cut              atomic.Bool // a move reached beta: take no more
	stopped          atomic.Bool // a helper stopped on a limit: the round is incomplete
	mu               sync.Mutex
	best, bestIdx    int
	exact            bool
	done             sync.WaitGroup // helpers in this round
}

// step is a move of the line from the root to a node: who made it, and
// whether the move before it was a pass.
type step struct {
	side     int
	m        move.Move
	lastPass bool
}

// startHelpers starts opt.Threads−1 helpers for the position on board b
// (each on a copy, with a fork of gen), sharing s's table.
func (s *solver) startHelpers(gen movegen.Generator, b *board.Board) *helpers {
	h := &helpers{}
	if s.opt.Threads <= 1 || s.opt.Width > 0 {
		return h
	}
	h.halt = new(atomic.Bool)
	for i := 1; i < s.opt.Threads; i++ {
		// The same deadline and node budget (counted by each thread), so
		// that a helper the first thread waits for cannot outlast it.
		o := s.opt
		hs := &solver{gen: gen.Fork(), b: b.Clone(), racks: s.racks, opt: o, tt: s.tt,
			zsq: s.zsq, zrack: s.zrack, zside: s.zside, zpass: s.zpass, hash: s.hash, bhash: s.bhash,
			ecache: make([]estEntry, 1<<estBits), start: s.start, scores: s.scores, halt: h.halt}
		if o.Playout {
			hs.pcache = make([]estEntry, 1<<estBits)
		}
		hs.lgen, _ = hs.gen.(movegen.LineGenerator)
		in := make(chan *round)
		h.solvers = append(h.solvers, hs)
		h.rounds = append(h.rounds, in)
		h.wg.Add(1)
		go func() {
			defer h.wg.Done()
			for r := range in {
				hs.join(r)
				r.done.Done()
			}
		}()
	}
	return h
}

// stop halts the helpers, waits for them, and returns their nodes.
func (h *helpers) stop() int64 {
	if h.halt == nil {
		return 0
	}
	h.halt.Store(true)
	for _, in := range h.rounds {
		close(in)
	}
	h.wg.Wait()
	n := int64(0)
	for _, hs := range h.solvers {
		n += hs.nodes
	}
	return n
}

// splitDepth is the least depth of a node shared out among threads.
const splitDepth = 2

// splitNode searches the moves of a node after its first (ms[0], already
// searched, its value best) with every thread, each move against the
// best value so far: a null-window search, and a full one when it beats
// it (as negamax does them one after another). It returns the node's
// best value, the index of its move, and whether every move searched was
// exact. The first thread calls it only on its leftmost line, where no
// other split is open, so the helpers are free.
func (s *solver) splitNode(side, ply, depth, alpha, beta int, lastPass bool, ttBest uint64, ms []move.Move, best int, exact bool) (int, int, bool) {
	h := s.split
	r := &round{side: side, ply: ply, depth: depth, alpha: alpha, beta: beta, lastPass: lastPass, ttBest: ttBest,
		best: best, exact: exact}
	r.path = make([]step, len(s.path))
	for i, st := range s.path {
		r.path[i] = step{side: st.side, m: movegen.Clone(&st.m), lastPass: st.lastPass}
	}
	r.moves = make([]move.Move, len(ms))
	for i := range ms {
		r.moves[i] = movegen.Clone(&ms[i])
	}
	r.next.Store(1)
	r.done.Add(len(h.solvers))
	for _, in := range h.rounds {
		in <- r
	}
	s.work(r, ms)
	r.done.Wait()
	if r.stopped.Load() {
		// A helper ran out of time inside the round: its value is not
		// the node's, so this iteration stops too.
		s.stop = true
		panic(stopSearch{})
	}
	return r.best, r.bestIdx, r.exact
}

// join is a helper's part of a round: it plays the line to the node on
// its own board, lists the node's moves, works through the round's with
// the others, and takes the line back. A helper stopped by a limit
// leaves its board and racks as they were when it stopped: it is not
// used again, since a stop ends the search.
func (s *solver) join(r *round) {
	defer func() {
		if rec := recover(); rec != nil {
			if _, ok := rec.(stopSearch); !ok {
				panic(rec)
			}
			r.stopped.Store(true)
		}
	}()
	racks, hash, bhash := s.racks, s.hash, s.bhash
	// The nodes of the path are new visits: no list or move this
	// helper made before belongs to them.
	for ply := 0; ply <= r.ply; ply++ {
		s.enter(ply)
	}
	placed := 0
	for i := range r.path {
		st := &r.path[i]
		if st.m.Kind == move.Pass {
			s.hash ^= s.zside ^ s.zpass
			continue
		}
		rk := &s.racks[st.side]
		old := *rk
		*rk = st.m.Kept(old)
		s.hashMove(st.side, &st.m, &old, rk, st.lastPass)
		s.b.PlaceLine(st.m.Dir, st.m.Row, st.m.Col, st.m.Tiles, 1000)
		placed++
	}
	// The helper's own listing at the node's ply serves the frontier's
	// reply shortcut below it; the moves searched are the round's.
	s.candidates(r.side, r.ply, r.ttBest, false)
	s.work(r, r.moves)
	for ; placed > 0; placed-- {
		s.b.Undo()
	}
	s.racks, s.hash, s.bhash = racks, hash, bhash
}

// work takes the round's moves one at a time until none is left or one
// reaches beta.
func (s *solver) work(r *round, ms []move.Move) {
	left := s.leftmost
	s.leftmost = false
	for !r.cut.Load() {
		i := int(r.next.Add(1) - 1)
		if i >= len(ms) {
			break
		}
		r.mu.Lock()
		best := r.best
		r.mu.Unlock()
		v, exact := s.try(r.side, r.ply, r.depth, r.alpha, r.beta, best, r.lastPass, &ms[i], false)
		r.mu.Lock()
		r.exact = r.exact && exact
		if v > r.best {
			r.best, r.bestIdx = v, i
		}
		if r.best >= r.beta {
			r.cut.Store(true)
		}
		r.mu.Unlock()
	}
	s.leftmost = left
}

func newSolver(gen movegen.Generator, b *board.Board, me, opp alphabet.Rack, opt Options) *solver {
	bits := opt.TableBits
	if bits == 0 {
		bits = 18
	}
	s := &solver{gen: gen, b: b, racks: [2]alphabet.Rack{me, opp}, opt: opt,
		tt: newTable(bits), start: time.Now(), ecache: make([]estEntry, 1<<estBits)}
	s.lgen, _ = gen.(movegen.LineGenerator)
	if opt.Playout {
		s.pcache = make([]estEntry, 1<<estBits)
	}
	// Fixed Zobrist keys from a simple generator: the same every run.
	x := uint64(0x243f6a8885a308d3)
	next := func() uint64 {
		x += 0x9e3779b97f4a7c15
		z := x
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
		z = (z ^ (z >> 27)) * 0x94d049bb133111eb
		return z ^ (z >> 31)
	}
	n := b.Size * b.Size
	s.zsq = make([][128]uint64, n)
	for i := range s.zsq {
		for t := range s.zsq[i] {
			s.zsq[i][t] = next()
		}
	}
	for side := range s.zrack {
		for t := range s.zrack[side] {
			for c := range s.zrack[side][t] {
				s.zrack[side][t][c] = next()
			}
		}
	}
	s.zside, s.zpass = next(), next()
	for r := 0; r < b.Size; r++ {
		for c := 0; c < b.Size; c++ {
			if t := b.At(r, c); t != board.Empty {
				s.bhash ^= s.zsq[r*b.Size+c][sqTile(t)]
			}
		}
	}
	for side := range s.racks {
		for t, c := range s.racks[side] {
			if c > 0 {
				s.hash ^= s.zrack[side][t][min(int(c), 7)]
			}
		}
	}
	s.hash ^= s.bhash
	s.scores = b.Variant.Scores
	return s
}

// sqTile maps a board tile to 0..127: letters keep their code, a
// designated blank is 64 plus its letter.
func sqTile(t alphabet.Tile) int {
	if t.IsBlanked() {
		return 64 + int(t.Letter())
	}
	return int(t)
}

func moveHash(m *move.Move) uint64 {
	if m.Kind == move.Pass {
		return 1
	}
	h := uint64(14695981039346656037)
	for _, x := range [3]int{m.Row, m.Col, int(m.Dir)} {
		h = (h ^ uint64(x)) * 1099511628211
	}
	for _, t := range m.Tiles {
		h = (h ^ uint64(t)) * 1099511628211
	}
	return h | 2
}

func (s *solver) tick() {
	s.nodes++
	if s.opt.NodeLimit > 0 && s.nodes >= s.opt.NodeLimit {
		s.stop = true
	}
	if s.opt.TimeLimit > 0 && s.nodes&63 == 0 && time.Since(s.start) > s.opt.TimeLimit {
		s.stop = true
	}
	if s.halt != nil && s.halt.Load() {
		s.stop = true
	}
	if s.stop {
		panic(stopSearch{})
	}
}

// root runs one iteration; done is false when a limit stopped it.
func (s *solver) root(depth int, lastPass bool) (v int, exact, done bool) {
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(stopSearch); !ok {
				panic(r)
			}
			done = false
		}
	}()
	s.path, s.leftmost = s.path[:0], true
	v, exact = s.negamax(0, 0, depth, -math.MaxInt32/2, math.MaxInt32/2, lastPass)
	return v, exact, true
}

// candidates lists the moves of side in search order: the table's move
// first, then by orderValue (by score alone with a width limit); a pass
// comes last. The list lives in the ply's
// buffer, valid until the ply is searched again.
func (s *solver) candidates(side, ply int, ttBest uint64, frontier bool) []move.Move {
	for len(s.plies) <= ply {
		s.plies = append(s.plies, plyBuf{})
	}
	pb := &s.plies[ply]
	pb.moves, pb.tiles, pb.lens = pb.moves[:0], pb.tiles[:0], pb.lens[:0]
	pb.scored, pb.rest = false, false
	kb := &pb.kept
	kb.ok = false
	if frontier {
		kb.reset(&s.racks[side])
	}
	add := func(m *move.Move) {
		if kb.ok {
			kb.add(m)
		}
		pb.tiles = append(pb.tiles, m.Tiles...)
		pb.lens = append(pb.lens, len(m.Tiles))
		c := *m
		c.Tiles = nil // set below, once the tile buffer stops moving
		pb.moves = append(pb.moves, c)
	}
	lines, gp, reused := s.sinceListed(ply)
	if reused {
		// The same side listed every move of its rack two plies up; off
		// the lines the two moves since then changed, those that keep
		// to the tiles still on the rack are its moves here, with the
		// same scores (board.Changed), so only the changed lines need a
		// search.
		rack := &s.racks[side]
		for i := range gp.moves {
			if m := &gp.moves[i]; !movegen.OnLines(m, lines) && within(m, rack) {
				add(m)
			}
		}
		s.lgen.GenerateIn(s.b, rack, lines, add)
	} else {
		s.gen.Generate(s.b, &s.racks[side], add)
	}
	pb.listed = pb.visit
	off := 0
	for i := range pb.moves {
		n := pb.lens[i]
		pb.moves[i].Tiles = pb.tiles[off : off+n : off+n]
		off += n
	}
	if kb.ok {
		kb.close()
	}
	if reused && s.checkList != nil {
		s.checkList(s.b, &s.racks[side], pb.moves)
	}
	ms := pb.sorted[:0]
	if s.opt.Width > 0 {
		// The limited minimax of Pícek 2008 keeps the best by score.
		pb.keys = movegen.Order(pb.moves, pb.keys)
		for _, k := range pb.keys {
			ms = append(ms, pb.moves[uint32(k)])
		}
		ms = ms[:min(len(ms), s.opt.Width)]
	} else {
		// Keys: the order value (highest first), then the listing
		// order (fixed for the line searched to the node: a list made
		// from the one two plies up starts with that list's moves, so
		// which of two moves of the same order value comes first may
		// differ between transpositions; values do not). Only the first
		// move is put in place now: most nodes one ply above the
		// frontier are cut off by it, and rest orders the others when
		// they are wanted.
		n := s.racks[side].Len()
		out := 2 * s.racks[1-side].Value(s.scores)
		pb.keys = pb.keys[:0]
		first, tt := -1, -1
		for i := range pb.moves {
			v := uint64(orderTop - min(max(s.orderValue(&pb.moves[i], n, out), 0), orderTop))
			k := v<<42 | uint64(i)
			pb.keys = append(pb.keys, k)
			if first < 0 || k < pb.keys[first] {
				first = i
			}
			if tt < 0 && ttBest != 0 && moveHash(&pb.moves[i]) == ttBest {
				tt = i
			}
		}
		pb.ttBest = ttBest
		if tt >= 0 {
			first = tt
		}
		if first >= 0 {
			pb.rest = true
			ms = append(ms, pb.moves[first])
			pb.sorted = ms
			return ms
		}
		ms = append(ms, move.Move{Kind: move.Pass})
		pb.sorted = ms
		return ms
	}
	if ttBest != 0 {
		for i := range ms {
			if moveHash(&ms[i]) == ttBest {
				m := ms[i]
				copy(ms[1:i+1], ms[:i])
				ms[0] = m
				break
			}
		}
	}
	if len(ms) == 0 {
		ms = append(ms, move.Move{Kind: move.Pass})
	}
	pb.sorted = ms
	return ms
}

// sinceListed reports whether the node at ply can take its moves from
// the list of the node two plies up on the line searched (the same side
// to move, with the tiles it holds now and maybe more), and the lines
// the two moves made since then changed.
func (s *solver) sinceListed(ply int) (board.Lines, *plyBuf, bool) {
	if ply < 2 || s.lgen == nil {
		return board.Lines{}, nil, false
	}
	gp, p := &s.plies[ply-2], &s.plies[ply-1]
	if gp.listed != gp.visit || gp.moved != gp.visit || p.moved != p.visit {
		return board.Lines{}, nil, false
	}
	return board.Lines{gp.changed[0] | p.changed[0], gp.changed[1] | p.changed[1]}, gp, true
}

// enter numbers the node at ply as a new visit.
func (s *solver) enter(ply int) {
	for len(s.plies) <= ply {
		s.plies = append(s.plies, plyBuf{})
	}
	s.serial++
	s.plies[ply].visit = s.serial
}

// rest completes the search order of the ply's list when candidates
// put only its first move in place (it comes first here too): the
// others by their keys, the table's move first, the pass last.
func (s *solver) rest(ply int) []move.Move {
	pb := &s.plies[ply]
	if !pb.rest {
		return pb.sorted
	}
	pb.rest = false
	slices.Sort(pb.keys)
	ms := pb.sorted[:0]
	for _, k := range pb.keys {
		ms = append(ms, pb.moves[k&(1<<42-1)])
	}
	if pb.ttBest != 0 {
		for i := range ms {
			if moveHash(&ms[i]) == pb.ttBest {
				m := ms[i]
				copy(ms[1:i+1], ms[:i])
				ms[0] = m
				break
			}
		}
	}
	ms = append(ms, move.Move{Kind: move.Pass})
	pb.sorted = ms
	return ms
}

// orderValue ranks a move of a side holding n tiles for the search
// order: its score, plus out (twice the other rack's value) when it goes
// out, plus orderFace times the face value of the tiles it plays, which
// can then no longer be caught on the rack when the other side goes
// out, plus orderTile points a tile played (a rack emptied sooner is
// less likely to be stuck). The values are the same whatever the order:
// only the nodes it takes change (see orderFace).
func (s *solver) orderValue(m *move.Move, n, out int) int {
	v := m.Score
	played := 0
	for _, t := range m.Tiles {
		if t == move.PlayThrough {
			continue
		}
		played++
		if !t.IsBlanked() {
			v += orderFace * s.scores[t.Letter()]
		}
	}
	v += orderTile * played
	if played == n {
		v += out
	}
	return v
}

// orderFace and orderTile weigh the tiles a move plays in orderValue.
// On the 30 seven-against-seven endgames of inhuman self-play of
// BenchmarkSolveStrong (one thread, 5 s each), 2 and 0 (face value
// twice, nothing a tile: the order tuned on endgames of greedy games)
// solved 14, 3 and 6 solve 20, and the 14 solved by both take 3.3
// million nodes instead of 7.1; on the 12 of greedy games
// (BenchmarkSolve12) the same 8 are solved with 9% fewer nodes. Weights
// from 2 to 3 and from 5 to 8 all do about as well.
const (
	orderFace = 3
	orderTile = 6
)

// orderTop bounds the order values in the sort keys (22 bits); they are
// clamped to [0, orderTop] there.
const orderTop = 1<<22 - 1

// negamax returns the value for side to move and whether it is exact to
// the end of the game.
func (s *solver) negamax(side, ply, depth, alpha, beta int, lastPass bool) (int, bool) {
	s.tick()
	s.enter(ply)
	alpha0 := alpha
	var ttBest uint64
	if e, ok := s.tt.load(s.hash); ok {
		// At the root the table gives the order only (the previous
		// iteration's best move first), never the value.
		ttBest = e.best
		if ply > 0 && int(e.depth) >= depth {
			v := int(e.value)
			exact := e.depth == deepExact
			switch {
			case e.flag == flagExact:
				return v, exact
			case e.flag == flagLower && v >= beta:
				return v, exact
			case e.flag == flagUpper && v <= alpha:
				return v, exact
			}
		}
	}
	if depth == 0 {
		if s.opt.Playout {
			return s.playoutValue(side, lastPass), false
		}
		return s.estimate(side), false
	}
	ms := s.candidates(side, ply, ttBest, depth == 1 && !s.opt.Playout)
	// A side with no placement must pass: that ply is searched without
	// taking one from the depth, so stuck tiles do not halve the
	// horizon (the opponent then places, or passes and the game ends).
	tryDepth := depth
	if len(s.plies[ply].moves) == 0 {
		tryDepth++
	}
	best := math.MinInt32
	var bestHash uint64
	allExact := true
	left := s.leftmost
	for i := 0; i < len(ms) || i == 1 && s.plies[ply].rest; i++ {
		if i == 1 {
			ms = s.rest(ply)
			if s.split != nil && left && depth >= splitDepth && len(ms) > 2 {
				// The first thread on its leftmost line: the other moves
				// are shared with the helpers.
				v, bi, exact := s.splitNode(side, ply, depth, alpha, beta, lastPass, ttBest, ms, best, allExact)
				allExact = exact
				if bi > 0 {
					best, bestHash = v, moveHash(&ms[bi])
					if ply == 0 {
						s.rootBest = movegen.Clone(&ms[bi])
					}
				}
				break
			}
		}
		m := &ms[i]
		s.leftmost = left && i == 0
		v, exact := s.try(side, ply, tryDepth, alpha, beta, best, lastPass, m, i == 0)
		s.leftmost = left
		allExact = allExact && exact
		if v > best {
			best, bestHash = v, moveHash(m)
			if ply == 0 {
				s.rootBest = movegen.Clone(m)
			}
		}
		if best > alpha {
			alpha = best
		}
		if alpha >= beta {
			break
		}
	}
	flag := uint8(flagExact)
	switch {
	case best <= alpha0:
		flag = flagUpper
	case best >= beta:
		flag = flagLower
	}
	d := exactDepth(depth, allExact)
	s.tt.store(s.hash, entry{key: s.hash, value: int32(best), depth: d, flag: flag, best: bestHash})
	return best, allExact
}

// try searches move m (placement or pass) of side at a node, the best
// value of its siblings so far being best (math.MinInt32: none yet), and
// returns its value for side and whether that is exact to the end. A
// move after the first gets a null-window search first (principal
// variation search), to prove it no better than best; only one that
// beats it is searched again with the full window.
func (s *solver) try(side, ply, depth, alpha, beta, best int, lastPass bool, m *move.Move, first bool) (int, bool) {
	opp := 1 - side
	if m.Kind == move.Pass {
		if lastPass {
			return s.racks[opp].Value(s.scores) - s.racks[side].Value(s.scores), true
		}
		s.hash ^= s.zside ^ s.zpass
		pb := &s.plies[ply]
		pb.changed, pb.moved = board.Lines{}, pb.visit
		onLine := s.split != nil && s.leftmost
		if onLine {
			s.path = append(s.path, step{side: side, m: *m, lastPass: lastPass})
		}
		c, ex := s.negamax(opp, ply+1, depth-1, -beta, -max(alpha, best), true)
		if onLine {
			s.path = s.path[:len(s.path)-1]
		}
		s.hash ^= s.zside ^ s.zpass
		return -c, ex
	}
	if a := max(alpha, best); !first && (depth > 1 || s.opt.Playout) && a+1 < beta {
		v, exact := s.play(side, m, ply, depth, a, a+1, a, lastPass)
		if v > a && v < beta {
			v, exact = s.play(side, m, ply, depth, a, beta, a, lastPass)
		}
		return v, exact
	}
	return s.play(side, m, ply, depth, alpha, beta, best, lastPass)
}

// exactDepth is the depth a table entry records: the plies searched,
// or deepExact when the value is exact to the end of the game.
func exactDepth(depth int, exact bool) int16 {
	if exact {
		return deepExact
	}
	return int16(depth)
}

// play makes placement m for side, searches, and unmakes it.
func (s *solver) play(side int, m *move.Move, ply, depth, alpha, beta, best int, lastPass bool) (int, bool) {
	opp := 1 - side
	r := &s.racks[side]
	old := *r
	*r = m.Kept(old)
	if r.Len() == 0 {
		*r = old
		return m.Score + 2*s.racks[opp].Value(s.scores), true
	}
	h0, b0 := s.hash, s.bhash
	s.hashMove(side, m, &old, r, lastPass)
	if depth == 1 && !s.opt.Playout {
		// The child is a leaf: its value from the table when it was
		// searched exactly, or else estimated on this board, before m
		// is made: the opponent's best score minus ours with the tiles
		// m leaves. Siblings share the opponent's half, and moves that
		// keep the same tiles share ours (estimate cache), so a leaf
		// costs no move generation most of the time.
		s.tick()
		var v int
		exact := false
		if e, ok := s.tt.load(s.hash); ok && e.flag == flagExact {
			v, exact = int(e.value), e.depth == deepExact
		} else {
			s.bhash = b0 // this board's
			mine := 0
			if kb := &s.plies[ply].kept; kb.ok {
				mine = kb.of(r)
			} else {
				mine = s.bestScore(r)
			}
			v = s.replyScore(opp, ply, lastPass) - mine
		}
		s.hash, s.bhash = h0, b0
		*r = old
		return m.Score - v, exact
	}
	s.b.PlaceLine(m.Dir, m.Row, m.Col, m.Tiles, 1000)
	pb := &s.plies[ply]
	pb.changed, _ = s.b.Changed()
	pb.moved = pb.visit
	onLine := s.split != nil && s.leftmost // the path is kept along the leftmost line only
	if onLine {
		s.path = append(s.path, step{side: side, m: *m, lastPass: lastPass})
	}
	c, exact := s.negamax(opp, ply+1, depth-1, -beta+m.Score, -max(alpha, best)+m.Score, false)
	if onLine {
		s.path = s.path[:len(s.path)-1]
	}
	s.b.Undo()
	s.hash, s.bhash = h0, b0
	*r = old
	return m.Score - c, exact
}

// hashMove updates the hashes for placement m by side, whose rack went
// from old to now: the rack, the tiles put down (in bhash too), the side
// to move, and the pass before it (lastPass) no longer the last move.
func (s *solver) hashMove(side int, m *move.Move, old, now *alphabet.Rack, lastPass bool) {
	s.rehashRack(side, old, now)
	for i, t := range m.Tiles {
		if t != move.PlayThrough {
			row, col := m.Square(i)
			z := s.zsq[row*s.b.Size+col][sqTile(t)]
			s.hash ^= z
			s.bhash ^= z
		}
	}
	s.hash ^= s.zside
	if lastPass {
		s.hash ^= s.zpass
	}
}

func (s *solver) rehashRack(side int, old, now *alphabet.Rack) {
	for t := range old {
		if old[t] != now[t] {
			if old[t] > 0 {
				s.hash ^= s.zrack[side][t][min(int(old[t]), 7)]
			}
			if now[t] > 0 {
				s.hash ^= s.zrack[side][t][min(int(now[t]), 7)]
			}
		}
	}
}

// estimate values a position the search stops in: the best score the
// side to move can make now minus the best the opponent could make now.
func (s *solver) estimate(side int) int {
	return s.bestScore(&s.racks[side]) - s.bestScore(&s.racks[1-side])
}

// bestScore is the highest score of rack on the board (0 when it has no
// placement), from the estimate cache when the same rack met the same
// board before: sibling leaves share the rack of the side that did not
// move, transpositions share both, and the next iteration of the
// deepening meets the previous one's leaves again.
func (s *solver) bestScore(rack *alphabet.Rack) int {
	key := s.rackKey(rack)
	e := &s.ecache[key&(1<<estBits-1)]
	if e.key == key {
		return int(e.score)
	}
	sc := s.bestScoreUncached(rack)
	*e = estEntry{key: key, score: int32(sc)}
	return sc
}

// bestScoreUncached is the best score of rack on the board, searched.
func (s *solver) bestScoreUncached(rack *alphabet.Rack) int {
	if m, ok := movegen.Best(s.gen, s.b, rack); ok {
		return m.Score
	}
	return 0
}

// outPolicy is the playout's choice of move, written as a leave value:
// going out earns twice the opponent's rack, and every tile kept costs
// its face value.
type outPolicy struct {
	bonus  float64
	scores []int
}

// Eval implements movegen.Leave.
func (p *outPolicy) Eval(kept *alphabet.Rack) float64 {
	if kept.Len() == 0 {
		return p.bonus
	}
	return -float64(kept.Value(p.scores))
}

// playoutValue is playout's value from the cache when the position
// (side to move and the pass before included) met it before.
func (s *solver) playoutValue(side int, lastPass bool) int {
	key := s.hash
	if lastPass {
		key = ^key
	}
	e := &s.pcache[key&(1<<estBits-1)]
	if e.key == key {
		return int(e.score)
	}
	v := s.playout(side, lastPass)
	*e = estEntry{key: key, score: int32(v)}
	return v
}

// playout values a position the search stops in by playing it to the
// end: the sides take turns, each playing its best placement by score
// plus outPolicy, or passing when it has none, until one goes out (and
// earns twice the other's rack) or both pass in a row (and each loses
// its own rack). It returns the spread side gains, and leaves the board
// and racks as they were.
func (s *solver) playout(side int, lastPass bool) int {
	saved := s.racks
	total, placed := 0, 0
	cur, passed := side, lastPass
	for step := 0; step < 32; step++ {
		sign := 1
		if cur != side {
			sign = -1
		}
		other := 1 - cur
		s.pol = outPolicy{bonus: float64(2 * s.racks[other].Value(s.scores)), scores: s.scores}
		m, ok := s.policyMove(cur)
		if !ok {
			if passed {
				total += sign * (s.racks[other].Value(s.scores) - s.racks[cur].Value(s.scores))
				break
			}
			passed, cur = true, other
			continue
		}
		passed = false
		s.racks[cur] = m.Kept(s.racks[cur])
		total += sign * m.Score
		if s.racks[cur].Len() == 0 {
			total += sign * 2 * s.racks[other].Value(s.scores)
			break
		}
		s.b.PlaceLine(m.Dir, m.Row, m.Col, m.Tiles, 1000)
		placed++
		cur = other
	}
	for ; placed > 0; placed-- {
		s.b.Undo()
	}
	s.racks = saved
	return total
}

// policyMove is the playout's placement for side: the best by score plus
// s.pol.
func (s *solver) policyMove(side int) (move.Move, bool) {
	if g, ok := s.gen.(movegen.Searcher); ok {
		sc, ok := g.Best(s.b, &s.racks[side], &s.pol)
		return sc.Move, ok
	}
	top := movegen.Search(s.gen, s.b, &s.racks[side], &s.pol, 1)
	if len(top) == 0 {
		return move.Move{}, false
	}
	return top[0].Move, true
}

// pv follows the table's best moves from the root.
// replyScore is the best score of the opponent (opp) of the side to move
// at a node one ply above the frontier. When the node was reached by the
// opponent's placement, its parent listed every move of the opponent's
// rack on the board before it: the best of them that keeps to the tiles
// still on that rack and touches none of the squares the placement
// changed (off the lines it changed, with a generator that cannot search
// near the squares) is still a move with the same score, so only the
// moves near those squares need a search, with that score as the floor
// (see movegen.BestAfter).
func (s *solver) replyScore(opp, ply int, lastPass bool) int {
	rack := &s.racks[opp]
	ls, ok := s.gen.(movegen.LineSearcher)
	if !ok || ply == 0 || lastPass || s.opt.Width > 0 {
		return s.bestScore(rack)
	}
	key := s.rackKey(rack)
	e := &s.ecache[key&(1<<estBits-1)]
	if e.key == key {
		return int(e.score)
	}
	if !s.b.ChangedSquares(&s.ch) {
		return s.bestScore(rack)
	}
	// The parent's moves best score first: the first that qualifies is
	// the best.
	pb := &s.plies[ply-1]
	if !pb.scored {
		pb.byScore = movegen.Order(pb.moves, pb.byScore)
		pb.scored = true
	}
	best, found := 0, false
	for _, k := range pb.byScore {
		m := &pb.moves[uint32(k)]
		if m.Kind != move.Place || !movegen.Unchanged(ls, m, &s.ch) || !within(m, rack) {
			continue
		}
		best, found = m.Score, true
		break
	}
	floor := math.Inf(-1)
	if found {
		floor = float64(best)
	}
	if top := movegen.SearchChanges(ls, s.b, rack, nil, 1, &s.ch, floor, s.one[:0]); len(top) > 0 {
		best = max(best, top[0].Move.Score)
	}
	if s.checkReply != nil {
		s.checkReply(best, s.bestScoreUncached(rack))
	}
	*e = estEntry{key: key, score: int32(best)}
	return best
}

// within reports whether the tiles m puts on the board are all on rack.
func within(m *move.Move, rack *alphabet.Rack) bool {
	var need alphabet.Rack
	for _, t := range m.Tiles {
		if t == move.PlayThrough {
			continue
		}
		if t.IsBlanked() {
			t = alphabet.Blank
		}
		if need[t]++; need[t] > rack[t] {
			return false
		}
	}
	return true
}

// rackKey is the key of a rack on the current board in ecache.
func (s *solver) rackKey(rack *alphabet.Rack) uint64 {
	key := s.bhash
	for t, c := range rack {
		if c > 0 {
			key ^= s.zrack[0][t][min(int(c), 7)]
		}
	}
	return key | 1
}

func (s *solver) pv(lastPass bool, depth int) []move.Move {
	var line []move.Move
	side := 0
	type undo struct {
		placed      bool
		side        int
		rack        alphabet.Rack
		hash, bhash uint64
	}
	var undos []undo
	for ply := 0; ply < depth; ply++ {
		e, ok := s.tt.load(s.hash)
		if !ok || e.best == 0 {
			break
		}
		var found *move.Move
		if e.best == 1 {
			found = &move.Move{Kind: move.Pass}
		} else {
			ms := movegen.All(s.gen, s.b, &s.racks[side])
			for i := range ms {
				if moveHash(&ms[i]) == e.best {
					found = &ms[i]
					break
				}
			}
		}
		if found == nil {
			break
		}
		line = append(line, *found)
		u := undo{side: side, rack: s.racks[side], hash: s.hash, bhash: s.bhash}
		if found.Kind == move.Pass {
			if lastPass {
				break
			}
			s.hash ^= s.zside ^ s.zpass
			lastPass = true
		} else {
			r := &s.racks[side]
			*r = found.Kept(u.rack)
			if r.Len() == 0 {
				*r = u.rack
				break
			}
			s.hashMove(side, found, &u.rack, r, lastPass)
			lastPass = false
			s.b.PlaceLine(found.Dir, found.Row, found.Col, found.Tiles, 1000)
			u.placed = true
		}
		undos = append(undos, u)
		side = 1 - side
	}
	for i := len(undos) - 1; i >= 0; i-- {
		u := undos[i]
		if u.placed {
			s.b.Undo()
		}
		s.racks[u.side] = u.rack
		s.hash, s.bhash = u.hash, u.bhash
	}
	return line
}

// MoveValue is the spread that move m of the side to move (holding me,
// against opp, on board b, lastPass telling whether the opponent's last
// move was a pass) gains from here to the end, the opponent then
// playing best: Solve's Value of the position, for one move chosen by
// the caller. A placement that empties the rack ends the game and gains
// its score and twice the opponent's tiles (the spread moves by that
// much under either end rule); a second scoreless turn in a row ends it
// with each side losing what it holds; any other move is followed by a
// search of the opponent's reply, bounded by opt (exact reports whether
// it reached the end on every line). m must be legal; b is not changed.
func MoveValue(gen movegen.Generator, b *board.Board, me, opp alphabet.Rack, lastPass bool, m move.Move, opt Options) (value int, exact bool) {
	scores := b.Variant.Scores
	kept := m.Kept(me)
	switch {
	case m.Kind == move.Place && kept.Len() == 0:
		return m.Score + 2*opp.Value(scores), true
	case m.Kind != move.Place && lastPass:
		return opp.Value(scores) - kept.Value(scores), true
	}
	after := b.Clone()
	pass := true
	if m.Kind == move.Place {
		after.PlaceLine(m.Dir, m.Row, m.Col, m.Tiles, 1000)
		pass = false
	}
	res := Solve(gen, after, opp, kept, pass, opt)
	return m.Score - res.Value, res.Exact
}
