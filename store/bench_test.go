package store

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// BenchmarkSQLiteAppend times appends to the SQLite store on disk, from
// 64 games at once (so that the writer commits them in large groups, as
// under load in a closed loop) and from 4 (small groups), each event the
// size of a logged move. It reports the process's CPU time per append.
func BenchmarkSQLiteAppend(b *testing.B) {
	for _, games := range []int{64, 4} {
		b.Run(fmt.Sprintf("games=%d", games), func(b *testing.B) { benchAppend(b, games) })
	}
}

func benchAppend(b *testing.B, games int) {
	ctx := context.Background()
	s, err := OpenSQLite(filepath.Join(b.TempDir(), "b.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	for i := range games {
		id := fmt.Sprintf("%024x", i*7919)
		if err := s.CreateGame(ctx, &Game{ID: id, Variant: "english", Lexicon: "en-sowpods", Seats: []Seat{{Name: "a"}, {Name: "b"}}, Created: time.Now()}); err != nil {
			b.Fatal(err)
		}
	}
	data := `{"seat":1,"kind":"place","row":7,"col":3,"tiles":["Q","U","I","Z","Z","E","S"],"score":112,"notation":"8D QUIZZES"}`
	var next atomic.Int64
	b.SetParallelism(max(1, games/runtime.GOMAXPROCS(0)))
	c0 := cpuTime()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		id := fmt.Sprintf("%024x", int(next.Add(1)-1)*7919)
		for seq := 0; pb.Next(); seq++ {
			if err := s.Append(ctx, id, Event{Seq: seq, Kind: "move", Data: data, Time: time.Now()}); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.ReportMetric(float64(cpuTime()-c0)/1e3/float64(b.N), "cpu-µs/op")
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
