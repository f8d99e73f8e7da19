package automaton

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"atril/lexicon"
)

// CacheEnv names the environment variable that overrides the cache
// directory; the value "off" turns the disk cache off.
const CacheEnv = "ATRIL_CACHE"

// fileExt is the extension of cache files.
const fileExt = ".atfa"

// CacheDir returns the directory holding cached automata: $ATRIL_CACHE,
// or "atril" in the user's cache directory. It returns "" (and no error)
// when the cache is turned off.
func CacheDir() (string, error) {
	if d := os.Getenv(CacheEnv); d != "" {
		if d == "off" {
			return "", nil
		}
		return d, nil
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("automaton cache: %w", err)
	}
	return filepath.Join(d, "atril"), nil
}

// FileName is the cache file name of an automaton of kind for a word list
// named name with the given key.
func FileName(kind Kind, name string, key [32]byte) string {
	clean := strings.Map(func(r rune) rune {
		if r == '-' || r == '_' || r == '.' || ('a' <= r && r <= 'z') || ('A' <= r && r <= 'Z') || ('0' <= r && r <= '9') {
			return r
		}
		return '_'
	}, name)
	if clean == "" {
		clean = "list"
	}
	return fmt.Sprintf("%s-%s-%x%s", kind, clean, key[:8], fileExt)
}

// Result says where an automaton came from.
type Result struct {
	A *Automaton
	// Path is the cache file ("" when the cache is off or unusable).
	Path string
	// Loaded is true when the automaton was read from Path, false when
	// it was built (or found in memory, see Shared).
	Loaded bool
	// Shared is true when an earlier call in this process had it already.
	Shared bool
	// Took is the time spent loading or building.
	Took time.Duration
	// CacheErr is a problem with the cache (a damaged file that was
	// rebuilt, a directory that cannot be written); the automaton is
	// good regardless.
	CacheErr error
}

var (
	memoMu sync.Mutex
	memo   = map[memoKey]*Automaton{}
)

type memoKey struct {
	kind Kind
	key  [32]byte
}

// Cached returns the automaton of kind for the lexicon: one already made
// in this process, or the cache file if it holds a valid automaton for
// exactly this word list and alphabet, or else a freshly built one, which
// is then written to the cache. A damaged cache file is never trusted.
func Cached(lex *lexicon.Lexicon, kind Kind) Result {
	t0 := time.Now()
	key := Key(lex)
	memoMu.Lock()
	defer memoMu.Unlock()
	if a := memo[memoKey{kind, key}]; a != nil {
		return Result{A: a, Shared: true, Took: time.Since(t0)}
	}
	var res Result
	dir, err := CacheDir()
	if err != nil {
		res.CacheErr = err
	}
	if dir != "" {
		res.Path = filepath.Join(dir, FileName(kind, lex.Name, key))
		a, err := ReadFile(res.Path)
		switch {
		case err == nil && a.Kind == kind && a.Key == key:
			res.A, res.Loaded = a, true
		case err == nil:
			res.CacheErr = fmt.Errorf("automaton cache %s: holds a %s for another word list; rebuilt", res.Path, a.Kind)
		case errors.Is(err, os.ErrNotExist):
		default:
			res.CacheErr = fmt.Errorf("%w; rebuilt", err)
		}
	}
	if res.A == nil {
		res.A = Build(lex, kind)
		if res.Path != "" {
			if err := WriteFile(res.Path, res.A); err != nil && res.CacheErr == nil {
				res.CacheErr = err
			}
		}
	}
	memo[memoKey{kind, key}] = res.A
	res.Took = time.Since(t0)
	return res
}

// Build builds the automaton of kind for the lexicon.
func Build(lex *lexicon.Lexicon, kind Kind) *Automaton {
	if kind == DAWG {
		return BuildDAWG(lex)
	}
	return BuildGADDAG(lex)
}

// CachedDAWG is Cached(lex, DAWG).A.
func CachedDAWG(lex *lexicon.Lexicon) *Automaton { return Cached(lex, DAWG).A }

// CachedGADDAG is Cached(lex, GADDAG).A.
func CachedGADDAG(lex *lexicon.Lexicon) *Automaton { return Cached(lex, GADDAG).A }

// ReadFile reads and checks an automaton file.
func ReadFile(path string) (*Automaton, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("automaton cache: %w", err)
	}
	a := new(Automaton)
	if err := a.UnmarshalBinary(data); err != nil {
		return nil, fmt.Errorf("automaton file %s: %w", path, err)
	}
	return a, nil
}

// WriteFile writes an automaton file atomically (a temporary file in
// the same directory, then a rename), creating the directory.
func WriteFile(path string, a *Automaton) error {
	data, err := a.MarshalBinary()
	if err != nil {
		return err
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("automaton cache: %w", err)
	}
	f, err := os.CreateTemp(dir, ".tmp-*"+fileExt)
	if err != nil {
		return fmt.Errorf("automaton cache: %w", err)
	}
	_, werr := f.Write(data)
	cerr := f.Close()
	if werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(f.Name(), path)
	}
	if werr != nil {
		os.Remove(f.Name())
		return fmt.Errorf("automaton cache: writing %s: %w", path, werr)
	}
	return nil
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
