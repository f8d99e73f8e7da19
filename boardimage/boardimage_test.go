package boardimage

import (
	"bytes"
	"image"
	"image/color"
	"image/draw"
	"image/gif"
	"image/png"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"

	"golang.org/x/image/font"

	"atril/alphabet"
	"atril/variant"
)

// position returns an English position with CAT across from the start
// square, its A a blank, outlined as the last move.
func position(t testing.TB) *Position {
	t.Helper()
	v := variant.MustLoad("english")
	grid := make([]alphabet.Tile, v.Size*v.Size)
	ts, err := v.Alphabet.Parse("CaT", alphabet.WithBlanks)
	if err != nil {
		t.Fatal(err)
	}
	var last [][2]int
	for i, tl := range ts {
		r, c := v.StartRow, v.StartCol+i
		grid[r*v.Size+c] = tl
		last = append(last, [2]int{r, c})
	}
	rack, err := v.Alphabet.Parse("QUIZ", alphabet.Plain)
	if err != nil {
		t.Fatal(err)
	}
	rack = append(rack, alphabet.Blank)
	return &Position{Variant: v, Grid: grid, Last: last,
		Scores: []Score{{Name: "Ana", Points: 12, Marked: true}, {Name: strings.Repeat("Computer (professional) ", 3), Points: 0}},
		Lines:  []string{"SOWPODS", strings.Repeat("a very long line ", 20)}, RackLabel: "Rack", Rack: rack, Footer: "atril"}
}

// count counts the pixels of r in colour c.
func count(img *image.RGBA, r image.Rectangle, c color.RGBA) int {
	n := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if img.RGBAAt(x, y) == c {
				n++
			}
		}
	}
	return n
}

func TestDraw(t *testing.T) {
	p := position(t)
	img, err := Draw(p)
	if err != nil {
		t.Fatal(err)
	}
	if img.Bounds() != image.Rect(0, 0, Width, Height) {
		t.Fatalf("bounds %v", img.Bounds())
	}
	v := p.Variant
	n := v.Size
	area := SquareRect(n, 0, 0).Dx() * SquareRect(n, 0, 0).Dy()
	for _, tc := range []struct {
		name    string
		r, c    int
		colour  color.RGBA
		atLeast int // of the square's pixels
		atMost  int
	}{
		{"triple word A1, mostly its colour", 0, 0, colTW, area / 2, area},
		{"double letter D1", 0, 3, colDL, area / 2, area},
		{"plain B1", 0, 1, colSquare, area, area},
		{"the C, a tile", v.StartRow, v.StartCol, colTile, area / 3, area},
		{"the C, outlined as the last move", v.StartRow, v.StartCol, colLast, area / 10, area / 3},
		{"the blank A, letter in the blank's ink", v.StartRow, v.StartCol + 1, colBlankInk, 5, area / 3},
		{"the C's letter is not in the blank's ink", v.StartRow, v.StartCol, colBlankInk, 0, 0},
		{"no tile on H1", 0, 7, colTile, 0, 0},
	} {
		got := count(img, SquareRect(n, tc.r, tc.c), tc.colour)
		if got < tc.atLeast || got > tc.atMost {
			t.Errorf("%s: %d pixels of %v, want %d to %d", tc.name, got, tc.colour, tc.atLeast, tc.atMost)
		}
	}
	// The text and the rack are beside the board.
	right := image.Rect(SquareRect(n, 0, n-1).Max.X+10, 0, Width, Height)
	if got := count(img, right, colTile); got < 5*40*40 || !ShowsRack(img, n) {
		t.Errorf("%d pixels of tile colour beside the board, want five rack tiles", got)
	}
	for _, tc := range []struct {
		r, c int
		want bool
	}{{v.StartRow, v.StartCol, true}, {v.StartRow, v.StartCol + 2, true}, {v.StartRow, v.StartCol + 3, false}, {0, 0, false}} {
		if got := ShowsTile(img, n, tc.r, tc.c); got != tc.want {
			t.Errorf("ShowsTile(%d, %d) = %v", tc.r, tc.c, got)
		}
	}
	p.Rack = nil
	if bare, err := Draw(p); err != nil || ShowsRack(bare, n) {
		t.Errorf("no rack: ShowsRack true or %v", err)
	}
	if got := count(img, right, colInk); got < 100 {
		t.Errorf("%d pixels of ink beside the board: no title?", got)
	}
	if got := count(img, right, colRowMarked); got < 400*40 {
		t.Errorf("%d pixels of a marked row", got)
	}
	if got := count(img, right, colRow); got < 400*40 {
		t.Errorf("%d pixels of an unmarked row", got)
	}
	if got := count(img, right, colAccent); got < 20 {
		t.Errorf("%d pixels of the footer's colour", got)
	}
	var buf bytes.Buffer
	if err := Encode(&buf, p); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	dec, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if dec.Bounds() != img.Bounds() {
		t.Errorf("decoded bounds %v", dec.Bounds())
	}
	if out := os.Getenv("ATRIL_BOARDIMAGE"); out != "" {
		if err := os.WriteFile(out, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestDrawLanguagesAndSizes(t *testing.T) {
	for _, name := range []string{"spanish", "czech"} {
		v := variant.MustLoad(name)
		p := &Position{Variant: v, Grid: make([]alphabet.Tile, v.Size*v.Size), Lang: name[:2]}
		for i := 1; i <= v.Alphabet.Size() && i < v.Size; i++ {
			p.Grid[i] = alphabet.Tile(i) // every letter draws
		}
		if _, err := Draw(p); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestDrawRefuses(t *testing.T) {
	v := variant.MustLoad("english")
	for _, tc := range []struct {
		name string
		p    Position
		want string
	}{
		{"no variant", Position{}, "no variant"},
		{"short grid", Position{Variant: v, Grid: make([]alphabet.Tile, 10)}, "10 squares"},
		{"unknown tile", Position{Variant: v, Grid: func() []alphabet.Tile {
			g := make([]alphabet.Tile, v.Size*v.Size)
			g[16] = 40
			return g
		}()}, "square B2 holds tile code 40"},
		{"rack tile", Position{Variant: v, Grid: make([]alphabet.Tile, v.Size*v.Size), Rack: []alphabet.Tile{60}}, "rack tile code 60"},
		{"last off the board", Position{Variant: v, Grid: make([]alphabet.Tile, v.Size*v.Size), Last: [][2]int{{15, 0}}}, "off the board"},
	} {
		_, err := Draw(&tc.p)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one saying %q", tc.name, err, tc.want)
		}
	}
}

func TestFit(t *testing.T) {
	b, _, err := fonts()
	if err != nil {
		t.Fatal(err)
	}
	fs := &faces{bold: b, regular: b, made: map[[2]int]font.Face{}}
	defer fs.close()
	fc := fs.get(true, 20)
	if got := fit(fc, "short", 500); got != "short" {
		t.Errorf("fit kept %q", got)
	}
	long := strings.Repeat("word ", 50)
	got := fit(fc, long, 200)
	if !strings.HasSuffix(got, "…") || font.MeasureString(fc, got).Ceil() > 200 || len(got) < 10 {
		t.Errorf("fit gave %q", got)
	}
}

func BenchmarkEncode(b *testing.B) {
	p := position(b)
	for b.Loop() {
		if err := Encode(&bytes.Buffer{}, p); err != nil {
			b.Fatal(err)
		}
	}
}

// TestEncodeGIF: an animation's frames, laid one over the other as a
// viewer shows them, give every position in turn as its picture (in the
// animation's palette); each frame after the first holds only what
// changed.
func TestEncodeGIF(t *testing.T) {
	last := position(t)
	empty := *last
	empty.Grid = make([]alphabet.Tile, len(last.Grid))
	empty.Last, empty.Rack = nil, nil
	mid := *last
	mid.Rack = nil
	ps := []*Position{&empty, &mid, last}
	var buf bytes.Buffer
	if err := EncodeGIF(&buf, ps, 100, 400); err != nil {
		t.Fatal(err)
	}
	g, err := gif.DecodeAll(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Image) != 3 || !slices.Equal(g.Delay, []int{100, 100, 400}) {
		t.Fatalf("%d frames, delays %v", len(g.Image), g.Delay)
	}
	full := image.Rect(0, 0, Width, Height)
	if g.Image[0].Bounds() != full {
		t.Errorf("the first frame: %v", g.Image[0].Bounds())
	}
	canvas := image.NewRGBA(full)
	for i, fr := range g.Image {
		if i > 0 && fr.Bounds().Dx()*fr.Bounds().Dy() > Width*Height/2 {
			t.Errorf("frame %d holds %v, more than what changed", i, fr.Bounds())
		}
		draw.Draw(canvas, fr.Bounds(), fr, fr.Bounds().Min, draw.Src)
		want, err := Draw(ps[i])
		if err != nil {
			t.Fatal(err)
		}
		diff := 0
		for y := 0; y < Height; y++ {
			for x := 0; x < Width; x++ {
				w := gifPalette.Convert(want.RGBAAt(x, y))
				if color.RGBAModel.Convert(w) != color.RGBAModel.Convert(canvas.At(x, y)) {
					diff++
				}
			}
		}
		if diff > 0 {
			t.Errorf("frame %d: %d pixels differ from its picture", i, diff)
		}
	}
	if !ShowsTile(canvas, 15, 7, 7) || !ShowsRack(canvas, 15) {
		t.Error("the last frame lacks the tiles or the rack")
	}
	if err := EncodeGIF(&buf, nil, 100, 100); err == nil {
		t.Error("an animation of nothing was made")
	}
}

// BenchmarkEncodeGIF draws an animation of 30 frames, a tile more on
// the board and a point more in each.
func BenchmarkEncodeGIF(b *testing.B) {
	base := position(b)
	var ps []*Position
	grid := make([]alphabet.Tile, len(base.Grid))
	for i := 0; i < 30; i++ {
		p := *base
		grid[(i%15)*15+i/15*2] = alphabet.Tile(1 + i%26)
		p.Grid = slices.Clone(grid)
		p.Scores = []Score{{Name: "Ana", Points: i, Marked: i%2 == 0}, {Name: "Bo", Points: 2 * i, Marked: i%2 == 1}}
		ps = append(ps, &p)
	}
	var size int
	for b.Loop() {
		var buf bytes.Buffer
		if err := EncodeGIF(&buf, ps, 100, 400); err != nil {
			b.Fatal(err)
		}
		size = buf.Len()
	}
	b.ReportMetric(float64(size), "bytes")
}

// heapWriter counts what is written and notes the largest live heap at
// any write.
type heapWriter struct {
	n    int
	peak uint64
}

func (w *heapWriter) Write(p []byte) (int, error) {
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	w.peak = max(w.peak, ms.HeapAlloc)
	w.n += len(p)
	return len(p), nil
}

// TestEncodeGIFStreams: an animation is written as its frames are drawn,
// so a long game's takes the memory of a frame or two, not of all its
// frames (each of a change across the whole picture here).
func TestEncodeGIFStreams(t *testing.T) {
	if testing.Short() {
		t.Skip("draws 100 pictures")
	}
	a := position(t)
	a.Grid = slices.Clone(a.Grid)
	a.Grid[0] = a.Grid[7*15+7]
	a.Last = append(a.Last, [2]int{0, 0})
	b := *a
	b.Grid = make([]alphabet.Tile, len(a.Grid))
	b.Last, b.Scores = nil, []Score{{Name: "Bo", Points: 99}}
	var ps []*Position
	for i := 0; i < 50; i++ {
		ps = append(ps, a, &b)
	}
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	w := &heapWriter{peak: ms.HeapAlloc}
	if err := EncodeGIF(w, ps, 100, 400); err != nil {
		t.Fatal(err)
	}
	if grew := int64(w.peak) - int64(ms.HeapAlloc); grew > 16<<20 {
		t.Errorf("the heap grew by %d MB while writing %d frames (%d bytes)", grew>>20, len(ps), w.n)
	}
}

func TestIcon(t *testing.T) {
	for _, size := range []int{32, 180, 192, 512} {
		img, err := Icon(size)
		if err != nil {
			t.Fatal(err)
		}
		if b := img.Bounds(); b.Dx() != size || b.Dy() != size {
			t.Fatalf("%d: bounds %v", size, b)
		}
		// The corners are the background; the middle is the tile, with
		// ink on it; nothing of the tile outside the middle 80%.
		if img.RGBAAt(0, 0) != colAccent || img.RGBAAt(size-1, size-1) != colAccent {
			t.Errorf("%d: corners %v %v", size, img.RGBAAt(0, 0), img.RGBAAt(size-1, size-1))
		}
		ink, tile := 0, 0
		for y := 0; y < size; y++ {
			for x := 0; x < size; x++ {
				c := img.RGBAAt(x, y)
				if c == colAccent {
					continue
				}
				dx, dy := float64(x)-float64(size)/2, float64(y)-float64(size)/2
				if dx*dx+dy*dy > 0.4*0.4*float64(size*size) {
					t.Fatalf("%d: the tile at (%d, %d), outside the safe circle", size, x, y)
				}
				if c == colTile {
					tile++
				} else if c.R < 0x80 {
					ink++
				}
			}
		}
		if side := size * 56 / 100; tile < side*side/3 || ink < side*side/30 {
			t.Errorf("%d: %d pixels of tile, %d of ink", size, tile, ink)
		}
	}
	if _, err := Icon(16); err == nil {
		t.Error("an icon of 16 pixels was drawn")
	}
}
