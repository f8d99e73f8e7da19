package movegen

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"atril/lexicon"
)

// Constructor builds a generator for a lexicon.
type Constructor func(lex *lexicon.Lexicon) (Generator, error)

var (
	regMu    sync.Mutex
	registry = map[string]Constructor{
		"brute":  func(l *lexicon.Lexicon) (Generator, error) { return NewBrute(l), nil },
		"dawg":   func(l *lexicon.Lexicon) (Generator, error) { return NewDawg(l), nil },
		"gaddag": func(l *lexicon.Lexicon) (Generator, error) { return NewGaddag(l), nil },
	}
)

// Register adds a generator under a name (for --algo). Generators in
// files of their own call it from init.
func Register(name string, c Constructor) {
	regMu.Lock()
	defer regMu.Unlock()
	registry[name] = c
}

// Names lists the registered generators.
func Names() []string {
	regMu.Lock()
	defer regMu.Unlock()
	var out []string
	for n := range registry {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// New builds the named generator for a lexicon.
func New(name string, lex *lexicon.Lexicon) (Generator, error) {
	regMu.Lock()
	c, ok := registry[name]
	regMu.Unlock()
	if !ok {
		return nil, fmt.Errorf("unknown move generator %q (have %s)", name, strings.Join(Names(), ", "))
	}
	g, err := c(lex)
	if err != nil {
		return nil, fmt.Errorf("building %s generator: %w", name, err)
	}
	return g, nil
}
