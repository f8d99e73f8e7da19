package main

import (
	"flag"
	"fmt"
	"os"
)

func init() {
	register("check", "say for each word whether the lexicon has it", runCheck)
}

func runCheck(args []string) error {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	vn, ln := envFlags(fs)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: atril check [--variant V] [--lexicon FILE] WORD...")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return fmt.Errorf("no words given")
	}
	e, err := loadEnv(*vn, *ln)
	if err != nil {
		return err
	}
	bad := 0
	for _, w := range fs.Args() {
		ok, err := e.Lex.ContainsText(w)
		switch {
		case err != nil:
			fmt.Printf("%s\tinvalid: %v\n", w, err)
			bad++
		case ok:
			fmt.Printf("%s\tvalid\n", w)
		default:
			fmt.Printf("%s\tnot in %s\n", w, e.Lex.Name)
			bad++
		}
	}
	if bad > 0 {
		os.Exit(1)
	}
	return nil
}
