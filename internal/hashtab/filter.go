package hashtab

// PairKey folds a (uint64, uint32) key into one uint64, for a Bloom
// filter of pair keys (internal/bloom).
func PairKey(k uint64, k2 uint32) uint64 { return k ^ uint64(k2)*0xD6E8FEB86659FD93 }
