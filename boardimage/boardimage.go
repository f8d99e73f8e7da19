// Package boardimage draws a position as a picture: the board with its
// premium squares and tiles, the squares of the last move outlined, and
// beside it a title, a few lines of text and a rack. The server gives
// these pictures as the preview of a shared link (a game, a puzzle) and
// for a player to save or send a position.
//
// The picture is a card of 1200×630 pixels, the proportions link
// previews use; the board takes its left part whatever its size. Text is
// set in the Go fonts, which cover the letters of the English, Spanish
// and Czech alphabets.
package boardimage

import (
	"bufio"
	"bytes"
	"compress/lzw"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/gif"
	"image/png"
	"io"
	"math"
	"strings"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"

	"atril/alphabet"
	"atril/variant"
)

// Width and Height are the size of every picture, in pixels.
const (
	Width  = 1200
	Height = 630
)

// Position is what a picture shows.
type Position struct {
	// Variant gives the board's size, premiums, start square, alphabet
	// and tile scores.
	Variant *variant.Variant
	// Grid holds the tiles on the board, Size×Size row-major, 0 for an
	// empty square (a blank standing for a letter has its BlankBit set).
	Grid []alphabet.Tile
	// Last are the squares (row, column) of the last move's new tiles,
	// outlined.
	Last [][2]int
	// Lang is the language of the premium squares' labels: "en", "es"
	// or "cs" (English when empty or unknown).
	Lang string
	// Title is the first line beside the board, in bold.
	Title string
	// Scores are the players, one a row under the title, each with its
	// score; a marked row (the player on turn, or the winner) is shaded.
	Scores []Score
	// Lines follow the scores, one a line; a line too long for the space
	// is cut with an ellipsis, as are the title and names.
	Lines []string
	// RackLabel is written above Rack when the rack is shown.
	RackLabel string
	// Rack is a rack shown under the lines (the undesignated blank is
	// alphabet.Blank); nil shows none.
	Rack []alphabet.Tile
	// Footer is written at the bottom right, small (for example the
	// site's name).
	Footer string
}

// margin is the space around the board, gap between its squares.
const margin, gap = 15, 2

// geometry gives the top of a board of n×n squares, the side of a
// square and the side of the board.
func geometry(n int) (top, sq, side int) {
	sq = (Height - 2*margin - (n+1)*gap) / n
	side = n*sq + (n+1)*gap
	return (Height - side) / 2, sq, side
}

// SquareRect is where a picture puts square (r, c) of a board of n×n
// squares.
func SquareRect(n, r, c int) image.Rectangle {
	top, sq, _ := geometry(n)
	x0, y0 := margin+gap+c*(sq+gap), top+gap+r*(sq+gap)
	return image.Rect(x0, y0, x0+sq, y0+sq)
}

// ShowsTile says whether img, a picture of a board of n×n squares, shows
// a tile on square (r, c): whether a third of the square has the tiles'
// colour. It reads pictures back, for tests of what they show.
func ShowsTile(img image.Image, n, r, c int) bool {
	rect := SquareRect(n, r, c)
	return tilePixels(img, rect)*3 >= rect.Dx()*rect.Dy()
}

// ShowsRack says whether img, a picture of a board of n×n squares, shows
// tiles beside the board.
func ShowsRack(img image.Image, n int) bool {
	_, _, side := geometry(n)
	return tilePixels(img, image.Rect(margin+side, 0, Width, Height)) >= 400
}

// tilePixels counts the pixels of r in the tiles' colour.
func tilePixels(img image.Image, r image.Rectangle) int {
	k := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if color.RGBAModel.Convert(img.At(x, y)) == colTile {
				k++
			}
		}
	}
	return k
}

// Score is a player's row in a picture.
type Score struct {
	Name   string
	Points int
	Marked bool
}

// Colours of the page's classic board.
var (
	colBackground = color.RGBA{0xf5, 0xf1, 0xe8, 0xff}
	colSquare     = color.RGBA{0xe4, 0xdc, 0xcb, 0xff}
	colTW         = color.RGBA{0xb3, 0x36, 0x2f, 0xff}
	colDW         = color.RGBA{0xf0, 0xb3, 0xad, 0xff}
	colTL         = color.RGBA{0x2b, 0x6a, 0xa6, 0xff}
	colDL         = color.RGBA{0xb6, 0xd4, 0xee, 0xff}
	colQW         = color.RGBA{0x7a, 0x23, 0x1e, 0xff}
	colQL         = color.RGBA{0x1b, 0x46, 0x73, 0xff}
	colDWInk      = color.RGBA{0x3a, 0x14, 0x11, 0xff}
	colDLInk      = color.RGBA{0x10, 0x30, 0x4d, 0xff}
	colSqInk      = color.RGBA{0x33, 0x33, 0x33, 0xff}
	colTile       = color.RGBA{0xf4, 0xd2, 0x8b, 0xff}
	colTileEdge   = color.RGBA{0xb8, 0x92, 0x4a, 0xff}
	colTileInk    = color.RGBA{0x22, 0x22, 0x22, 0xff}
	colBlankInk   = color.RGBA{0x9b, 0x2f, 0x25, 0xff}
	colLast       = color.RGBA{0xb0, 0x3a, 0x2e, 0xff}
	colInk        = color.RGBA{0x22, 0x22, 0x22, 0xff}
	colMuted      = color.RGBA{0x5c, 0x5c, 0x5c, 0xff}
	colAccent     = color.RGBA{0x2f, 0x6d, 0x4f, 0xff}
	colWhite      = color.RGBA{0xff, 0xff, 0xff, 0xff}
	colRow        = color.RGBA{0xe8, 0xe2, 0xd4, 0xff}
	colRowMarked  = color.RGBA{0xd2, 0xe6, 0xda, 0xff}
)

// labels are the premium squares' labels by language, in the order
// double letter, triple letter, quadruple letter, double word, triple
// word, quadruple word: as the page writes them.
var labels = map[string][6]string{
	"en": {"DL", "TL", "QL", "DW", "TW", "QW"},
	"es": {"DL", "TL", "CL", "DP", "TP", "CP"},
	"cs": {"2P", "3P", "4P", "2S", "3S", "4S"},
}

// The fonts, parsed once. A face is made for each picture: faces keep
// state and are not safe for concurrent use.
var (
	fontsOnce          sync.Once
	fontBold, fontRegu *opentype.Font
	fontsErr           error
)

func fonts() (*opentype.Font, *opentype.Font, error) {
	fontsOnce.Do(func() {
		if fontBold, fontsErr = opentype.Parse(gobold.TTF); fontsErr != nil {
			fontsErr = fmt.Errorf("boardimage: the bold font: %w", fontsErr)
			return
		}
		if fontRegu, fontsErr = opentype.Parse(goregular.TTF); fontsErr != nil {
			fontsErr = fmt.Errorf("boardimage: the regular font: %w", fontsErr)
		}
	})
	return fontBold, fontRegu, fontsErr
}

// faces holds the faces one picture is drawn with, by size in pixels.
type faces struct {
	bold, regular *opentype.Font
	made          map[[2]int]font.Face
}

// newFaces makes the faces of one picture.
func newFaces() (*faces, error) {
	b, r, err := fonts()
	if err != nil {
		return nil, err
	}
	return &faces{bold: b, regular: r, made: map[[2]int]font.Face{}}, nil
}

func (f *faces) get(bold bool, size int) font.Face {
	b := 0
	if bold {
		b = 1
	}
	if fc, ok := f.made[[2]int{b, size}]; ok {
		return fc
	}
	ft := f.regular
	if bold {
		ft = f.bold
	}
	fc, err := opentype.NewFace(ft, &opentype.FaceOptions{Size: float64(size), DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		// Only bad options fail, and these are fixed.
		panic(fmt.Sprintf("boardimage: face of %d px: %v", size, err))
	}
	f.made[[2]int{b, size}] = fc
	return fc
}

func (f *faces) close() {
	for _, fc := range f.made {
		fc.Close()
	}
}

// check says what is wrong with p, if anything.
func (p *Position) check() error {
	v := p.Variant
	if v == nil {
		return errors.New("boardimage: no variant")
	}
	if len(p.Grid) != v.Size*v.Size {
		return fmt.Errorf("boardimage: %d squares for a board of %d×%d", len(p.Grid), v.Size, v.Size)
	}
	n := v.Alphabet.Size()
	for i, t := range p.Grid {
		if t != 0 && (int(t.Letter()) < 1 || int(t.Letter()) > n) {
			return fmt.Errorf("boardimage: square %s holds tile code %d, not a letter of the alphabet", variant.SquareName(i/v.Size, i%v.Size), t)
		}
	}
	for _, t := range p.Rack {
		if int(t.Letter()) > n {
			return fmt.Errorf("boardimage: rack tile code %d is not a letter of the alphabet", t)
		}
	}
	for _, sq := range p.Last {
		if sq[0] < 0 || sq[1] < 0 || sq[0] >= v.Size || sq[1] >= v.Size {
			return fmt.Errorf("boardimage: last move's square (%d, %d) is off the board", sq[0], sq[1])
		}
	}
	return nil
}

// Draw draws p.
func Draw(p *Position) (*image.RGBA, error) {
	if err := p.check(); err != nil {
		return nil, err
	}
	fs, err := newFaces()
	if err != nil {
		return nil, err
	}
	defer fs.close()
	img := image.NewRGBA(image.Rect(0, 0, Width, Height))
	fill(img, img.Bounds(), colBackground)

	v := p.Variant
	top, sq, side := geometry(v.Size)
	drawBoard(img, fs, p, margin, top, sq, gap)

	// The text beside the board.
	x := margin + side + 30
	w := Width - margin - x
	y := 60
	if p.Title != "" {
		fc := fs.get(true, 40)
		text(img, fc, fit(fc, p.Title, w), x, y, colInk)
		y += 56
	}
	for _, sc := range p.Scores {
		if y > Height-200 {
			break
		}
		row := image.Rect(x, y-10, x+w, y+46)
		fill(img, row, map[bool]color.RGBA{false: colRow, true: colRowMarked}[sc.Marked])
		fc := fs.get(true, 30)
		pts := fmt.Sprint(sc.Points)
		pw := font.MeasureString(fc, pts).Ceil()
		text(img, fc, fit(fc, sc.Name, w-pw-48), x+14, y+28, colInk)
		text(img, fc, pts, x+w-14-pw, y+28, colInk)
		y += 64
	}
	if len(p.Scores) > 0 {
		y += 30
	}
	for _, line := range p.Lines {
		if y > Height-150 {
			break
		}
		fc := fs.get(false, 28)
		text(img, fc, fit(fc, line, w), x, y, colMuted)
		y += 40
	}
	if len(p.Rack) > 0 {
		y += 10
		if p.RackLabel != "" {
			fc := fs.get(true, 24)
			text(img, fc, fit(fc, p.RackLabel, w), x, y, colInk)
			y += 14
		}
		ts := min(64, (w-8*(len(p.Rack)-1))/len(p.Rack))
		for i, t := range p.Rack {
			drawTile(img, fs, v, t, image.Rect(x+i*(ts+8), y, x+i*(ts+8)+ts, y+ts), false)
		}
	}
	if p.Footer != "" {
		fc := fs.get(true, 30)
		fw := font.MeasureString(fc, p.Footer).Ceil()
		text(img, fc, p.Footer, Width-margin-fw, Height-margin-10, colAccent)
	}
	return img, nil
}

// Encode draws p and writes it to w as a PNG file.
func Encode(w io.Writer, p *Position) error {
	img, err := Draw(p)
	if err != nil {
		return err
	}
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(w, img); err != nil {
		return fmt.Errorf("boardimage: encode PNG: %w", err)
	}
	return nil
}

// drawBoard draws the board's squares and tiles with its top left corner
// at (left, top), squares of sq pixels gap apart.
func drawBoard(img *image.RGBA, fs *faces, p *Position, left, top, sq, gap int) {
	v := p.Variant
	lab, ok := labels[p.Lang]
	if !ok {
		lab = labels["en"]
	}
	_, _, side := geometry(v.Size)
	fill(img, image.Rect(left, top, left+side, top+side), colBackground)
	last := map[[2]int]bool{}
	for _, s := range p.Last {
		last[s] = true
	}
	labelFace := fs.get(true, max(8, sq*3/10))
	for r := 0; r < v.Size; r++ {
		for c := 0; c < v.Size; c++ {
			x0, y0 := left+gap+c*(sq+gap), top+gap+r*(sq+gap)
			rect := image.Rect(x0, y0, x0+sq, y0+sq)
			if t := p.Grid[r*v.Size+c]; t != 0 {
				drawTile(img, fs, v, t, rect, last[[2]int{r, c}])
				continue
			}
			bg, ink, label := premiumLook(v.Premium(r, c), lab)
			fill(img, rect, bg)
			if label != "" {
				centre(img, labelFace, label, rect, ink)
			} else if r == v.StartRow && c == v.StartCol {
				star(img, rect, colSqInk)
			}
		}
	}
}

// premiumLook gives a square's colour, ink and label.
func premiumLook(pr variant.Premium, lab [6]string) (bg, ink color.RGBA, label string) {
	switch {
	case pr.WordMul >= 4:
		return colQW, colWhite, lab[5]
	case pr.WordMul == 3:
		return colTW, colWhite, lab[4]
	case pr.WordMul == 2:
		return colDW, colDWInk, lab[3]
	case pr.LetterMul >= 4:
		return colQL, colWhite, lab[2]
	case pr.LetterMul == 3:
		return colTL, colWhite, lab[1]
	case pr.LetterMul == 2:
		return colDL, colDLInk, lab[0]
	}
	return colSquare, colSqInk, ""
}

// drawTile draws tile t in rect: its letter, and its score unless it is a
// blank (whose letter, if it stands for one, is drawn in the blank's
// colour).
func drawTile(img *image.RGBA, fs *faces, v *variant.Variant, t alphabet.Tile, rect image.Rectangle, outlined bool) {
	edge := colTileEdge
	if outlined {
		edge = colLast
	}
	fill(img, rect, edge)
	in := rect.Inset(1)
	if outlined {
		in = rect.Inset(max(2, rect.Dx()/14))
	}
	fill(img, in, colTile)
	size := rect.Dx()
	ink := colTileInk
	letter := ""
	if t.Letter() != alphabet.Blank {
		letter = strings.ToUpper(v.Alphabet.String(t.Letter()))
	}
	if t == alphabet.Blank || t.IsBlanked() {
		ink = colBlankInk
	}
	if letter != "" {
		px := size * 62 / 100
		if len([]rune(letter)) > 1 {
			px = size * 40 / 100
		}
		lr := rect
		lr.Max.X -= size / 10
		lr.Max.Y -= size / 14
		centre(img, fs.get(true, px), letter, lr, ink)
	}
	if t != alphabet.Blank && !t.IsBlanked() {
		pts := fmt.Sprint(v.Score(t))
		fc := fs.get(false, max(7, size*24/100))
		w := font.MeasureString(fc, pts).Ceil()
		text(img, fc, pts, rect.Max.X-w-max(2, size/14), rect.Max.Y-max(2, size/12), colTileInk)
	}
}

// fill paints r in c.
func fill(img *image.RGBA, r image.Rectangle, c color.RGBA) {
	draw.Draw(img, r, image.NewUniform(c), image.Point{}, draw.Src)
}

// text writes s with its baseline's left end at (x, y).
func text(img *image.RGBA, fc font.Face, s string, x, y int, c color.RGBA) {
	d := font.Drawer{Dst: img, Src: image.NewUniform(c), Face: fc, Dot: fixed.P(x, y)}
	d.DrawString(s)
}

// centre writes s centred in r, by the bounds of its glyphs.
func centre(img *image.RGBA, fc font.Face, s string, r image.Rectangle, c color.RGBA) {
	b, _ := font.BoundString(fc, s)
	w := (b.Max.X - b.Min.X).Ceil()
	h := (b.Max.Y - b.Min.Y).Ceil()
	x := r.Min.X + (r.Dx()-w)/2 - b.Min.X.Floor()
	y := r.Min.Y + (r.Dy()-h)/2 - b.Min.Y.Floor()
	text(img, fc, s, x, y, c)
}

// fit cuts s with an ellipsis until it is at most w pixels wide.
func fit(fc font.Face, s string, w int) string {
	if font.MeasureString(fc, s).Ceil() <= w {
		return s
	}
	rs := []rune(s)
	for len(rs) > 0 {
		rs = rs[:len(rs)-1]
		t := strings.TrimRight(string(rs), " ") + "…"
		if font.MeasureString(fc, t).Ceil() <= w {
			return t
		}
	}
	return ""
}

// star draws a five-pointed star in r, the mark of the start square.
func star(img *image.RGBA, r image.Rectangle, c color.RGBA) {
	cx, cy := float64(r.Min.X+r.Max.X)/2, float64(r.Min.Y+r.Max.Y)/2
	outer := float64(r.Dx()) * 0.36
	inner := outer * 0.4
	var pts [10][2]float64
	for i := range pts {
		rad := outer
		if i%2 == 1 {
			rad = inner
		}
		a := -math.Pi/2 + float64(i)*math.Pi/5
		pts[i] = [2]float64{cx + rad*math.Cos(a), cy + rad*math.Sin(a)}
	}
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if inPolygon(float64(x)+0.5, float64(y)+0.5, pts[:]) {
				img.SetRGBA(x, y, c)
			}
		}
	}
}

// inPolygon says whether (x, y) lies inside the polygon (even-odd rule).
func inPolygon(x, y float64, poly [][2]float64) bool {
	in := false
	for i, j := 0, len(poly)-1; i < len(poly); j, i = i, i+1 {
		xi, yi, xj, yj := poly[i][0], poly[i][1], poly[j][0], poly[j][1]
		if (yi > y) != (yj > y) && x < (xj-xi)*(y-yi)/(yj-yi)+xi {
			in = !in
		}
	}
	return in
}

// gifPalette is the palette of animated pictures: the colours pictures
// are drawn in, and the shades text's smoothed edges take between each
// ink and what it is written on.
var gifPalette = func() color.Palette {
	pal := color.Palette{}
	seen := map[color.RGBA]bool{}
	add := func(c color.RGBA) {
		if !seen[c] {
			seen[c] = true
			pal = append(pal, c)
		}
	}
	for _, c := range []color.RGBA{colBackground, colSquare, colTW, colDW, colTL, colDL, colQW, colQL, colDWInk, colDLInk, colSqInk,
		colTile, colTileEdge, colTileInk, colBlankInk, colLast, colInk, colMuted, colAccent, colWhite, colRow, colRowMarked} {
		add(c)
	}
	for _, pair := range [][2]color.RGBA{
		{colTileInk, colTile}, {colBlankInk, colTile}, {colWhite, colTW}, {colWhite, colTL}, {colWhite, colQW}, {colWhite, colQL},
		{colDWInk, colDW}, {colDLInk, colDL}, {colSqInk, colSquare}, {colInk, colRow}, {colInk, colRowMarked}, {colInk, colBackground},
		{colMuted, colBackground}, {colAccent, colBackground},
	} {
		for k := 1; k < 8; k++ {
			mix := func(a, b uint8) uint8 { return uint8((int(a)*k + int(b)*(8-k)) / 8) }
			f, b := pair[0], pair[1]
			add(color.RGBA{mix(f.R, b.R), mix(f.G, b.G), mix(f.B, b.B), 0xff})
		}
	}
	return pal
}()

// EncodeGIF writes ps as an animated GIF, one frame each, shown delay
// hundredths of a second (the last one last), looping. After the first
// frame each holds only the rectangle that changed, so a game of thirty
// moves takes a few hundred kilobytes. Each frame is written as it is
// drawn: the animation of a long game takes the memory of two pictures,
// not of all its frames.
func EncodeGIF(w io.Writer, ps []*Position, delay, last int) error {
	if len(ps) == 0 {
		return errors.New("boardimage: an animation of no picture")
	}
	bw := bufio.NewWriter(w)
	// The header, the logical screen with the palette (padded to a
	// power of two), and the loop for good.
	bits := 1
	for 1<<bits < len(gifPalette) {
		bits++
	}
	bw.WriteString("GIF89a")
	le16(bw, Width)
	le16(bw, Height)
	bw.Write([]byte{0x80 | byte(bits-1)<<4 | byte(bits-1), 0, 0})
	for i := 0; i < 1<<bits; i++ {
		c := color.RGBA{}
		if i < len(gifPalette) {
			c = gifPalette[i].(color.RGBA)
		}
		bw.Write([]byte{c.R, c.G, c.B})
	}
	bw.Write([]byte{0x21, 0xff, 11})
	bw.WriteString("NETSCAPE2.0")
	bw.Write([]byte{3, 1, 0, 0, 0})
	index := map[color.RGBA]uint8{}
	var prev *image.RGBA
	for i, p := range ps {
		img, err := Draw(p)
		if err != nil {
			return err
		}
		r := img.Bounds()
		if prev != nil {
			r = changed(prev, img)
		}
		pix := make([]byte, 0, r.Dx()*r.Dy())
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				c := img.RGBAAt(x, y)
				k, ok := index[c]
				if !ok {
					k = uint8(gifPalette.Index(c))
					index[c] = k
				}
				pix = append(pix, k)
			}
		}
		d := delay
		if i == len(ps)-1 {
			d = last
		}
		// The graphic control (no disposal: the next frame is laid
		// over this one; the delay), the frame's place, its pixels.
		bw.Write([]byte{0x21, 0xf9, 4, byte(gif.DisposalNone) << 2})
		le16(bw, d)
		bw.Write([]byte{0, 0, 0x2c})
		le16(bw, r.Min.X)
		le16(bw, r.Min.Y)
		le16(bw, r.Dx())
		le16(bw, r.Dy())
		lit := max(2, bits)
		bw.Write([]byte{0, byte(lit)})
		blocks := &subBlocks{w: bw}
		lw := lzw.NewWriter(blocks, lzw.LSB, lit)
		lw.Write(pix)
		lw.Close()
		blocks.close()
		prev = img
	}
	bw.WriteByte(0x3b)
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("boardimage: encode GIF: %w", err)
	}
	return nil
}

// le16 writes n as two bytes, the low one first.
func le16(w *bufio.Writer, n int) { w.Write([]byte{byte(n), byte(n >> 8)}) }

// subBlocks writes data as a GIF's sub-blocks of at most 255 bytes, each
// after its length, ended by close with an empty one.
type subBlocks struct {
	w   *bufio.Writer
	buf [255]byte
	n   int
}

func (b *subBlocks) Write(p []byte) (int, error) {
	for _, c := range p {
		b.buf[b.n] = c
		if b.n++; b.n == len(b.buf) {
			b.flush()
		}
	}
	return len(p), nil
}

func (b *subBlocks) flush() {
	if b.n > 0 {
		b.w.WriteByte(byte(b.n))
		b.w.Write(b.buf[:b.n])
		b.n = 0
	}
}

func (b *subBlocks) close() {
	b.flush()
	b.w.WriteByte(0)
}

// changed is the smallest rectangle holding every pixel that differs
// between a and b (one pixel when none does: a frame may not be empty).
func changed(a, b *image.RGBA) image.Rectangle {
	r := image.Rectangle{}
	bd := a.Bounds()
	for y := bd.Min.Y; y < bd.Max.Y; y++ {
		row := a.PixOffset(bd.Min.X, y)
		pa, pb := a.Pix[row:row+4*bd.Dx()], b.Pix[row:row+4*bd.Dx()]
		if bytes.Equal(pa, pb) {
			continue
		}
		x0, x1 := 0, bd.Dx()-1
		for x0 < bd.Dx() && bytes.Equal(pa[4*x0:4*x0+4], pb[4*x0:4*x0+4]) {
			x0++
		}
		for x1 > x0 && bytes.Equal(pa[4*x1:4*x1+4], pb[4*x1:4*x1+4]) {
			x1--
		}
		r = r.Union(image.Rect(bd.Min.X+x0, y, bd.Min.X+x1+1, y+1))
	}
	if r.Empty() {
		return image.Rect(bd.Min.X, bd.Min.Y, bd.Min.X+1, bd.Min.Y+1)
	}
	return r
}

// Icon draws the site's icon, size pixels square: a tile, the letter A
// worth 1, on the site's green. The tile keeps within the middle 56% so
// that a launcher may cut the icon to a circle or any shape holding the
// middle 80% (a "maskable" icon) and still show it whole.
func Icon(size int) (*image.RGBA, error) {
	if size < 32 || size > 1024 {
		return nil, fmt.Errorf("boardimage: an icon of %d pixels: want 32 to 1024", size)
	}
	fs, err := newFaces()
	if err != nil {
		return nil, err
	}
	defer fs.close()
	img := image.NewRGBA(image.Rect(0, 0, size, size))
	fill(img, img.Bounds(), colAccent)
	side := size * 56 / 100
	off := (size - side) / 2
	tile := image.Rect(off, off, off+side, off+side)
	fill(img, tile, colTileEdge)
	fill(img, tile.Inset(max(1, side/24)), colTile)
	lr := tile
	lr.Max.X -= side / 10
	lr.Max.Y -= side / 14
	centre(img, fs.get(true, side*66/100), "A", lr, colTileInk)
	fc := fs.get(false, max(6, side*24/100))
	w := font.MeasureString(fc, "1").Ceil()
	text(img, fc, "1", tile.Max.X-w-max(2, side/10), tile.Max.Y-max(2, side/12), colTileInk)
	return img, nil
}
