package main

import (
	"flag"
	"fmt"
	"os"
	"runtime/pprof"
	"strings"

	"atril/cgp"
	"atril/lexicon"
	"atril/variant"
)

// env is what most commands need: a variant and its lexicon.
type env struct {
	V   *variant.Variant
	Lex *lexicon.Lexicon
}

// envFlags adds --variant and --lexicon to a flag set.
func envFlags(fs *flag.FlagSet) (variantName, lexName *string) {
	variantName = fs.String("variant", "english", "variant: english, spanish, czech, or a JSON file")
	lexName = fs.String("lexicon", "", "word list: an embedded name (en-sowpods, es-fise, cs-hunspell-2to9) or a file (plain or .gz); default: the variant's")
	return
}

// loadEnv loads a variant and its lexicon, reporting rejected words.
func loadEnv(variantName, lexName string) (*env, error) {
	v, err := variant.Load(variantName)
	if err != nil {
		return nil, err
	}
	if lexName == "" {
		lexName = v.DefaultLexicon
	}
	if lexName == "" {
		return nil, fmt.Errorf("variant %s names no default lexicon: give --lexicon", v.Name)
	}
	lex, err := lexicon.Open(lexName, v.Alphabet, lexicon.Options{MaxLen: v.Size})
	if err != nil {
		return nil, err
	}
	if n := len(lex.Rejected); n > 0 {
		fmt.Fprintf(os.Stderr, "lexicon %s: skipped %d words the %s alphabet cannot spell, first: %v\n", lex.Name, n, v.Name, lex.Rejected[0])
	}
	if lex.TooLong > 0 {
		fmt.Fprintf(os.Stderr, "lexicon %s: dropped %d words longer than the board\n", lex.Name, lex.TooLong)
	}
	if lex.Len() == 0 {
		return nil, fmt.Errorf("lexicon %s holds no usable word", lex.Name)
	}
	return &env{V: v, Lex: lex}, nil
}

// loadVariant loads a variant by name or JSON file.
func loadVariant(name string) (*variant.Variant, error) { return variant.Load(name) }

// flagSet reports whether the named flag was given on the command line.
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// resolveLexicon maps a word list named in a file (a CGP lex opcode, a
// GCG #lexicon pragma) to a word list: an embedded list by its name or by
// its name without the language prefix ("sowpods" for en-sowpods), in
// any case, or a readable file. It is an error for anything else, rather
// than a silent default.
func resolveLexicon(name string) (string, error) {
	for _, e := range lexicon.Embedded() {
		short := e
		if i := strings.IndexByte(e, '-'); i >= 0 {
			short = e[i+1:]
		}
		if strings.EqualFold(name, e) || strings.EqualFold(name, short) {
			return e, nil
		}
	}
	if st, err := os.Stat(name); err == nil && !st.IsDir() {
		return name, nil
	}
	return "", fmt.Errorf("unknown lexicon %q (embedded: %s; or give --lexicon)",
		name, strings.Join(lexicon.Embedded(), ", "))
}

// namedEnv loads the word list a file names (named, from where: "the CGP
// lex opcode") unless --lexicon is given, and, unless --variant is
// given, the embedded variant whose default list that is.
func namedEnv(fs *flag.FlagSet, variantName, lexName, named, where string) (*env, error) {
	if named != "" && !flagSet(fs, "lexicon") {
		name, err := resolveLexicon(named)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", where, err)
		}
		lexName = name
		if !flagSet(fs, "variant") {
			for _, vn := range variant.Names() {
				if v, err := variant.Load(vn); err == nil && v.DefaultLexicon == name {
					variantName = vn
					break
				}
			}
		}
	}
	return loadEnv(variantName, lexName)
}

// positionEnv reads a CGP line and loads what it needs (namedEnv, from
// its lex opcode).
func positionEnv(fs *flag.FlagSet, variantName, lexName, line string) (*env, *cgp.Position, error) {
	text, err := cgp.ParseText(line)
	if err != nil {
		return nil, nil, err
	}
	e, err := namedEnv(fs, variantName, lexName, text.Lexicon(), "the CGP lex opcode")
	if err != nil {
		return nil, nil, err
	}
	p, err := cgp.Parse(line, e.V)
	if err != nil {
		return nil, nil, err
	}
	return e, p, nil
}

// cpuProfileFlag adds the --cpuprofile flag to a command.
func cpuProfileFlag(fs *flag.FlagSet) *string {
	return fs.String("cpuprofile", "", "write a CPU profile of the run to this file (for go tool pprof)")
}

// startCPUProfile starts writing a CPU profile to path (nothing when
// path is empty); the returned function stops it and closes the file.
func startCPUProfile(path string) (func(), error) {
	if path == "" {
		return func() {}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("cpu profile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("cpu profile %s: %w", path, err)
	}
	return func() {
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			fmt.Fprintf(os.Stderr, "cpu profile %s: %v\n", path, err)
		}
	}, nil
}
