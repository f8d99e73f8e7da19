package gcg

import (
	"fmt"
	"strings"

	"atril/alphabet"
	"atril/game"
	"atril/lexicon"
	"atril/move"
	"atril/variant"
)

// Replay plays the file's turns in a new game of the variant and lexicon
// (seed shuffles what is left in the bag). Before each move the racks are
// set to the ones recorded, so the game's own draws do not matter; every
// move is checked by the rules and its score and the player's total must
// match the file. The end-of-game lines must match the game's final
// adjustment.
//
// The game's challenge rule is the one of the #challenge pragma, or else
// the one the lines imply (see the package comment). A "--" or
// "(challenge)" line is the challenge of the placement on the line
// before by the player on turn, which must find it a phony or valid as
// the line says; an end-of-game line after a placement that went out
// and waits to be challenged is its acceptance.
func (f *File) Replay(v *variant.Variant, lex *lexicon.Lexicon, seed uint64) (*game.Game, error) {
	r, err := f.newReplay(v, lex, seed)
	if err != nil {
		return nil, err
	}
	f.Entries = make([]int, len(f.Lines))
	for i := range f.Lines {
		l := &f.Lines[i]
		fail := func(format string, args ...any) error {
			return fmt.Errorf("gcg: line %d: %q: "+format, append([]any{l.Num, l.Text}, args...)...)
		}
		switch l.Kind {
		case EndRack:
			err = r.endRack(i, fail)
		case TimePenalty:
			// Applied once the game is over (a loss on time ends it
			// after the lines).
			r.penalties = append(r.penalties, i)
		case Withdrawn, Challenged:
			if len(r.penalties) > 0 {
				return nil, fail("a challenge after a time penalty: a time penalty comes at the end")
			}
			err = r.challenge(i, fail)
		default:
			if len(r.penalties) > 0 {
				return nil, fail("a move after a time penalty: a time penalty comes at the end")
			}
			err = r.move(i, fail)
		}
		if err != nil {
			return nil, err
		}
		f.Entries[i] = len(r.g.History) - 1
	}
	if err := r.unfinishedRacks(); err != nil {
		return nil, err
	}
	if err := r.ending(); err != nil {
		return nil, err
	}
	for _, i := range r.penalties {
		if err := r.timePenalty(i); err != nil {
			return nil, err
		}
		f.Entries[i] = len(r.g.History) - 1
	}
	return r.g, nil
}

// EntryNotes returns the notes of the turn lines by the History entry
// each line placed them on (after Replay; a note of a line that made no
// entry, before the first move, is left out).
func (f *File) EntryNotes() map[int][]string {
	var out map[int][]string
	for i, ns := range f.LineNotes {
		if i >= len(f.Entries) || f.Entries[i] < 0 {
			continue
		}
		if out == nil {
			out = map[int][]string{}
		}
		out[f.Entries[i]] = append(out[f.Entries[i]], ns...)
	}
	return out
}

// ReplayAnyRule is Replay, except that a file without a #challenge
// pragma that does not replay under the rule its lines imply (the void
// rule, when it records no challenge, in which a word missing from the
// list is refused) is replayed under the double rule, where a phony
// nobody challenged stands, as most games are played; the error is the
// first replay's when neither succeeds.
func (f *File) ReplayAnyRule(v *variant.Variant, lex *lexicon.Lexicon, seed uint64) (*game.Game, error) {
	g, err := f.Replay(v, lex, seed)
	if err == nil || f.Challenge != "" {
		return g, err
	}
	dbl := *f
	dbl.Challenge = game.Double.String()
	if gd, errd := dbl.Replay(v, lex, seed); errd == nil {
		return gd, nil
	}
	return nil, err
}

// timePenalty applies time penalty line i to the game, which must be
// over, and checks the player's rack and total.
func (r *replay) timePenalty(i int) error {
	l, g := &r.f.Lines[i], r.g
	fail := func(format string, args ...any) error {
		return fmt.Errorf("gcg: line %d: %q: "+format, append([]any{l.Num, l.Text}, args...)...)
	}
	p, ok := r.seat[l.Nick]
	if !ok {
		return fail("unknown player %s (not in the #player pragmas)", l.Nick)
	}
	if !g.Over() {
		return fail("a time penalty, but the game is not over")
	}
	if rack := r.racks[i].rack; rack != g.Seats[p].Rack {
		return fail("rack %s, but %s holds %s at the end", l.Rack, l.Nick, rackText(r.v.Alphabet, &g.Seats[p].Rack))
	}
	if err := g.PenalizeTime(p, -l.Score); err != nil {
		return fail("%v", err)
	}
	if t := g.Seats[p].Score; t != l.Total {
		return fail("recorded total %d, but %s's total is %d", l.Total, l.Nick, t)
	}
	return nil
}

// rackAt is a rack as read, with the line it comes from (0 for a #rack
// pragma); ok is false where no rack is known.
type rackAt struct {
	rack alphabet.Rack
	line int
	ok   bool
}

// replay is the state of a replay of a file.
type replay struct {
	f    *File
	v    *variant.Variant
	g    *game.Game
	seat map[string]int // nickname → player
	// racks[i] is the rack of line i; final[j] the #rack pragma of
	// player j.
	racks, final []rackAt
	// kept[j] is what player j kept from their last move (the tiles not
	// played or exchanged), which their next rack must hold.
	kept []rackAt
	// lastMove is the index in g.History of the last move played, or of
	// the entry of the challenge answering it; the end-of-game
	// adjustments come after it. moveLine is the line of that move.
	lastMove, moveLine int
	// matched marks the end-of-game adjustments the file has matched.
	matched map[int]bool
	// started is set once the first move has chosen who starts.
	started bool
	// penalties lists the time penalty lines, applied at the end.
	penalties []int
}

// newReplay starts the game and reads every rack of the file.
func (f *File) newReplay(v *variant.Variant, lex *lexicon.Lexicon, seed uint64) (*replay, error) {
	names := make([]string, len(f.Players))
	r := &replay{f: f, v: v, seat: map[string]int{}, racks: make([]rackAt, len(f.Lines)),
		kept: make([]rackAt, len(f.Players)), lastMove: -1, matched: map[int]bool{}}
	for i, p := range f.Players {
		names[i] = p.Name
		r.seat[p.Nick] = i
	}
	g, err := game.New(v, lex, names, seed)
	if err != nil {
		return nil, fmt.Errorf("gcg: %w", err)
	}
	r.g = g
	rule, err := f.rule()
	if err != nil {
		return nil, err
	}
	if err := g.SetChallengeRule(rule); err != nil {
		return nil, fmt.Errorf("gcg: %w", err)
	}
	for i := range f.Lines {
		l := &f.Lines[i]
		rack, err := r.readRack(l.Rack, fmt.Sprintf("line %d: %q", l.Num, l.Text))
		if err != nil {
			return nil, err
		}
		r.racks[i] = rackAt{rack, l.Num, true}
	}
	// The end-of-game rule: a bonus of twice a rack's value, and no
	// rack's value taken off, is the North American rule.
	twice, penalty := false, false
	for i := range f.Lines {
		if l := &f.Lines[i]; l.Kind == EndRack {
			val := r.racks[i].rack.Value(v.Scores)
			twice = twice || (l.Bonus && val > 0 && l.Score == 2*val)
			penalty = penalty || !l.Bonus
		}
	}
	if twice && !penalty {
		if err := g.SetEndRule(game.OutTwice); err != nil {
			return nil, fmt.Errorf("gcg: %w", err)
		}
	}
	for i, text := range f.Racks {
		if text == "" {
			r.final = append(r.final, rackAt{})
			continue
		}
		rack, err := r.readRack(text, fmt.Sprintf("#rack%d", i+1))
		if err != nil {
			return nil, err
		}
		r.final = append(r.final, rackAt{rack, 0, true})
	}
	return r, nil
}

// rule is the challenge rule of the #challenge pragma or, without one,
// the rule the lines imply: 5pt or 10pt for a "(challenge)" line with
// that bonus, single for any other "(challenge)" or "--" line, and void
// for none.
func (f *File) rule() (game.ChallengeRule, error) {
	if f.Challenge != "" {
		rule, err := game.ParseChallengeRule(f.Challenge)
		if err != nil {
			return game.Void, fmt.Errorf("gcg: #challenge: %w", err)
		}
		return rule, nil
	}
	rule := game.Void
	for _, l := range f.Lines {
		switch {
		case l.Kind == Challenged && l.Score == 5:
			return game.FivePoint, nil
		case l.Kind == Challenged && l.Score == 10:
			return game.TenPoint, nil
		case l.Kind == Challenged || l.Kind == Withdrawn:
			rule = game.Single
		}
	}
	return rule, nil
}

// readRack reads rack text found in place (a line or pragma).
func (r *replay) readRack(text, place string) (alphabet.Rack, error) {
	a := r.v.Alphabet
	ts, err := a.Parse(text, alphabet.WithBlanks)
	if err != nil {
		return alphabet.Rack{}, fmt.Errorf("gcg: %s: rack %q: %w", place, text, err)
	}
	for _, t := range ts {
		if t.IsBlanked() {
			return alphabet.Rack{}, fmt.Errorf("gcg: %s: rack %q: write a blank as ?, not %q", place, text, a.String(t))
		}
	}
	if len(ts) > r.v.RackSize {
		return alphabet.Rack{}, fmt.Errorf("gcg: %s: rack %q holds %d tiles; the rack size is %d", place, text, len(ts), r.v.RackSize)
	}
	return alphabet.RackOf(ts), nil
}

// known returns the rack player j holds while line i is played: the
// rack of j's next move, or j's end-of-game penalty rack, or j's #rack
// pragma.
func (r *replay) known(j, i int) rackAt {
	for k := i + 1; k < len(r.f.Lines); k++ {
		l := &r.f.Lines[k]
		if r.seat[l.Nick] != j {
			continue
		}
		if l.Kind == TimePenalty {
			continue
		}
		if l.Kind == Withdrawn {
			// The tiles drawn after a phony go back to the bag when it
			// is taken back: what they are does not matter.
			return rackAt{}
		}
		if l.Kind != EndRack || !l.Bonus {
			return r.racks[k]
		}
	}
	if j < len(r.final) {
		return r.final[j]
	}
	return rackAt{}
}

// endRack matches end-of-game line i with an adjustment of the game.
func (r *replay) endRack(i int, fail func(string, ...any) error) error {
	l, g := &r.f.Lines[i], r.g
	p := r.seat[l.Nick]
	if g.AwaitingChallenge() {
		// The placement that went out stands: the player on turn
		// accepts it, and the game ends.
		if err := g.Accept(g.Current()); err != nil {
			return fail("%v", err)
		}
	}
	if !g.Over() {
		return fail("end-of-game rack, but the game is not over (the bag holds %d tiles)", g.BagLen())
	}
	want := game.RackPenalty
	if l.Bonus {
		want = game.OutBonus
	}
	found := -1
	for k := r.lastMove + 1; k < len(g.History); k++ {
		t := &g.History[k]
		if !r.matched[k] && t.Kind == want && t.Player == p && t.Rack == r.racks[i].rack {
			found = k
			break
		}
	}
	if found < 0 {
		return fail("the game has no such end-of-game adjustment for %s; it has: %s", l.Nick, r.f.endSummary(g, r.lastMove+1))
	}
	r.matched[found] = true
	t := &g.History[found]
	if t.Points != l.Score {
		return fail("recorded %+d, but the rack %s is worth %d", l.Score, l.Rack, abs(t.Points))
	}
	if t.Total != l.Total {
		return fail("recorded total %d, but %s's total is %d", l.Total, l.Nick, t.Total)
	}
	return nil
}

// move plays turn line i: it deals the recorded racks, plays the move
// under the rules and checks its score and the player's total.
func (r *replay) move(i int, fail func(string, ...any) error) error {
	l, g := &r.f.Lines[i], r.g
	p := r.seat[l.Nick]
	if g.Over() {
		return fail("a move after the end of the game")
	}
	if !r.started {
		g.SetCurrent(p)
		r.started = true
	} else if g.Current() != p {
		return fail("%s moves, but it is %s's turn", l.Nick, r.f.Players[g.Current()].Nick)
	}
	if l.Kind == Pass && g.AwaitingChallenge() && g.ChallengeRule() == game.Double {
		return r.outChallenged(l, p, fail)
	}
	rack := r.racks[i].rack
	if k := r.kept[p]; k.ok && !rack.Contains(&k.rack) && !r.f.PartialRacks {
		return fail("rack %s does not hold the tiles %s kept after line %d", l.Rack, rackText(r.v.Alphabet, &k.rack), k.line)
	}
	m, err := r.parseMove(l, fail)
	if err != nil {
		return err
	}
	// What the player keeps: the rack less the tiles played or exchanged
	// (ok is false if they are not on the rack; the rules will say so).
	keep, keepOK := rack, true
	var gone []alphabet.Tile
	switch m.Kind {
	case move.Place:
		_, gone = m.Placed()
	case move.Exchange:
		gone = m.Exchanged
	}
	for _, tl := range gone {
		keepOK = keepOK && keep.Remove(tl)
	}
	if err := r.deal(i, p, rack, keep, keepOK, fail); err != nil {
		return err
	}
	before := g.Seats[p].Score
	r.lastMove = len(g.History) // where Play records the move
	if err := g.Play(*m); err != nil {
		return fail("%v", err)
	}
	t := &g.History[r.lastMove]
	if t.Points != l.Score {
		return fail("recorded score %+d, but the move scores %d", l.Score, t.Points)
	}
	if before+t.Points != l.Total || t.Total != l.Total {
		return fail("recorded total %d, but %d%+d = %d", l.Total, before, t.Points, t.Total)
	}
	r.kept[p] = rackAt{keep, l.Num, true}
	r.moveLine = l.Num
	return nil
}

// outChallenged reads a pass line that answers a play that went out,
// under the double rule: the challenge of it, which found it valid
// (other writers record the challenger's lost turn so); the game then
// ends.
func (r *replay) outChallenged(l *Line, p int, fail func(string, ...any) error) error {
	g := r.g
	k, _ := g.Challengeable()
	placed := g.History[k]
	before, n := g.Seats[p].Score, len(g.History)
	phony, err := g.Challenge(p)
	switch {
	case err != nil:
		return fail("%v", err)
	case phony:
		return fail("the play on line %d forms %s, missing from the word list: challenged, it is taken back (\">%s: %s -- -%d %d\")",
			r.moveLine, strings.Join(placed.Phonies, ", "), r.f.Players[placed.Player].Nick, rackText(r.v.Alphabet, &placed.Rack), placed.Points, g.Seats[placed.Player].Score)
	case l.Score != 0 || l.Total != before:
		return fail("recorded %+d and total %d, but the challenge of a play that stands changes nothing: %d", l.Score, l.Total, before)
	}
	if n < len(g.History) && g.History[n].Kind == game.ChallengeBonus {
		r.lastMove = n // the adjustments come after the bonus
	}
	return nil
}

// challenge plays challenge line i: the player on turn challenges the
// placement of the line before, which must be line i's player's, and
// finds it a phony (a Withdrawn line) or valid (a Challenged line). The
// recorded rack, points and total must match.
func (r *replay) challenge(i int, fail func(string, ...any) error) error {
	l, g, a := &r.f.Lines[i], r.g, r.v.Alphabet
	p := r.seat[l.Nick]
	what := "a withdrawn play (--)"
	if l.Kind == Challenged {
		what = "a challenged valid play ((challenge))"
	}
	k, ok := g.Challengeable()
	switch {
	case g.Over():
		return fail("%s after the end of the game", what)
	case g.ChallengeRule() == game.Void:
		return fail("%s, but the game is played under the void rule, which has no challenges", what)
	case !ok:
		return fail("%s, but the line before is not a placement that can still be challenged", what)
	}
	placed := g.History[k]
	if placed.Player != p {
		return fail("the play challenged is %s's, on line %d, not %s's", r.f.Players[placed.Player].Nick, r.moveLine, l.Nick)
	}
	before, n := g.Seats[p].Score, len(g.History)
	phony, err := g.Challenge(g.Current())
	if err != nil {
		return fail("%v", err)
	}
	switch {
	case phony && l.Kind == Challenged:
		return fail("the play on line %d forms %s, missing from the word list: challenged, it is taken back (\">%s: %s -- -%d %d\")",
			r.moveLine, strings.Join(placed.Phonies, ", "), l.Nick, rackText(a, &placed.Rack), placed.Points, before-placed.Points)
	case !phony && l.Kind == Withdrawn:
		return fail("the play on line %d forms only words of the list: challenged, it stands and is not taken back", r.moveLine)
	}
	points := 0
	if n < len(g.History) {
		switch t := &g.History[n]; t.Kind {
		case game.Withdrawn, game.ChallengeBonus, game.LostTurn:
			r.lastMove = n
			if t.Player == p {
				points = t.Points
			}
		}
	}
	held := g.Seats[p].Rack
	switch {
	case l.Kind == Withdrawn && l.Score != points:
		return fail("recorded %d, but the play on line %d scored %d", l.Score, r.moveLine, -points)
	case l.Kind == Withdrawn && r.racks[i].rack != placed.Rack:
		return fail("rack %s, but the play on line %d was made from %s", l.Rack, r.moveLine, rackText(a, &placed.Rack))
	case l.Kind == Challenged && l.Score != points:
		return fail("recorded %+d, but under the %s rule a valid play challenged gains %d", l.Score, g.ChallengeRule(), points)
	case l.Kind == Challenged && r.racks[i].rack != held:
		return fail("rack %s, but %s holds %s after the play on line %d", l.Rack, l.Nick, rackText(a, &held), r.moveLine)
	case before+points != l.Total:
		return fail("recorded total %d, but %d%+d = %d", l.Total, before, points, before+points)
	}
	r.kept[p] = rackAt{held, l.Num, true}
	return nil
}

// parseMove reads the move of a turn line.
func (r *replay) parseMove(l *Line, fail func(string, ...any) error) (*move.Move, error) {
	a := r.v.Alphabet
	switch l.Kind {
	case Pass:
		return &move.Move{Kind: move.Pass}, nil
	case Exchange:
		ts, err := a.Parse(l.Word, alphabet.WithBlanks)
		if err != nil {
			return nil, fail("exchange: %v", err)
		}
		if len(ts) == 0 {
			return nil, fail("exchange of no tiles")
		}
		for _, t := range ts {
			if t.IsBlanked() {
				return nil, fail("exchange: write a blank as ?, not %q", a.String(t))
			}
		}
		return &move.Move{Kind: move.Exchange, Exchanged: ts}, nil
	}
	m, err := move.Parse(r.g.Board, l.Pos+" "+l.Word)
	if err != nil {
		return nil, fail("%v", err)
	}
	return m, nil
}

// deal sets the racks before player p plays line i with rack, keeping
// keep. Every rack goes back to the bag. Then, if the player's next rack
// is known, the tiles they will draw go on top of the bag, so the game
// deals what the file records. Last, the known racks are taken out of the
// bag, and then the tiles the other players are known to have kept.
func (r *replay) deal(i, p int, rack, keep alphabet.Rack, keepOK bool, fail func(string, ...any) error) error {
	g, a := r.g, r.v.Alphabet
	for j := range g.Seats {
		if err := g.SetRack(j, alphabet.Rack{}); err != nil {
			return fail("%v", err)
		}
	}
	if next := r.known(p, i); next.ok && keepOK && next.rack.Contains(&keep) {
		draw := next.rack
		for t, c := range keep {
			draw[t] -= c
		}
		if err := g.SetRack(p, draw); err != nil {
			return fail("the tiles drawn after this move (%s, from %s) are not in the bag: %v", rackText(a, &draw), where(next.line, p), err)
		}
		if err := g.SetRack(p, alphabet.Rack{}); err != nil {
			return fail("%v", err)
		}
	}
	if err := g.SetRack(p, rack); err != nil {
		return fail("rack %s: more of these tiles than the set holds, with the board and the other racks: %v", r.f.Lines[i].Rack, err)
	}
	for j := range g.Seats {
		if j == p {
			continue
		}
		if k := r.known(j, i); k.ok {
			if err := g.SetRack(j, k.rack); err != nil {
				return fail("%s's rack %s (%s) does not fit with this rack and the board: %v", r.f.Players[j].Nick, rackText(a, &k.rack), where(k.line, j), err)
			}
		}
	}
	// A player whose rack the file does not give still holds what they
	// kept from their last move (if the tiles allow: the file may not
	// say enough to tell).
	for j := range g.Seats {
		if j != p && !r.known(j, i).ok && r.kept[j].ok {
			_ = g.SetRack(j, r.kept[j].rack)
		}
	}
	return nil
}

// unfinishedRacks gives each player of an unfinished game the rack of
// their #rack pragma; the others keep what they hold if the tiles allow.
func (r *replay) unfinishedRacks() error {
	g := r.g
	if g.Over() || len(r.final) == 0 {
		return nil
	}
	held := make([]alphabet.Rack, len(g.Seats))
	for j := range g.Seats {
		held[j] = g.Seats[j].Rack
		if err := g.SetRack(j, alphabet.Rack{}); err != nil {
			return fmt.Errorf("gcg: %w", err)
		}
	}
	for j := range g.Seats {
		if j < len(r.final) && r.final[j].ok {
			if err := g.SetRack(j, r.final[j].rack); err != nil {
				return fmt.Errorf("gcg: #rack%d %s: %w", j+1, r.f.Racks[j], err)
			}
		}
	}
	for j := range g.Seats {
		if j >= len(r.final) || !r.final[j].ok {
			_ = g.SetRack(j, held[j]) // best effort: left empty if the tiles are gone
		}
	}
	return nil
}

// ending applies the #resigned, #timeout and #aborted pragmas.
func (r *replay) ending() error {
	f, g := r.f, r.g
	ends := 0
	for _, on := range []bool{f.Resigned != "", f.TimedOut != "", f.Aborted} {
		if on {
			ends++
		}
	}
	if ends > 1 {
		return fmt.Errorf("gcg: more than one of #resigned, #timeout and #aborted: a game ends one way")
	}
	if f.TimedOut != "" {
		p, ok := r.seat[f.TimedOut]
		if !ok {
			return fmt.Errorf("gcg: #timeout %s: unknown player (not in the #player pragmas)", f.TimedOut)
		}
		if err := g.TimeOut(p); err != nil {
			return fmt.Errorf("gcg: #timeout %s: %w", f.TimedOut, err)
		}
	}
	if f.Resigned != "" {
		p, ok := r.seat[f.Resigned]
		if !ok {
			return fmt.Errorf("gcg: #resigned %s: unknown player (not in the #player pragmas)", f.Resigned)
		}
		if err := g.Resign(p); err != nil {
			return fmt.Errorf("gcg: #resigned %s: %w", f.Resigned, err)
		}
	}
	if f.Aborted {
		if err := g.Abort(); err != nil {
			return fmt.Errorf("gcg: #aborted: %w", err)
		}
	}
	return nil
}
