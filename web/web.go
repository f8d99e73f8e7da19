// Package web is the game's page: plain HTML, CSS and JavaScript with no
// build step and no library, embedded in the binary and served by the
// server at "/" (the lobby: a new game, open games, this browser's games)
// and "/g/{id}" (a game: to join, play, watch or review). A seat's
// personal link is "/g/{id}#seat=TOKEN"; the page keeps the token and
// sends it in the Authorization header.
package web

import (
	"embed"
	"io/fs"
)

//go:embed static
var files embed.FS

// FS returns the page's files: index.html, i18n.js (the words in every
// language), app.js, style.css and favicon.ico.
func FS() fs.FS {
	sub, err := fs.Sub(files, "static")
	if err != nil {
		panic(err) // the embedded tree always has static/
	}
	return sub
}
