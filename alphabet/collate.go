package alphabet

import (
	"sort"
	"strings"
)

// Collated returns the letter codes (not the blank) in an order that
// depends only on the letters' text, never on the order in which a
// variant lists them: by the text with accents and other diacritics of
// Latin letters taken off ("Č" counts as "C", "Ñ" as "N"), then by the
// text itself. Whatever must not change when a variant file lists its
// tiles in another order, such as the order of a new bag before it is
// shuffled, goes by this order. For the embedded variants it is the order
// in which their files list the letters (A Á B C Č D Ď …; A B C CH D …
// N Ñ O …), so games dealt before the order existed are dealt the same.
func (a *Alphabet) Collated() []Tile {
	ts := make([]Tile, a.Size())
	keys := make([]string, a.Size()+1)
	for i := range ts {
		ts[i] = Tile(i + 1)
		keys[i+1] = fold(a.letters[i+1])
	}
	sort.Slice(ts, func(i, j int) bool {
		x, y := ts[i], ts[j]
		if keys[x] != keys[y] {
			return keys[x] < keys[y]
		}
		return a.letters[x] < a.letters[y]
	})
	return ts
}

// fold takes the diacritics off the uppercase Latin letters of s.
func fold(s string) string {
	return strings.Map(func(r rune) rune {
		if b, ok := baseLetter[r]; ok {
			return b
		}
		return r
	}, s)
}

// baseLetter maps an uppercase Latin letter with a diacritic (U+00C0 to
// U+024F) to the letter under it, as its canonical decomposition gives.
var baseLetter = func() map[rune]rune {
	const pairs = "ÀAÁAÂAÃAÄAÅAÇCÈEÉEÊEËEÌIÍIÎIÏIÑNÒOÓOÔOÕOÖOÙUÚUÛUÜUÝY" +
		"ĀAĂAĄAĆCĈCĊCČCĎDĒEĔEĖEĘEĚEĜGĞGĠGĢGĤHĨIĪIĬIĮIİIĴJĶKĹLĻLĽLŃNŅNŇN" +
		"ŌOŎOŐOŔRŖRŘRŚSŜSŞSŠSŢTŤTŨUŪUŬUŮUŰUŲUŴWŶYŸYŹZŻZŽZƠOƯUǍAǏIǑOǓU" +
		"ǕUǗUǙUǛUǞAǠAǦGǨKǪOǬOǴGǸNǺAȀAȂAȄEȆEȈIȊIȌOȎOȐRȒRȔUȖUȘSȚTȞHȦAȨE" +
		"ȪOȬOȮOȰOȲY"
	m := map[rune]rune{}
	rs := []rune(pairs)
	for i := 0; i+1 < len(rs); i += 2 {
		m[rs[i]] = rs[i+1]
	}
	return m
}()
