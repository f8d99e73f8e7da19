// Package web is the game's page: plain HTML, CSS and JavaScript with no
// build step and no library, embedded in the binary and served by the
// server at "/" (create or join a game) and "/g/{id}" (a game).
package web

import (
	"embed"
	"io/fs"
)

//go:embed static
var files embed.FS

// FS returns the page's files: index.html, app.js, style.css.
func FS() fs.FS {
	sub, err := fs.Sub(files, "static")
	if err != nil {
		panic(err) // the embedded tree always has static/
	}
	return sub
}
