package interval

// KeptGeometries is the number of board geometries a searcher holds.
func KeptGeometries(s interface{ CacheBoards(bool) }) int {
	switch g := s.(type) {
	case *Anagram:
		return len(g.best.geo.entries)
	case *IWM:
		return len(g.best.geo.entries)
	}
	return -1
}
