package interval

import (
	"log"

	"atril/lexicon"
	"atril/movegen"
)

// The interval generators join the --algo registry: "anagram" (its
// tables from the disk cache, CachedAnagram), "iwm"
// (threshold 10, sequential), "iwm-parallel" (threshold 10, two
// workers), "iwm-adaptive" (threshold 10, high level also for common
// inner words when its list is short) and "iwm-fast" (adaptive, with the
// low-level lookups of racks without blanks shared between intervals).
func init() {
	movegen.Register("anagram", func(l *lexicon.Lexicon) (movegen.Generator, error) {
		at, res := CachedAnagram(l)
		if at == nil {
			return nil, res.CacheErr
		}
		if res.CacheErr != nil {
			// The tables are good; the cache file could not be used.
			log.Printf("anagram tables of %s: %v", l.Name, res.CacheErr)
		}
		// Without an automaton of the list, the board's cross-sets come
		// from the tables (an automaton's, when there is one, are kept).
		l.OfferCrossSets(NewCrossSets(at))
		return NewAnagramFrom(at), nil
	})
	movegen.Register("iwm", func(l *lexicon.Lexicon) (movegen.Generator, error) { return NewIWM(l, IWMOptions{}) })
	movegen.Register("iwm-parallel", func(l *lexicon.Lexicon) (movegen.Generator, error) {
		return NewIWM(l, IWMOptions{Workers: 2})
	})
	movegen.Register("iwm-adaptive", func(l *lexicon.Lexicon) (movegen.Generator, error) {
		return NewIWM(l, IWMOptions{Adaptive: true})
	})
	movegen.Register("iwm-fast", func(l *lexicon.Lexicon) (movegen.Generator, error) {
		return NewIWM(l, IWMOptions{Adaptive: true, Share: true})
	})
}
