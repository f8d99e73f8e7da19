// The player's settings (colours, the rack's order, sound, language),
// read before the page is drawn so that it opens in the chosen colours.
// The browser keeps them; app.js keeps them with a signed-in player's
// account too (saveSettings).
"use strict";

// SETTING_CHOICES are the values each setting may take, "" its default
// (the server checks the same list: Settings in server/settings.go).
const SETTING_CHOICES = {
  theme: ["", "light", "dark"],
  board: ["", "felt", "mono"],
  tiles: ["", "ivory", "slate"],
  rack_order: ["", "alphabet", "vowels"],
  sound: ["", "off"],
  language: ["", "en", "es", "cs"],
  coach: ["", "on"],
};

// cleanSettings keeps of s the settings that have a value they may take
// other than the default.
function cleanSettings(s) {
  const out = {};
  for (const [k, vals] of Object.entries(SETTING_CHOICES)) {
    if (s && s[k] && vals.includes(s[k])) out[k] = s[k];
  }
  return out;
}

// localSettings are the settings this browser keeps (earlier versions
// kept the sound and the language by themselves).
function localSettings() {
  let s = {};
  try { s = JSON.parse(localStorage.getItem("atril:settings") || "{}") || {}; } catch (e) { s = {}; }
  try {
    if (!s.sound && localStorage.getItem("atril:sound") === "off") s.sound = "off";
    if (!s.language && localStorage.getItem("atril:lang")) s.language = localStorage.getItem("atril:lang");
  } catch (e) { /* no storage: the defaults */ }
  return cleanSettings(s);
}

// applySettings shows the page in the theme and colours of s.
function applySettings(s) {
  const root = document.documentElement;
  for (const k of ["theme", "board", "tiles"]) {
    if (s[k]) root.dataset[k] = s[k];
    else delete root.dataset[k];
  }
}

applySettings(localSettings());
