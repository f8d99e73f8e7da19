// Command pgotrim removes the directories from the file names of a CPU
// profile, so that the profile that guides the build of atril
// (cmd/atril/default.pgo) records no paths of the machine it was made on.
// The build matches a profile by function names and line offsets, not by
// file names, so it is optimised the same way with the trimmed profile.
//
// Usage:
//
//	go run ./cmd/pgotrim < merged.pgo > cmd/atril/default.pgo
//
// The input is a profile in pprof's protocol-buffer form, gzipped or
// not (go tool pprof -proto writes it gzipped); the output is gzipped.
package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
)

func main() {
	in, err := io.ReadAll(bufio.NewReader(os.Stdin))
	if err != nil {
		fmt.Fprintln(os.Stderr, "pgotrim: reading the profile:", err)
		os.Exit(1)
	}
	out, err := trim(in)
	if err != nil {
		fmt.Fprintln(os.Stderr, "pgotrim:", err)
		os.Exit(1)
	}
	if _, err := os.Stdout.Write(out); err != nil {
		fmt.Fprintln(os.Stderr, "pgotrim: writing the profile:", err)
		os.Exit(1)
	}
}
