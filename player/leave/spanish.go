package leave

// spanishValues is the output of Derive on the es-fise list (636,598
// words). Share of words containing the letter, then the value:
//
//	A 87.5% +4.0   E 74.6% +3.0   S 69.8% +2.5   R 62.1% +1.5
//	I 57.5% +1.5   O 53.8% +1.0   N 48.8% +0.5   T 36.3% −0.5
//	C 34.0% −1.0   D 31.8% −1.0   M 31.1% −1.0   L 26.5% −1.5
//	U 25.2% −1.5   B 21.0% −2.0   P 19.8% −2.0   G 13.7% −2.5
//	F  8.8% −3.0   Z  8.1% −3.5   V  7.6% −3.5   J  5.9% −3.5
//	CH 5.8% −3.5   RR 5.0% −3.5   LL 4.6% −3.5   Q  3.7% −3.5
//	H  3.5% −3.5   Ñ  2.5% −4.0   X  1.4% −4.0   Y  1.4% −4.0
//
// As in the Czech table of Pícek 2008, S gets no plural bonus of its own
// beyond its frequency, and the blank keeps the English +24.5.
func spanishValues() map[string]float64 {
	return map[string]float64{
		"A": 4.0, "E": 3.0, "S": 2.5, "R": 1.5, "I": 1.5, "O": 1.0, "N": 0.5,
		"T": -0.5, "C": -1.0, "D": -1.0, "M": -1.0, "L": -1.5, "U": -1.5,
		"B": -2.0, "P": -2.0, "G": -2.5, "F": -3.0, "Z": -3.5, "V": -3.5,
		"J": -3.5, "CH": -3.5, "RR": -3.5, "LL": -3.5, "Q": -3.5, "H": -3.5,
		"Ñ": -4.0, "X": -4.0, "Y": -4.0, "?": 24.5,
	}
}
