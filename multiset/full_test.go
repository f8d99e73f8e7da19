package multiset

import (
	"os"
	"testing"
	"time"
)

func TestFullBuild(t *testing.T) {
	if os.Getenv("ATRIL_LONG") == "" {
		t.Skip("set ATRIL_LONG=1")
	}
	for _, tc := range []struct{ variant, lex string }{
		{"english", "en-sowpods"}, {"spanish", "es-fise"}, {"czech", "cs-hunspell-2to9"},
	} {
		v, ws := sample(t, tc.variant, tc.lex, 1)
		t0 := time.Now()
		tab, err := Build(v.Alphabet.Size(), ws)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s %d words: %d exceedances, %d triads (%d unrestricted), %d carry masks, id bits %d, %d bytes, %v",
			tc.variant, len(ws), tab.Exceedances(), tab.Triads(), tab.AllTriads, tab.CarryMasks(), tab.IDBits(), tab.Bytes(), time.Since(t0))
	}
}
