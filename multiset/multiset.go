// Package multiset represents multisets of letters as PER, the
// Parity-Exceedance Representation of Sánchez Bello 2025 chapter 3 (see
// doc/REFERENCES.md), which packs any feasible multiset of a lexicon (one
// contained in the letters of some word) into 64 bits and supports
// multisum and the subset test in constant time. The plain count vector
// is alphabet.Rack (FromCounts and Counts convert; the blank count is
// ignored).
//
// # Parity and exceedance
//
// For a multiset M with multiplicity f, its parity p(x) = f(x) mod 2 and
// its exceedance e(x) = ⌊f(x)/2⌋ determine it: f = 2e + p (Theorem 1).
// The parity is a bit mask, one bit per letter. The exceedances of the
// feasible multisets of a lexicon are few (thousands: Sánchez Bello 2025,
// Table 3.4) and closed under taking sub-multisets, so each gets an id. A PER is
//
//	bits 0 .. L-1   parity mask (letter l in bit l-1; L letters)
//	bits L .. 63    exceedance id (0 is the empty exceedance)
//
// The split is chosen per alphabet: English (26 letters) keeps 38 bits for
// ids, Spanish (28) 36, Czech (39) 25, far more than needed. When L plus
// the bits of the id count exceed 64 (an alphabet of some 50 letters or
// more), the table falls back to Wide, the same two parts in 96 bits,
// with the same operations (Fits64 tells which applies).
// Unlike the thesis, id 0 is the empty exceedance, so the PER of a
// multiset without repeated letters is its bare letter mask; the error
// code is Invalid.
//
// # Multisum (Sánchez Bello 2025 3.5)
//
// For A ⊎ B: f = 2eA + 2eB + pA + pB, so the parity is pA ⊕ pB
// (Corollary 4) and the exceedance is eA ⊎ eB ⊎ r where the carry
// r = pA & pB (Corollary 6). The carry mask is turned into the id of the
// exceedance it denotes by the carry-mask table, and (id eA, id eB, id r)
// into the id of the result by the feasible-triad table. Both lookups
// fail exactly when the sum is not feasible (Lemma 2).
//
// # Subset test ("a similar computation", Sánchez Bello 2025 3.5.4)
//
// B ⊆ A iff for every letter x: 2eB(x) + pB(x) ≤ 2eA(x) + pA(x). Going
// through the four cases of (pB(x), pA(x)):
//
//	pB pA  condition
//	0  0   2eB ≤ 2eA      ⇔ eB ≤ eA
//	0  1   2eB ≤ 2eA + 1  ⇔ eB ≤ eA
//	1  1   2eB+1 ≤ 2eA+1  ⇔ eB ≤ eA
//	1  0   2eB+1 ≤ 2eA    ⇔ eB + 1 ≤ eA
//
// so, with the redefined carry r = pB &^ pA (letters odd in B and even
// in A), B ⊆ A ⇔ eB ⊎ r ⊆ eA ⇔ there is an exceedance d with
// eB ⊎ d ⊎ r = eA. When A is feasible every such d is a sub-multiset of
// eA and hence feasible, so (eB, d, r) is a feasible triad with sum eA.
// The triad table read the other way, as the set of (sum, first, carry)
// keys of all feasible triads (the difference table), answers it with one
// lookup after the carry-mask lookup; a carry mask with no entry means
// r ⊄ eA (it is not even feasible), so B ⊄ A. As a shortcut, r = 0 and
// eB = 0 (B has no repeated letter and its letters are odd in A or were
// already covered) gives the answer without any lookup.
package multiset
