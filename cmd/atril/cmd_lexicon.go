package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"atril/lexicon/automaton"
)

// lexiconCommands are the subcommands of "atril lexicon". Another file
// adds one in its init function:
//
//	func init() { lexiconCommands["stats"] = command{"summary", runStats} }
var lexiconCommands = map[string]command{
	"build": {"build the DAWG and GADDAG of a word list, cache them, print sizes and times", lexiconBuild},
	"info":  {"list the cached DAWG and GADDAG files", lexiconInfo},
}

func init() {
	register("lexicon", "word-list structures: build, info (run \"atril lexicon\" for the list)", runLexicon)
}

func lexiconUsage() {
	fmt.Fprintln(os.Stderr, "usage: atril lexicon <subcommand> [flags]\n\nsubcommands:")
	var names []string
	for n := range lexiconCommands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(os.Stderr, "  %-8s %s\n", n, lexiconCommands[n].summary)
	}
}

func runLexicon(args []string) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		lexiconUsage()
		if len(args) == 0 {
			return errors.New("missing subcommand")
		}
		return nil
	}
	c, ok := lexiconCommands[args[0]]
	if !ok {
		lexiconUsage()
		return fmt.Errorf("unknown subcommand %q", args[0])
	}
	if err := c.run(args[1:]); err != nil {
		return fmt.Errorf("%s: %w", args[0], err)
	}
	return nil
}

// lexiconBuild builds both automata afresh, writes them to the cache and
// reads them back, reporting sizes and times.
func lexiconBuild(args []string) error {
	fs := flag.NewFlagSet("lexicon build", flag.ContinueOnError)
	variantName, lexName := envFlags(fs)
	kinds := fs.String("kind", "dawg,gaddag", "structures to build: dawg, gaddag or both")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	t0 := time.Now()
	e, err := loadEnv(*variantName, *lexName)
	if err != nil {
		return err
	}
	lex := e.Lex
	fmt.Printf("%s (%s): %d words read in %v, word set %s in memory\n",
		lex.Name, e.V.Name, lex.Len(), time.Since(t0).Round(time.Millisecond), mib(lex.Bytes()))
	dir, err := automaton.CacheDir()
	if err != nil {
		return err
	}
	t0 = time.Now()
	key := automaton.Key(lex)
	keyTime := time.Since(t0)
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "kind\tstates\tedges\tmemory\twalk table\tfile\tbuild\tload\t")
	for _, k := range strings.Split(*kinds, ",") {
		var kind automaton.Kind
		switch strings.TrimSpace(k) {
		case "dawg":
			kind = automaton.DAWG
		case "gaddag":
			kind = automaton.GADDAG
		default:
			return fmt.Errorf("--kind %q: want dawg, gaddag or dawg,gaddag", k)
		}
		t0 := time.Now()
		a := automaton.Build(lex, kind)
		build := time.Since(t0)
		load := "-"
		file := "-"
		if dir != "" {
			path := dir + string(os.PathSeparator) + automaton.FileName(kind, lex.Name, key)
			if err := automaton.WriteFile(path, a); err != nil {
				return err
			}
			t0 = time.Now()
			b, err := automaton.ReadFile(path)
			if err != nil {
				return fmt.Errorf("reading back: %w", err)
			}
			load = time.Since(t0).Round(10 * time.Microsecond).String()
			if len(b.Nodes) != len(a.Nodes) || len(b.Targets) != len(a.Targets) {
				return fmt.Errorf("%s reads back different from what was written", path)
			}
			file = mib(a.Size())
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t%s\t%s\t%v\t%s\t\n", kind, len(a.Nodes), a.Edges(), mib(a.Bytes()),
			mib(a.ArcBytes()), file, build.Round(time.Millisecond), load)
	}
	tw.Flush()
	fmt.Println("memory: states and edges as stored; walk table: the edge table the generators walk (made on first use)")
	if dir == "" {
		fmt.Printf("cache off (%s=off): nothing written\n", automaton.CacheEnv)
	} else {
		fmt.Printf("cache: %s (key %x, hashing the list took %v; a program loading a cached structure pays both)\n",
			dir, key[:8], keyTime.Round(10*time.Microsecond))
	}
	return nil
}

// lexiconInfo lists the cache directory.
func lexiconInfo(args []string) error {
	fs := flag.NewFlagSet("lexicon info", flag.ContinueOnError)
	if err := fs.Parse(args); err != nil {
		return err
	}
	dir, ents, err := automaton.ListCache()
	if err != nil {
		return err
	}
	if dir == "" {
		fmt.Printf("cache off (%s=off)\n", automaton.CacheEnv)
		return nil
	}
	fmt.Printf("cache: %s (set %s to move it, %s=off to turn it off)\n", dir, automaton.CacheEnv, automaton.CacheEnv)
	if len(ents) == 0 {
		fmt.Println("empty: \"atril lexicon build --variant V\" fills it; generators fill it on first use")
		return nil
	}
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "file\tkind\twords\tstates\tedges\tsize\tversion\t")
	for _, e := range ents {
		name := e.Path[strings.LastIndexAny(e.Path, `/\`)+1:]
		if e.Err != nil {
			fmt.Fprintf(tw, "%s\tunreadable: %v\t\t\t\t%s\t\t\n", name, e.Err, mib(int(e.Size)))
			continue
		}
		h := e.Header
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%s\t%d\t\n", name, h.Kind, h.Words, h.Nodes, h.Edges, mib(int(e.Size)), h.Version)
	}
	return tw.Flush()
}

func mib(n int) string {
	if n < 1<<20 {
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%.2f MiB", float64(n)/(1<<20))
}
