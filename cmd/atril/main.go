// Command atril is a Scrabble engine, game server and computer opponent.
//
// Usage:
//
//	atril <command> [flags]
//
// Run "atril help" for the list of commands.
package main

import (
	"fmt"
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

func usage() {
	fmt.Fprintln(os.Stderr, "usage: atril <command> [flags]\n\ncommands:")
	var names []string
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(os.Stderr, "  %-10s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(os.Stderr, "\nRun \"atril <command> -h\" for a command's flags.")
}

func main() {
	if len(os.Args) < 2 || os.Args[1] == "help" || os.Args[1] == "-h" || os.Args[1] == "--help" {
		usage()
		if len(os.Args) < 2 {
			os.Exit(2)
		}
		return
	}
	c, ok := commands[os.Args[1]]
	if !ok {
		fmt.Fprintf(os.Stderr, "atril: unknown command %q\n\n", os.Args[1])
		usage()
		os.Exit(2)
	}
	if err := c.run(os.Args[2:]); err != nil {
		fmt.Fprintf(os.Stderr, "atril %s: %v\n", os.Args[1], err)
		os.Exit(1)
	}
}
