package server

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"atril/store"
)

// Bios: a few words a player writes about themselves and the country
// they play from, shown on their page.

// maxAbout bounds a bio's text, in characters.
const maxAbout = 500

// countryCodes are the countries a player may name: the ISO 3166-1
// alpha-2 codes in use, and XK (Kosovo), sorted.
var countryCodes = strings.Fields(`AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN
	BO BQ BR BS BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES
	ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR
	IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO
	MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE
	RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW
	TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS XK YE YT ZA ZM ZW`)

// BioRequest is the body of PUT /api/me/bio: the whole bio, each part
// empty for none.
type BioRequest struct {
	About   string `json:"about"`
	Country string `json:"country"`
}

// checkBio cleans a bio as chat lines are cleaned (one paragraph, at
// most maxAbout characters) and checks its country.
func checkBio(req BioRequest) (store.Bio, error) {
	about, err := cleanText(req.About, "about", maxAbout)
	if err != nil {
		return store.Bio{}, err
	}
	c := strings.ToUpper(strings.TrimSpace(req.Country))
	if _, found := slices.BinarySearch(countryCodes, c); c != "" && !found {
		return store.Bio{}, &apiError{400, fmt.Sprintf("country %q: want an ISO 3166 code of two letters, such as ES or CZ", short(req.Country, 20))}
	}
	return store.Bio{About: about, Country: c}, nil
}

func (s *Server) handleBio(w http.ResponseWriter, r *http.Request) {
	data, ok := s.limitedBody(w, r, s.joinLim, "changes to your bio")
	if !ok {
		return
	}
	a, err := s.requireSignIn(r, "sign in to write about yourself")
	if err != nil {
		s.fail(w, err)
		return
	}
	var req BioRequest
	if err := decodeJSON(data, &req); err != nil {
		s.fail(w, err)
		return
	}
	b, err := checkBio(req)
	if err != nil {
		s.fail(w, err)
		return
	}
	b.Updated = time.Now()
	if err := s.store.SetBio(r.Context(), a.Key, b); err != nil {
		s.fail(w, err)
		return
	}
	writeJSON(w, 200, BioRequest{About: b.About, Country: b.Country})
}
