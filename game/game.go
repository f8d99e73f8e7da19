// Package game plays a game as the game module of Guberman et al.
// (section 2; see doc/REFERENCES.md) describes it: K players (2 to 4), a
// seeded bag, racks, turns with placements, exchanges and passes, the end
// of the game and the final adjustment, and a history of every turn.
package game

import (
	"errors"
	"fmt"
	"math/rand/v2"

	"atril/alphabet"
	"atril/board"
	"atril/lexicon"
	"atril/move"
	"atril/variant"
)

// Seat is a place at the game: the name of whoever sits there (a person
// or a computer level, see package player), the rack and the score.
type Seat struct {
	Name  string
	Rack  alphabet.Rack
	Score int
}

// TurnKind says what a history entry records.
type TurnKind uint8

const (
	// Played is a move (placement, exchange or pass).
	Played TurnKind = iota
	// OutBonus is the points a player who went out gains from another
	// player's rack.
	OutBonus
	// RackPenalty is the value of the tiles left on a player's rack,
	// lost at the end.
	RackPenalty
	// TimePenalty is the points a player loses at the end for the time
	// they took past their clock's allowance (Rack: the rack they were
	// left with).
	TimePenalty
	// Withdrawn is a placement taken back after a successful challenge
	// (Move: the placement; Points: minus its score; Rack: the rack the
	// player holds again).
	Withdrawn
	// ChallengeBonus is the points the player of a valid placement gains
	// when it is challenged under the 5- or 10-point rule.
	ChallengeBonus
	// LostTurn is the turn a player loses by challenging a valid
	// placement under the double-challenge rule (Rack: their rack).
	LostTurn
)

// ChallengeRule says how a game treats a placement that forms a word
// missing from its word list (a phony).
type ChallengeRule uint8

const (
	// Void refuses such a placement when it is played: no phony ever
	// reaches the board. The default.
	Void ChallengeRule = iota
	// Single lets any placement stand until the next player challenges
	// it: a phony is taken back and its player scores nothing for the
	// turn; a challenge of a valid placement costs nothing.
	Single
	// Double is Single, except that a challenge of a valid placement
	// costs the challenger their turn (the North American club and
	// tournament rule).
	Double
	// FivePoint is Single, except that a challenge of a valid placement
	// gives its player 5 points (the rule of play under the Collins
	// list).
	FivePoint
	// TenPoint is FivePoint with 10 points.
	TenPoint
)

// challengeRuleNames are the rules' names, by value.
var challengeRuleNames = [...]string{Void: "void", Single: "single", Double: "double", FivePoint: "5pt", TenPoint: "10pt"}

// String is the rule's name: void, single, double, 5pt or 10pt.
func (r ChallengeRule) String() string {
	if int(r) < len(challengeRuleNames) {
		return challengeRuleNames[r]
	}
	return fmt.Sprintf("ChallengeRule(%d)", r)
}

// ParseChallengeRule reads a rule's name (as String writes it; "" is
// void).
func ParseChallengeRule(s string) (ChallengeRule, error) {
	if s == "" {
		return Void, nil
	}
	for r, n := range challengeRuleNames {
		if n == s {
			return ChallengeRule(r), nil
		}
	}
	return Void, fmt.Errorf("challenge rule %q: want void, single, double, 5pt or 10pt", s)
}

// bonus is the points a valid placement's player gains when challenged.
func (r ChallengeRule) bonus() int {
	switch r {
	case FivePoint:
		return 5
	case TenPoint:
		return 10
	}
	return 0
}

// Turn is one entry of the history.
type Turn struct {
	Kind   TurnKind
	Player int
	// Rack is the player's rack before the move (for OutBonus: the rack
	// of the player whose tiles are counted).
	Rack alphabet.Rack
	Move move.Move
	// Notation is the move as written for the board it was played on.
	Notation string
	// Points gained (negative for a penalty) and the player's total after.
	Points int
	Total  int
	// Drawn lists the tiles drawn after the move.
	Drawn []alphabet.Tile
	// Phonies lists the words of a placement played under a challenge
	// rule that the word list lacks, main word first. It is hidden
	// information until the placement is challenged or the game ends.
	Phonies []string
}

// Kept returns the tiles a placement or exchange left on the rack, and
// whether the draw after it made up every tile used (false when the bag
// ran short, and for anything but a placement or exchange).
func (t *Turn) Kept() (alphabet.Rack, bool) {
	if t.Kind != Played || (t.Move.Kind != move.Place && t.Move.Kind != move.Exchange) {
		return alphabet.Rack{}, false
	}
	used := t.Move.NewTiles()
	if t.Move.Kind == move.Exchange {
		used = len(t.Move.Exchanged)
	}
	return t.Move.Kept(t.Rack), len(t.Drawn) == used
}

// Game is the state of a game.
type Game struct {
	Variant *variant.Variant
	Lex     *lexicon.Lexicon
	Board   *board.Board
	// Seats holds the seats in turn order.
	Seats   []Seat
	History []Turn
	Seed    uint64

	bag     []alphabet.Tile
	rng     *rand.Rand
	current int
	// scoreless counts consecutive scoreless turns; passes consecutive passes.
	scoreless, passes int
	over              bool
	// moves counts Played turns (the turn number stamped on tiles).
	moves int
	// resigned is the player who resigned (-1: nobody); timedOut the
	// player who lost on time (-1: nobody); aborted is set when the game
	// was called off before its first move.
	resigned, timedOut int
	aborted            bool

	rule    ChallengeRule
	endRule EndRule
	// open is the index in History of the placement that the player on
	// turn may still challenge, or -1; before are the scoreless-turn
	// count from before it (restored if it is withdrawn); outPending says
	// that it emptied its player's rack with the bag empty, so the game
	// ends when it is accepted or upheld.
	open       int
	before     int
	outPending bool
}

// EndRule says how the tiles left on the racks count at the end of a
// game.
type EndRule uint8

const (
	// RacksEach: every player loses the value of their rack, and the
	// player who went out gains the value of every other rack (the
	// international rule, and atril's).
	RacksEach EndRule = iota
	// OutTwice: the player who went out gains twice the value of every
	// other rack, and nobody loses anything; when nobody went out (the
	// scoreless turns ran out), each player loses their rack's value as
	// under RacksEach. This is the North American rule, which records
	// read from such games follow.
	OutTwice
)

// SetEndRule sets how racks count at the end; only before the first
// move.
func (g *Game) SetEndRule(r EndRule) error {
	if len(g.History) > 0 {
		return errors.New("game: the end-of-game rule is set before the first move")
	}
	if r > OutTwice {
		return fmt.Errorf("game: unknown end-of-game rule %d", r)
	}
	g.endRule = r
	return nil
}

// EndRule is the game's end-of-game rule.
func (g *Game) EndRule() EndRule { return g.endRule }

// ErrGameOver is returned for a move after the end of the game.
var ErrGameOver = errors.New("the game is over")

// New starts a game for the named players with a bag shuffled by seed.
// Each player draws a full rack in seat order.
func New(v *variant.Variant, lex *lexicon.Lexicon, names []string, seed uint64) (*Game, error) {
	if len(names) < 2 || len(names) > 4 {
		return nil, fmt.Errorf("game: %d players; 2 to 4 can play", len(names))
	}
	g := &Game{Variant: v, Lex: lex, Board: board.New(v, lex), Seed: seed, resigned: -1, timedOut: -1, open: -1,
		rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
	// The bag is filled in an order that depends on the letters alone, not
	// on their tile codes, so a variant file that lists its tiles in
	// another order deals the same letters from the same seed.
	for _, t := range append([]alphabet.Tile{alphabet.Blank}, v.Alphabet.Collated()...) {
		for i := 0; i < v.Counts[t]; i++ {
			g.bag = append(g.bag, t)
		}
	}
	if len(g.bag) < len(names)*v.RackSize {
		return nil, fmt.Errorf("game: %d tiles are too few for %d racks of %d", len(g.bag), len(names), v.RackSize)
	}
	g.rng.Shuffle(len(g.bag), func(i, j int) { g.bag[i], g.bag[j] = g.bag[j], g.bag[i] })
	for _, n := range names {
		g.Seats = append(g.Seats, Seat{Name: n})
	}
	for i := range g.Seats {
		g.draw(i)
	}
	return g, nil
}

// FromPosition starts a game at a position: the tiles on the board
// (squares row-major, board.Empty where there is none), each seat's rack
// and score in turn order, seat 0 on turn, and the count of consecutive
// scoreless turns that led to it. The bag holds what the set leaves,
// shuffled by seed. Seat 0's rack is taken as given, short or empty; the
// other seats' racks are filled from the bag, as after a draw (a rack
// not given is unknown tiles). With the bag empty the scoreless turns
// are taken as passes, the only scoreless turns left then. The position
// need not be one a game could reach: its words are not checked.
func FromPosition(v *variant.Variant, lex *lexicon.Lexicon, names []string, squares []alphabet.Tile, racks []alphabet.Rack, scores []int, scoreless int, seed uint64) (*Game, error) {
	n := v.Size
	switch {
	case len(names) < 2 || len(names) > 4:
		return nil, fmt.Errorf("game: %d players; 2 to 4 can play", len(names))
	case len(racks) != len(names) || len(scores) != len(names):
		return nil, fmt.Errorf("game: %d players, %d racks and %d scores", len(names), len(racks), len(scores))
	case len(squares) != n*n:
		return nil, fmt.Errorf("game: %d squares for a %d×%d board", len(squares), n, n)
	case scoreless < 0:
		return nil, fmt.Errorf("game: %d scoreless turns", scoreless)
	}
	g := &Game{Variant: v, Lex: lex, Board: board.New(v, lex), Seed: seed, resigned: -1, timedOut: -1, open: -1,
		rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), scoreless: scoreless}
	var left alphabet.Rack
	for t, c := range v.Counts {
		left[t] = uint8(c)
	}
	take := func(t alphabet.Tile, where string) error {
		if t.IsBlanked() {
			t = alphabet.Blank
		}
		if int(t) >= len(v.Counts) || !left.Remove(t) {
			return fmt.Errorf("game: %s: more %s than the %s set holds", where, v.Alphabet.Spell([]alphabet.Tile{t}), v.Name)
		}
		return nil
	}
	for i, t := range squares {
		if t == board.Empty {
			continue
		}
		if err := take(t, "square "+variant.SquareName(i/n, i%n)); err != nil {
			return nil, err
		}
		g.Board.SetTile(i/n, i%n, t, -1)
	}
	g.Board.Recompute()
	for i, name := range names {
		if racks[i].Len() > v.RackSize {
			return nil, fmt.Errorf("game: rack %d holds %d tiles; the rack size is %d", i+1, racks[i].Len(), v.RackSize)
		}
		for _, t := range racks[i].Tiles() {
			if err := take(t, fmt.Sprintf("rack %d", i+1)); err != nil {
				return nil, err
			}
		}
		g.Seats = append(g.Seats, Seat{Name: name, Rack: racks[i], Score: scores[i]})
	}
	for _, t := range append([]alphabet.Tile{alphabet.Blank}, v.Alphabet.Collated()...) {
		for i := 0; i < int(left[t]); i++ {
			g.bag = append(g.bag, t)
		}
	}
	g.rng.Shuffle(len(g.bag), func(i, j int) { g.bag[i], g.bag[j] = g.bag[j], g.bag[i] })
	for i := 1; i < len(g.Seats); i++ {
		g.draw(i)
	}
	if len(g.bag) == 0 {
		g.passes = scoreless
	}
	return g, nil
}

// LastWasPass reports whether the last move was a pass (under the
// two-passes rule a pass now would end the game).
func (g *Game) LastWasPass() bool { return g.passes > 0 }

// draw fills player i's rack from the bag and returns the tiles drawn.
func (g *Game) draw(i int) []alphabet.Tile {
	var drawn []alphabet.Tile
	p := &g.Seats[i]
	for p.Rack.Len() < g.Variant.RackSize && len(g.bag) > 0 {
		t := g.bag[len(g.bag)-1]
		g.bag = g.bag[:len(g.bag)-1]
		p.Rack.Add(t)
		drawn = append(drawn, t)
	}
	return drawn
}

// Current is the index of the player on turn.
func (g *Game) Current() int { return g.current }

// Over reports whether the game has ended.
func (g *Game) Over() bool { return g.over }

// BagLen is the number of tiles in the bag.
func (g *Game) BagLen() int { return len(g.bag) }

// MovesPlayed is the number of moves (placements, exchanges, passes) made.
func (g *Game) MovesPlayed() int { return g.moves }

// ScorelessTurns is the number of consecutive scoreless turns so far.
func (g *Game) ScorelessTurns() int { return g.scoreless }

// Unseen returns the tiles player i cannot see: the bag and the other
// racks together, as a rack-shaped count.
func (g *Game) Unseen(i int) alphabet.Rack {
	var u alphabet.Rack
	for _, t := range g.bag {
		u.Add(t)
	}
	for j := range g.Seats {
		if j == i {
			continue
		}
		u.AddRack(&g.Seats[j].Rack)
	}
	return u
}

// Check validates a move for the player on turn without playing it, and
// sets its score. Under a challenge rule a placement that forms words
// missing from the word list passes (it can be challenged once played).
func (g *Game) Check(m *move.Move) error {
	_, err := g.check(m)
	return err
}

// check is Check, returning the phonies a placement forms under a
// challenge rule.
func (g *Game) check(m *move.Move) ([]string, error) {
	switch {
	case g.over:
		return nil, ErrGameOver
	case g.outPending:
		return nil, ErrAwaitingChallenge
	case g.rule != Void:
		return move.ValidateUnjudged(g.Board, &g.Seats[g.current].Rack, m, len(g.bag))
	}
	return nil, move.Validate(g.Board, &g.Seats[g.current].Rack, m, len(g.bag))
}

// ErrAwaitingChallenge is returned for a move while the last placement,
// which went out, waits to be challenged or accepted.
var ErrAwaitingChallenge = errors.New("the last play went out: challenge it or accept it first")

// SetChallengeRule sets how the game treats phonies; it can be set only
// before the first move.
func (g *Game) SetChallengeRule(r ChallengeRule) error {
	if int(r) >= len(challengeRuleNames) {
		return fmt.Errorf("game: unknown challenge rule %d", r)
	}
	if g.moves > 0 || g.over {
		return errors.New("game: the challenge rule is set before the first move")
	}
	g.rule = r
	return nil
}

// ChallengeRule is the game's challenge rule.
func (g *Game) ChallengeRule() ChallengeRule { return g.rule }

// Challengeable returns the index in History of the placement that the
// player on turn may challenge, and whether there is one.
func (g *Game) Challengeable() (int, bool) { return g.open, g.open >= 0 }

// AwaitingChallenge reports whether the game waits for the player on turn
// to challenge or accept a placement that went out: until then no other
// move is accepted, and the game ends when the placement stands.
func (g *Game) AwaitingChallenge() bool { return g.outPending }

// Play validates and plays a move for the player on turn.
func (g *Game) Play(m move.Move) error {
	phonies, err := g.check(&m)
	if err != nil {
		return err
	}
	g.open = -1
	m.Tiles = append([]alphabet.Tile(nil), m.Tiles...)
	m.Exchanged = append([]alphabet.Tile(nil), m.Exchanged...)
	i := g.current
	p := &g.Seats[i]
	t := Turn{Kind: Played, Player: i, Rack: p.Rack, Move: m, Notation: m.String(g.Board), Points: m.Score, Phonies: phonies}
	switch m.Kind {
	case move.Place:
		if g.rule != Void {
			g.open, g.before = len(g.History), g.scoreless
		}
		squares, tiles := m.Placed()
		for _, tl := range tiles {
			p.Rack.Remove(tl)
		}
		g.Board.Place(squares, tiles, g.moves)
		g.Board.Commit() // a game's moves are not taken back
		p.Score += m.Score
		t.Drawn = g.draw(i)
	case move.Exchange:
		for _, tl := range m.Exchanged {
			p.Rack.Remove(tl)
		}
		t.Drawn = g.draw(i)
		g.bag = append(g.bag, m.Exchanged...)
		g.rng.Shuffle(len(g.bag), func(a, b int) { g.bag[a], g.bag[b] = g.bag[b], g.bag[a] })
	}
	t.Total = p.Score
	g.History = append(g.History, t)
	g.moves++
	if m.Kind == move.Pass {
		g.passes++
	} else {
		g.passes = 0
	}
	if m.Score == 0 {
		g.scoreless++
	} else {
		g.scoreless = 0
	}
	switch {
	case m.Kind == move.Place && p.Rack.Len() == 0 && len(g.bag) == 0:
		if g.rule == Void {
			g.finish(i)
			break
		}
		g.outPending = true
		g.current = (g.current + 1) % len(g.Seats)
	default:
		g.endOrNext()
	}
	return nil
}

// endOrNext ends the game if the scoreless turns or the passes have
// reached the variant's limit, and otherwise gives the turn to the next
// player.
func (g *Game) endOrNext() {
	if g.limitReached() {
		g.finish(-1)
		return
	}
	g.current = (g.current + 1) % len(g.Seats)
}

// limitReached reports whether the consecutive scoreless turns or passes
// have reached the variant's limit, which ends the game.
func (g *Game) limitReached() bool {
	return g.Variant.ScorelessTurns > 0 && g.scoreless >= g.Variant.ScorelessTurns ||
		g.Variant.PassingRounds > 0 && g.passes >= g.Variant.PassingRounds*len(g.Seats)
}

// Challenge is player i's challenge of the last placement, which only the
// player on turn (the next after it) may make, before moving. It reports
// whether the placement formed a word missing from the word list. A
// phony is taken back: its tiles return to its player's rack, the tiles
// drawn after it to the bag (which is shuffled), its score is taken off,
// the turn counts as scoreless, and the challenger stays on turn. A valid
// placement stands: under the double rule the challenger loses the turn,
// under the 5- and 10-point rules its player gains the points; if it went
// out, the game ends.
func (g *Game) Challenge(i int) (phony bool, err error) {
	if err := g.mayAnswer(i, "challenge"); err != nil {
		return false, err
	}
	k := g.open
	t := g.History[k]
	g.open = -1
	if len(t.Phonies) == 0 {
		if b := g.rule.bonus(); b > 0 {
			p := &g.Seats[t.Player]
			p.Score += b
			g.History = append(g.History, Turn{Kind: ChallengeBonus, Player: t.Player, Rack: p.Rack, Points: b, Total: p.Score})
		}
		if g.outPending {
			g.outPending = false
			g.finish(t.Player)
			return false, nil
		}
		if g.rule == Double {
			// The lost turn counts as a pass.
			g.History = append(g.History, Turn{Kind: LostTurn, Player: i, Rack: g.Seats[i].Rack, Total: g.Seats[i].Score})
			g.scoreless++
			g.passes++
			g.endOrNext()
		}
		return false, nil
	}
	p := &g.Seats[t.Player]
	g.bag = append(g.bag, t.Drawn...)
	g.rng.Shuffle(len(g.bag), func(a, b int) { g.bag[a], g.bag[b] = g.bag[b], g.bag[a] })
	p.Rack = t.Rack
	squares, _ := t.Move.Placed()
	g.Board.Remove(squares) // (not an undo: the board was committed)
	p.Score -= t.Points
	g.History = append(g.History, Turn{Kind: Withdrawn, Player: t.Player, Rack: p.Rack, Move: t.Move,
		Notation: t.Notation, Points: -t.Points, Total: p.Score, Phonies: t.Phonies})
	g.outPending = false
	g.scoreless = g.before + 1
	if g.limitReached() {
		g.finish(-1)
	}
	return true, nil
}

// Accept is player i's acceptance of a placement that went out (see
// AwaitingChallenge): the placement stands and the game ends.
func (g *Game) Accept(i int) error {
	if err := g.mayAnswer(i, "accept"); err != nil {
		return err
	}
	if !g.outPending {
		return errors.New("game: nothing to accept: the last play did not go out")
	}
	out := g.History[g.open].Player
	g.open, g.outPending = -1, false
	g.finish(out)
	return nil
}

// mayAnswer checks that player i may challenge or accept the last
// placement now.
func (g *Game) mayAnswer(i int, what string) error {
	switch {
	case g.over:
		return ErrGameOver
	case g.rule == Void:
		return fmt.Errorf("game: no %s under the void rule: every word is checked when it is played", what)
	case i < 0 || i >= len(g.Seats):
		return fmt.Errorf("game: player %d, but the game has players 0 to %d", i, len(g.Seats)-1)
	case g.open < 0:
		return fmt.Errorf("game: nothing to %s: the last move is not a placement, or has been answered", what)
	case i != g.current:
		return fmt.Errorf("game: only the player on turn, the next after the play, may %s it", what)
	}
	return nil
}

// RackValue is the sum of the scores of the tiles on a rack.
func (g *Game) RackValue(r *alphabet.Rack) int {
	return r.Value(g.Variant.Scores)
}

// finish ends the game: every player loses the value of their rack, and
// the player who went out (out ≥ 0) gains the value of every other rack;
// under OutTwice that player gains twice as much and the others lose
// nothing.
func (g *Game) finish(out int) {
	g.over = true
	for j := range g.Seats {
		if j == out {
			continue
		}
		val := g.RackValue(&g.Seats[j].Rack)
		if out >= 0 && g.endRule == OutTwice {
			g.Seats[out].Score += 2 * val
			g.History = append(g.History, Turn{Kind: OutBonus, Player: out, Rack: g.Seats[j].Rack,
				Points: 2 * val, Total: g.Seats[out].Score})
			continue
		}
		if out >= 0 {
			g.Seats[out].Score += val
			g.History = append(g.History, Turn{Kind: OutBonus, Player: out, Rack: g.Seats[j].Rack,
				Points: val, Total: g.Seats[out].Score})
		}
		g.Seats[j].Score -= val
		g.History = append(g.History, Turn{Kind: RackPenalty, Player: j, Rack: g.Seats[j].Rack,
			Points: -val, Total: g.Seats[j].Score})
	}
}

// Winners returns the indexes of the players with the highest score. A
// player who resigned or lost on time does not win, whatever the score,
// and a game called off before its first move has no winner.
func (g *Game) Winners() []int {
	if g.aborted {
		return nil
	}
	best, any := 0, false
	for i, p := range g.Seats {
		if !g.lost(i) && (!any || p.Score > best) {
			best, any = p.Score, true
		}
	}
	var w []int
	for i, p := range g.Seats {
		if !g.lost(i) && p.Score == best {
			w = append(w, i)
		}
	}
	return w
}

// Resign ends the game by player i's resignation: the scores stay as
// they are, no rack is counted, and the highest score among the other
// players wins (in a game of two, the opponent). Any player may resign
// at any time before the end, on turn or not.
func (g *Game) Resign(i int) error { return g.forfeit(i, &g.resigned, "resigns") }

// forfeit ends the game by player i's loss (a resignation, a loss on
// time), recorded in *who.
func (g *Game) forfeit(i int, who *int, what string) error {
	if g.over {
		return ErrGameOver
	}
	if i < 0 || i >= len(g.Seats) {
		return fmt.Errorf("game: player %d %s, but the game has players 0 to %d", i, what, len(g.Seats)-1)
	}
	g.over, *who = true, i
	return nil
}

// Resigned is the player who resigned, or -1.
func (g *Game) Resigned() int { return g.resigned }

// lost reports whether player i lost by resigning or on time.
func (g *Game) lost(i int) bool { return i == g.resigned || i == g.timedOut }

// TimeOut ends the game because player i ran out of time (their clock's
// allowance and the most overtime the game allows): as with a
// resignation, the scores stay as they are, no rack is counted and the
// highest score among the other players wins. Time penalties
// (PenalizeTime) may follow.
func (g *Game) TimeOut(i int) error { return g.forfeit(i, &g.timedOut, "runs out of time") }

// TimedOut is the player who lost on time, or -1.
func (g *Game) TimedOut() int { return g.timedOut }

// PenalizeTime takes points off player i's score, once the game is over,
// for the time they took past their clock's allowance (the tournament
// rule: 10 points for each minute or part of a minute over). The
// history records it as a TimePenalty after the end-of-game adjustments.
func (g *Game) PenalizeTime(i, points int) error {
	switch {
	case !g.over:
		return errors.New("game: a time penalty comes after the end of the game")
	case g.aborted:
		return errors.New("game: a game called off has no time penalty")
	case i < 0 || i >= len(g.Seats):
		return fmt.Errorf("game: time penalty for player %d, but the game has players 0 to %d", i, len(g.Seats)-1)
	case points <= 0:
		return fmt.Errorf("game: time penalty of %d points: a penalty takes points off", points)
	}
	p := &g.Seats[i]
	p.Score -= points
	g.History = append(g.History, Turn{Kind: TimePenalty, Player: i, Rack: p.Rack, Points: -points, Total: p.Score})
	return nil
}

// Abort calls the game off before its first move: it ends with no
// winner. Once a move has been made, a player can only resign.
func (g *Game) Abort() error {
	if g.over {
		return ErrGameOver
	}
	if g.moves > 0 {
		return fmt.Errorf("game: %d moves made; a game can be called off only before the first", g.moves)
	}
	g.over, g.aborted = true, true
	return nil
}

// Aborted reports whether the game was called off before its first move.
func (g *Game) Aborted() bool { return g.aborted }

// SetRack replaces the rack of player i with the given tiles, returning
// the old tiles to the bag and taking the new ones from it. It is used to
// replay recorded games whose racks are known.
func (g *Game) SetRack(i int, r alphabet.Rack) error {
	var pool alphabet.Rack
	for _, t := range g.bag {
		pool.Add(t)
	}
	pool.AddRack(&g.Seats[i].Rack)
	if !pool.Contains(&r) {
		return fmt.Errorf("rack %s: not enough of these tiles left in the bag", g.Variant.Alphabet.RackString(&r))
	}
	// Rebuild the bag as pool minus r, keeping the existing bag order
	// where possible: return the old rack, then remove r's tiles.
	g.bag = append(g.bag, g.Seats[i].Rack.Tiles()...)
	need := r
	kept := g.bag[:0]
	for _, t := range g.bag {
		if need[t] > 0 {
			need[t]--
			continue
		}
		kept = append(kept, t)
	}
	g.bag = kept
	g.Seats[i].Rack = r
	return nil
}

// SetCurrent makes player i the one on turn (for loading positions).
func (g *Game) SetCurrent(i int) { g.current = i }

// Bag returns a copy of the bag's tiles, in draw order from the end. It
// is hidden information: only tests, storage and replay may use it.
func (g *Game) Bag() []alphabet.Tile { return append([]alphabet.Tile(nil), g.bag...) }

// Follow applies to g the change that entry t of another game's history
// records, when both games started alike (same variant, word list,
// players, seed and challenge rule): a move, or the answer to a
// challenge. The entries a game writes itself (the end-of-game
// adjustments and time penalties) change nothing, except that an
// adjustment that follows a play which went out and waits for an answer
// accepts the play. It is how a finished game is stepped through again
// for its review.
func (g *Game) Follow(t *Turn) error {
	switch t.Kind {
	case Played:
		return g.Play(t.Move)
	case Withdrawn, ChallengeBonus, LostTurn:
		if g.open < 0 {
			return nil // the challenge that wrote the bonus also wrote this
		}
		phony, err := g.Challenge(g.current)
		if err == nil && phony != (t.Kind == Withdrawn) {
			err = fmt.Errorf("game: the challenged play is phony: %v, but the history says %v", phony, t.Kind == Withdrawn)
		}
		return err
	case OutBonus, RackPenalty:
		if g.outPending {
			return g.Accept(g.current)
		}
	}
	return nil
}

// DealRecorded prepares g, a game whose draws differ from the recorded
// game's (one read from a record that gives each mover's rack but not
// the order of the bag, a GCG file), for entry t of the record's
// history: before a move it deals the player who made it the rack the
// entry records, and gives every other player as many tiles from the
// bag as they held, so the bag keeps its size; before the first move it
// also puts its player on turn. Other entries change nothing. Which
// tiles the others get is arbitrary (and so are the end-of-game
// adjustments, unless the game ends with the bag empty between two
// players, when the other holds exactly what the mover cannot see), but
// the mover's view is exact: the board, the rack, the scores, the bag's
// size and the unseen tiles. Dealing, then Follow, steps through such a
// record.
func (g *Game) DealRecorded(t *Turn) error {
	if t.Kind != Played || g.over {
		return nil
	}
	if len(g.History) == 0 {
		g.current = t.Player
	}
	held := make([]int, len(g.Seats))
	for j := range g.Seats {
		held[j] = g.Seats[j].Rack.Len()
		g.bag = append(g.bag, g.Seats[j].Rack.Tiles()...)
		g.Seats[j].Rack = alphabet.Rack{}
	}
	if err := g.SetRack(t.Player, t.Rack); err != nil {
		return fmt.Errorf("game: deal the recorded rack of player %d: %w", t.Player, err)
	}
	for j := range g.Seats {
		for j != t.Player && g.Seats[j].Rack.Len() < held[j] && len(g.bag) > 0 {
			g.Seats[j].Rack.Add(g.bag[len(g.bag)-1])
			g.bag = g.bag[:len(g.bag)-1]
		}
	}
	return nil
}

// Tally is how a seat played: its turns (placements, exchanges, passes
// and turns lost to a challenge), its bingos (placements of a whole rack)
// and the points of its best placement, placements withdrawn after a
// challenge left out of the last two.
type Tally struct {
	Turns, Bingos, Best int
}

// Tallies returns each seat's Tally from the history, in seat order.
func (g *Game) Tallies() []Tally {
	type placement struct {
		points int
		bingo  bool
	}
	out := make([]Tally, len(g.Seats))
	// placed[i] lists seat i's placements that stand so far.
	placed := make([][]placement, len(g.Seats))
	for _, t := range g.History {
		switch t.Kind {
		case Played:
			out[t.Player].Turns++
			if t.Move.Kind == move.Place {
				placed[t.Player] = append(placed[t.Player], placement{t.Points, t.Move.NewTiles() == g.Variant.RackSize})
			}
		case LostTurn:
			out[t.Player].Turns++
		case Withdrawn:
			// The challenged placement is its player's latest.
			if ps := placed[t.Player]; len(ps) > 0 {
				placed[t.Player] = ps[:len(ps)-1]
			}
		}
	}
	for i, ps := range placed {
		for _, p := range ps {
			if p.bingo {
				out[i].Bingos++
			}
			out[i].Best = max(out[i].Best, p.points)
		}
	}
	return out
}
