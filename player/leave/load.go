package leave

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sync"

	"atril/variant"
)

// tables holds the exhaustive tables learnt for the embedded variants,
// as tables/<variant>.leaves.gz (see tables/README.md for the commands
// that made them).
//
//go:embed tables
var tables embed.FS

var (
	embeddedMu    sync.Mutex
	embeddedCache = map[string]*Exhaustive{}
)

// Embedded returns the exhaustive table learnt for a variant, decoded
// once and shared (tables are read-only). It returns an error wrapping
// fs.ErrNotExist when none is embedded for the variant's name, and
// refuses a table whose tile set differs from the variant's.
func Embedded(v *variant.Variant) (*Exhaustive, error) {
	embeddedMu.Lock()
	defer embeddedMu.Unlock()
	if t, ok := embeddedCache[v.Name]; ok && t.idx.sameAs(v) {
		return t, nil
	}
	data, err := tables.ReadFile("tables/" + v.Name + ".leaves.gz")
	if err != nil {
		return nil, fmt.Errorf("leave: no learnt table for variant %s: %w", v.Name, err)
	}
	t, err := ReadExhaustive(data, v)
	if err != nil {
		return nil, err
	}
	embeddedCache[v.Name] = t
	return t, nil
}

// sameAs reports whether the index is of the variant's tile set.
func (ix *Index) sameAs(v *variant.Variant) bool {
	return ix.max == v.RackSize-1 && sameSet(ix.letters, ix.counts, append([]string{"?"}, v.Alphabet.Letters()...), v.Counts)
}

// LoadNames lists the names Load accepts besides a file.
func LoadNames() []string {
	return []string{"default", "learnt", "v1", "v2", "czech", "spanish", "none"}
}

// Load resolves a leave-table name for a variant:
//
//   - "" or "default": the exhaustive table learnt for the variant
//     (Embedded), or its per-letter table when none is embedded;
//   - "learnt": the learnt table (an error when none is embedded);
//   - "v1", "v2": the per-letter tables of ForVariant (English v1 and
//     v2; the Czech and Spanish tables with and without the duplicate
//     penalty);
//   - "czech", "spanish": those per-letter tables by language;
//   - "none": no leave term (nil);
//   - anything else: a file, either an exhaustive table (binary, as
//     written by `atril leaves learn`) or a per-letter text table (as
//     written by `atril sim --learn`).
//
// balance is the vowel/consonant weight of per-letter tables (learnt
// tables already hold whatever balance is worth).
func Load(v *variant.Variant, name string, balance float64) (Evaluator, error) {
	switch name {
	case "none":
		return nil, nil
	case "", "default":
		t, err := Embedded(v)
		if err == nil {
			return t, nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		return perLetter(v, "", balance)
	case "learnt":
		return Embedded(v)
	case "v1", "v2":
		return perLetter(v, name, balance)
	case "czech", "spanish":
		s := Czech()
		if name == "spanish" {
			s = Spanish()
		}
		s.Balance = balance
		return Bind(s, v.Alphabet)
	}
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("leave table: %w (known names: %v)", err, LoadNames())
	}
	if IsExhaustive(data) {
		return ReadExhaustive(data, v)
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, fmt.Errorf("leave table: %w", err)
	}
	defer f.Close()
	spec, err := Read(f, name)
	if err != nil {
		return nil, err
	}
	spec.Balance = balance
	return Bind(spec, v.Alphabet)
}

// perLetter is ForVariant with a nil table turned into a nil Evaluator.
func perLetter(v *variant.Variant, name string, balance float64) (Evaluator, error) {
	t, err := ForVariant(v, name, balance)
	if err != nil || t == nil {
		return nil, err
	}
	return t, nil
}
