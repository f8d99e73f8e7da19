package automaton

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"atril/internal/atomicfile"
	"atril/internal/cachedir"
	"atril/lexicon"
)

// CacheEnv names the environment variable that overrides the cache
// directory; the value "off" turns the disk cache off.
const CacheEnv = cachedir.Env

// fileExt is the extension of cache files.
const fileExt = ".atfa"

// CacheDir returns the directory holding cached automata: $ATRIL_CACHE,
// or "atril" in the user's cache directory. It returns "" (and no error)
// when the cache is turned off.
func CacheDir() (string, error) { return cachedir.Dir() }

// FileName is the cache file name of an automaton of kind for a word list
// named name with the given key.
func FileName(kind Kind, name string, key [32]byte) string {
	return cachedir.FileName(kind.String(), name, key, fileExt)
}

// Result says where an automaton came from.
type Result struct {
	A *Automaton
	// Path is the cache file ("" when the cache is off or unusable).
	Path string
	// Loaded is true when the automaton was read from Path, false when
	// it was built (or found in memory, see Shared).
	Loaded bool
	// Shared is true when another call in this process made it.
	Shared bool
	// Took is the time spent loading or building (or waiting for the
	// call that did).
	Took time.Duration
}

// CacheError is a problem with the cache directory or a file in it: a
// damaged or foreign file (never trusted: the automaton is rebuilt), or a
// directory that cannot be read or written. The automaton that Load
// returns with it is good.
type CacheError struct {
	Path string
	Err  error
}

func (e *CacheError) Error() string {
	if e.Path == "" {
		return fmt.Sprintf("automaton cache: %v", e.Err)
	}
	return fmt.Sprintf("automaton cache %s: %v", e.Path, e.Err)
}

func (e *CacheError) Unwrap() error { return e.Err }

// memo holds the automata made in this process, one entry per kind and
// word list. memoMu guards the map only; an entry is made by the first
// call that asks for it while later calls for it wait on done, so builds
// of different automata run at once.
var (
	memoMu sync.Mutex
	memo   = map[memoKey]*memoEntry{}
)

type memoKey struct {
	kind Kind
	key  [32]byte
}

type memoEntry struct {
	done chan struct{}
	a    *Automaton // nil if the call making it failed
}

// build is Build, replaced by tests that watch or hold builds.
var build = Build

// Load returns the automaton of kind for the lexicon: one already made in
// this process, or the cache file if it holds a valid automaton for
// exactly this word list and alphabet, or else a freshly built one, which
// is then written to the cache. A damaged cache file is never trusted.
//
// The error, a *CacheError, reports a cache that could not be used: the
// automaton in the Result is good regardless, so a caller may warn and go
// on. Calls for the same automaton share one load or build; calls for
// different automata do not wait for each other.
func Load(lex *lexicon.Lexicon, kind Kind) (Result, error) {
	t0 := time.Now()
	key := Key(lex)
	k := memoKey{kind, key}
	for {
		memoMu.Lock()
		e := memo[k]
		if e == nil {
			e = &memoEntry{done: make(chan struct{})}
			memo[k] = e
			memoMu.Unlock()
			return e.make(k, func() (Result, error) { return loadOrBuild(lex, kind, key) }, t0)
		}
		memoMu.Unlock()
		<-e.done
		if e.a != nil {
			return Result{A: e.a, Shared: true, Took: time.Since(t0)}, nil
		}
		// The call making it failed; try again.
	}
}

// make runs f for the entry of k and publishes its automaton to the
// calls waiting for it, or removes the entry if f fails.
func (e *memoEntry) make(k memoKey, f func() (Result, error), t0 time.Time) (res Result, err error) {
	defer func() {
		if res.A == nil {
			memoMu.Lock()
			delete(memo, k)
			memoMu.Unlock()
		}
		e.a = res.A
		close(e.done)
	}()
	res, err = f()
	res.Took = time.Since(t0)
	return res, err
}

// loadOrBuild reads the cache file of the automaton or builds it and
// writes the file.
func loadOrBuild(lex *lexicon.Lexicon, kind Kind, key [32]byte) (Result, error) {
	var res Result
	var cacheErr error
	dir, err := CacheDir()
	if err != nil {
		cacheErr = &CacheError{Err: errors.Unwrap(err)}
	}
	if dir != "" {
		res.Path = filepath.Join(dir, FileName(kind, lex.Name, key))
		a, err := ReadFile(res.Path)
		switch {
		case err == nil && a.Kind == kind && a.Key == key:
			res.A, res.Loaded = a, true
			return res, nil
		case err == nil:
			cacheErr = &CacheError{Path: res.Path, Err: fmt.Errorf("holds a %s for another word list; rebuilt", a.Kind)}
		case errors.Is(err, os.ErrNotExist):
		default:
			cacheErr = &CacheError{Path: res.Path, Err: fmt.Errorf("%w; rebuilt", errors.Unwrap(err))}
		}
	}
	res.A = build(lex, kind)
	if res.Path != "" {
		if err := WriteFile(res.Path, res.A); err != nil && cacheErr == nil {
			cacheErr = err
		}
	}
	return res, cacheErr
}

// Build builds the automaton of kind for the lexicon.
func Build(lex *lexicon.Lexicon, kind Kind) *Automaton {
	if kind == DAWG {
		return BuildDAWG(lex)
	}
	return BuildGADDAG(lex)
}

// CachedDAWG is Load(lex, DAWG) for callers that cannot return an error:
// a cache problem is logged with the standard logger.
func CachedDAWG(lex *lexicon.Lexicon) *Automaton { return loadLogged(lex, DAWG) }

// CachedGADDAG is Load(lex, GADDAG) for callers that cannot return an
// error: a cache problem is logged with the standard logger.
func CachedGADDAG(lex *lexicon.Lexicon) *Automaton { return loadLogged(lex, GADDAG) }

func loadLogged(lex *lexicon.Lexicon, kind Kind) *Automaton {
	r, err := Load(lex, kind)
	if err != nil {
		log.Printf("%s of %s: %v", kind, lex.Name, err)
	}
	return r.A
}

// ReadFile reads and checks an automaton file. Its errors are
// *CacheError.
func ReadFile(path string) (*Automaton, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, &CacheError{Path: path, Err: pathless(err)}
	}
	a := new(Automaton)
	if err := a.UnmarshalBinary(data); err != nil {
		return nil, &CacheError{Path: path, Err: err}
	}
	return a, nil
}

// WriteFile writes an automaton file atomically (a temporary file in
// the same directory, then a rename), creating the directory. Its errors
// are *CacheError.
func WriteFile(path string, a *Automaton) error {
	data, err := a.MarshalBinary()
	if err != nil {
		return &CacheError{Path: path, Err: err}
	}
	if err := atomicfile.Write(path, data); err != nil {
		return &CacheError{Path: path, Err: err}
	}
	return nil
}

// pathless drops the file name from an error of package os about path,
// which CacheError names already.
func pathless(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: %w", pe.Op, pe.Err)
	}
	return err
}

// CacheEntry describes one file of the cache directory.
type CacheEntry struct {
	Path   string
	Size   int64
	Header Header
	// Err is set when the header cannot be read.
	Err error
}

// ListCache describes the automaton files in the cache directory.
func ListCache() (dir string, entries []CacheEntry, err error) {
	dir, err = CacheDir()
	if err != nil || dir == "" {
		return dir, nil, err
	}
	ents, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return dir, nil, nil
	}
	if err != nil {
		return dir, nil, fmt.Errorf("automaton cache: %w", err)
	}
	for _, e := range ents {
		if e.IsDir() || !strings.HasSuffix(e.Name(), fileExt) || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		p := filepath.Join(dir, e.Name())
		ce := CacheEntry{Path: p}
		if fi, err := e.Info(); err == nil {
			ce.Size = fi.Size()
		}
		f, err := os.Open(p)
		if err == nil {
			head := make([]byte, headerSize)
			_, err = io.ReadFull(f, head)
			f.Close()
			if err == nil {
				ce.Header, err = ReadHeader(head)
			}
		}
		ce.Err = err
		entries = append(entries, ce)
	}
	return dir, entries, nil
}
