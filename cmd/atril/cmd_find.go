package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"

	"atril/alphabet"
	"atril/lexicon/automaton"
	"atril/wordfind"
)

func init() {
	register("find", "list the words a rack makes or a pattern matches, with their hooks", runFind)
}

func runFind(args []string) error {
	fs := flag.NewFlagSet("find", flag.ContinueOnError)
	vn, ln := envFlags(fs)
	letters := fs.String("letters", "", "the rack: letters, ? for a blank")
	all := fs.Bool("all", false, "use every tile of the rack (its anagrams)")
	pattern := fs.String("pattern", "", "a pattern: letters, ? any letter, * any run of letters, [AEI] one of these")
	minLen := fs.Int("min", 0, "the fewest letters a word has (0: any)")
	maxLen := fs.Int("max", 0, "the most letters a word has (0: any)")
	limit := fs.Int("limit", 0, "the most words listed (0: all)")
	hooks := fs.Bool("hooks", true, "show each word's front and back hooks")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: atril find [--variant V] [--lexicon L] [--letters RACK [--all]] [--pattern P] [--min N] [--max N]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *letters == "" && *pattern == "" {
		fs.Usage()
		return errors.New("give --letters, --pattern, or both")
	}
	e, err := loadEnv(*vn, *ln)
	if err != nil {
		return err
	}
	q := wordfind.Query{AllTiles: *all, MinLen: *minLen, MaxLen: *maxLen, Limit: *limit, MaxSteps: 1 << 40}
	if q.Limit <= 0 {
		q.Limit = e.Lex.Len()
	}
	a := e.V.Alphabet
	if *letters != "" {
		if q.Rack, err = a.Parse(strings.ToUpper(*letters), alphabet.WithBlanks); err != nil {
			return fmt.Errorf("--letters: %w", err)
		}
	}
	if *pattern != "" {
		if q.Pattern, err = wordfind.ParsePattern(a, *pattern); err != nil {
			return fmt.Errorf("--pattern: %w", err)
		}
	}
	d := automaton.CachedDAWG(e.Lex) // a cache problem is logged
	res, err := wordfind.Find(d, a, q)
	if err != nil {
		return err
	}
	for _, w := range res.Words {
		if !*hooks {
			fmt.Println(a.Word(w))
			continue
		}
		front, back := wordfind.Hooks(d, a, w)
		fmt.Printf("%s\t%s\t%s\n", hookText(a, front), a.Word(w), hookText(a, back))
	}
	if res.Cut {
		fmt.Fprintf(os.Stderr, "atril: the first %d words (--limit)\n", len(res.Words))
	}
	return nil
}

// hookText spells a set of hook letters in lowercase, letters of more
// than one character apart ("ch s"), "-" for none.
func hookText(a *alphabet.Alphabet, set uint64) string {
	ls := wordfind.Letters(a, set)
	if len(ls) == 0 {
		return "-"
	}
	sep := ""
	for _, l := range ls {
		if len([]rune(l)) > 1 {
			sep = " "
		}
	}
	return strings.ToLower(strings.Join(ls, sep))
}
