package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"atril/alphabet"
	"atril/lexicon/automaton"
	"atril/study"
	"atril/wordfind"
)

func init() {
	register("study", "list a word list's alphagrams in probability order (for anagram drills), or a rack's rank", runStudy)
}

func runStudy(args []string) error {
	fs := flag.NewFlagSet("study", flag.ContinueOnError)
	vn, ln := envFlags(fs)
	length := fs.Int("length", 7, "the alphagrams' length in tiles")
	from := fs.Int("from", 1, "the first rank listed (1: the likeliest)")
	to := fs.Int("to", 0, "the last rank listed (0: --from + 49)")
	letters := fs.String("letters", "", "a rack: print its alphagram's rank, probability and words instead")
	hooks := fs.Bool("hooks", false, "show each word's front and back hooks")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: atril study [--variant V] [--lexicon L] [--length N] [--from A] [--to B] | --letters RACK")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *to == 0 {
		*to = *from + 49
	}
	if *from < 1 || *to < *from {
		return fmt.Errorf("--from %d --to %d: give ranks from 1 up, --to not below --from", *from, *to)
	}
	e, err := loadEnv(*vn, *ln)
	if err != nil {
		return err
	}
	ix, err := study.Build(e.Lex, e.V.Counts)
	if err != nil {
		return err
	}
	var d *automaton.Automaton
	if *hooks {
		d = automaton.CachedDAWG(e.Lex) // a cache problem is logged
	}
	a := e.V.Alphabet
	if *letters != "" {
		ts, err := a.Parse(strings.ToUpper(*letters), alphabet.Plain)
		if err != nil {
			return fmt.Errorf("--letters: %w", err)
		}
		g, ok := ix.Find(ts)
		if !ok {
			return errors.New("--letters: no word of the list is made of exactly these letters")
		}
		writeAlphagram(os.Stdout, a, d, ix.Count(len(ts)), g)
		return nil
	}
	if *length < 1 || *length > e.V.Size {
		return fmt.Errorf("--length %d: give 1 to %d", *length, e.V.Size)
	}
	for r := *from; r <= min(*to, ix.Count(*length)); r++ {
		writeAlphagram(os.Stdout, a, d, ix.Count(*length), ix.Rank(*length, r))
	}
	return nil
}

// writeAlphagram prints an alphagram's line: its rank of count, its
// letters, the chance of a full bag dealing it as "1 in N", and its
// words (with their hooks when d is not nil).
func writeAlphagram(w io.Writer, a *alphabet.Alphabet, d *automaton.Automaton, count int, g study.Alphagram) {
	words := make([]string, len(g.Words))
	for i, word := range g.Words {
		words[i] = a.Word(word)
		if d != nil {
			front, back := wordfind.Hooks(d, a, word)
			words[i] = hookText(a, front) + ":" + words[i] + ":" + hookText(a, back)
		}
	}
	fmt.Fprintf(w, "%d/%d\t%s\t1 in %.0f\t%s\n", g.Rank, count, a.Word(g.Tiles), 1/g.Probability, strings.Join(words, " "))
}
