// Command atril is a Scrabble engine, game server and computer opponent.
//
// Usage:
//
//	atril <command> [flags]
//
// Run "atril help" for the list of commands.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"

	// The interval generators (anagram, iwm, iwm-parallel, iwm-adaptive,
	// iwm-fast) register themselves for --algo.
	_ "atril/movegen/interval"
)

// command is one subcommand. Each lives in a file of its own and adds
// itself to commands in an init function.
type command struct {
	summary string
	run     func(args []string) error
}

var commands = map[string]command{}

func register(name, summary string, run func(args []string) error) {
	commands[name] = command{summary, run}
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: atril <command> [flags]\n\ncommands:")
	var names []string
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w, "\nRun \"atril <command> -h\" for a command's flags.")
}

func main() {
	if len(os.Args) < 2 {
		usage(os.Stderr)
		os.Exit(2)
	}
	if a := os.Args[1]; a == "help" || a == "-h" || a == "-help" || a == "--help" {
		if len(os.Args) > 2 { // atril help CMD: that command's flags
			if _, ok := commands[os.Args[2]]; ok {
				os.Args = []string{os.Args[0], os.Args[2], "-h"}
			}
		}
		if os.Args[1] == a {
			usage(os.Stdout)
			return
		}
	}
	c, ok := commands[os.Args[1]]
	if !ok {
		fmt.Fprintf(os.Stderr, "atril: unknown command %q\n\n", os.Args[1])
		usage(os.Stderr)
		os.Exit(2)
	}
	if wantsHelp(os.Args[2:]) {
		// A command's flag set prints its usage to os.Stderr when asked
		// for help; help that was asked for goes to standard output.
		os.Stderr = os.Stdout
	}
	err := c.run(os.Args[2:])
	if errors.Is(err, flag.ErrHelp) {
		return
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "atril %s: %v\n", os.Args[1], err)
		os.Exit(1)
	}
}

// wantsHelp tells whether a command's flags ask for help (-h, -help or
// --help before the first non-flag argument).
func wantsHelp(args []string) bool {
	for _, a := range args {
		switch a {
		case "-h", "-help", "--help":
			return true
		case "--":
			return false
		}
	}
	return false
}
