package main

import (
	"flag"
	"fmt"
	"os"

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
