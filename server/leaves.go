package server

import (
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"atril/player/leave"
)

// Leave values: what the computer's leave table (the one its players
// use by default) says a rack's tiles are worth when kept, for the word
// tools' page.

// maxLeaveTop bounds the sub-leaves listed each way.
const maxLeaveTop = 20

// LeaveValue is a leave and its value, in points to two decimals.
type LeaveValue struct {
	Leave string  `json:"leave"`
	Value float64 `json:"value"`
}

// LeavesAnswer is the answer of GET /api/leaves.
type LeavesAnswer struct {
	Lexicon string `json:"lexicon"`
	Rack    string `json:"rack"`
	// Table names the leave table.
	Table string `json:"table"`
	// Value is the rack's value as a leave (absent for a whole rack,
	// which no move leaves).
	Value *float64 `json:"value,omitempty"`
	// Best and Worst are its sub-leaves, best and worst first; BestByKept
	// the best of each number of tiles kept, from one.
	Best       []LeaveValue `json:"best"`
	Worst      []LeaveValue `json:"worst"`
	BestByKept []LeaveValue `json:"best_by_kept"`
}

func (s *Server) handleLeaves(w http.ResponseWriter, r *http.Request) {
	if ok, retry := s.lookLim.take(s.clientKey(r), time.Now()); !ok {
		s.fail(w, tooMany("word questions", retry))
		return
	}
	q := r.URL.Query()
	name := q.Get("lexicon")
	v := s.variantOfLexicon(name)
	if v == nil {
		s.fail(w, &apiError{400, fmt.Sprintf("word list %q is not offered", short(name, 40))})
		return
	}
	top := 5
	if t := q.Get("top"); t != "" {
		n, err := strconv.Atoi(t)
		if err != nil || n < 1 || n > maxLeaveTop {
			s.fail(w, &apiError{400, fmt.Sprintf("top=%s: want 1 to %d", short(t, 20), maxLeaveTop)})
			return
		}
		top = n
	}
	text := strings.ToUpper(strings.TrimSpace(q.Get("rack")))
	a := v.Alphabet
	rack, err := a.ParseRack(text)
	switch {
	case err != nil:
		err = fmt.Errorf("rack %q: %s", short(text, 20), short(err.Error(), 80))
	case rack.Len() == 0 || rack.Len() > v.RackSize:
		err = fmt.Errorf("rack %q: %d tiles, want 1 to %d", short(text, 20), rack.Len(), v.RackSize)
	default:
		if err = v.InSet(&rack); err != nil {
			err = fmt.Errorf("rack %q: %w", short(text, 20), err)
		}
	}
	if err != nil {
		s.fail(w, &apiError{400, err.Error()})
		return
	}
	t, err := leave.Embedded(v)
	if err != nil {
		s.fail(w, &apiError{404, fmt.Sprintf("no leave table for %s", v.Name)})
		return
	}
	ex := leave.Explain(t, rack, v.RackSize-1, top)
	round := func(x float64) float64 { return math.Round(100*x) / 100 }
	list := func(vs []leave.Valued) []LeaveValue {
		out := make([]LeaveValue, 0, len(vs))
		for _, x := range vs {
			out = append(out, LeaveValue{Leave: a.RackString(&x.Leave), Value: round(x.Value)})
		}
		return out
	}
	ans := LeavesAnswer{Lexicon: name, Rack: a.RackString(&rack), Table: t.Name, Best: list(ex.Best), Worst: list(ex.Worst), BestByKept: list(ex.BestByKept)}
	if ex.IsLeave {
		val := round(ex.Value)
		ans.Value = &val
	}
	writeJSON(w, 200, ans)
}
