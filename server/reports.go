package server

import (
	"errors"
	"fmt"
	"net/http"
	"time"

	"atril/store"
)

// Reports: a signed-in player may report another player's account to
// the server's operators (POST /api/players/{name}/report), saying what
// happened and, if it happened in a game, which. The report is kept in
// the store, logged, and counted (atril_reports_total); operators list
// and close reports with atril accounts reports and close-report, and
// act with suspend. The account reported is not told.

const (
	// maxReportText bounds a report's text, in characters.
	maxReportText = 1000
	// maxOpenReports is how many reports one account may have waiting
	// for the operators.
	maxOpenReports = 10
)

// reportRequest is the body of POST /api/players/{name}/report.
type reportRequest struct {
	Reason string `json:"reason"`
	Game   string `json:"game,omitempty"`
}

// ReportResponse is the answer of POST /api/players/{name}/report.
type ReportResponse struct {
	ID int64 `json:"id"`
}

func (s *Server) handleReport(w http.ResponseWriter, r *http.Request) {
	data, ok := s.limitedBody(w, r, s.chatLim, "reports")
	if !ok {
		return
	}
	a, err := s.requireSignIn(r, "sign in to report a player")
	if err != nil {
		s.fail(w, err)
		return
	}
	var req reportRequest
	if err := decodeJSON(data, &req); err != nil {
		s.fail(w, err)
		return
	}
	reason, err := cleanText(req.Reason, "report", maxReportText)
	switch {
	case err != nil:
	case reason == "":
		err = &apiError{400, "say what happened"}
	case req.Game != "" && !validID(req.Game):
		err = &apiError{400, fmt.Sprintf("game %q: not a game's id", short(req.Game, 20))}
	}
	if err != nil {
		s.fail(w, err)
		return
	}
	other, err := s.accountNamed(r.Context(), r.PathValue("name"))
	if err == nil && other.Key == a.Key {
		err = &apiError{400, "you cannot report yourself"}
	}
	if err != nil {
		s.fail(w, err)
		return
	}
	rep := &store.Report{By: a.Key, Of: other.Key, Game: req.Game, Reason: reason, Created: time.Now()}
	if err := s.store.AddReport(r.Context(), rep, maxOpenReports); err != nil {
		var le *store.LimitError
		if errors.As(err, &le) {
			err = &apiError{409, fmt.Sprintf("you have %d reports waiting for the operators, as many as you may: wait until they read them", le.Have)}
		}
		s.fail(w, err)
		return
	}
	s.count.reports.Add(1)
	s.logf("report %d: %s reports %s (game %q): %q", rep.ID, a.Name, other.Name, req.Game, short(reason, 200))
	writeJSON(w, 201, ReportResponse{ID: rep.ID})
}
