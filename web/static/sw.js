// The page's service worker: it shows the push messages the server sends
// (a move to make in a game of correspondence play, such a game's end,
// an invitation, a message) as notifications in the player's language,
// opens the page a notification names when it is clicked, and keeps a
// subscription the browser renews known to the server. It caches
// nothing: the page always comes from the server.
"use strict";
importScripts("/static/i18n.js");

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (ev) => ev.waitUntil(self.clients.claim()));

function fill(s, args) { return s.replace(/\{(\d)\}/g, (_, i) => String((args || [])[+i] ?? "")); }

// seatName is a name in lang: the one the server gives a computer's
// seat ("Computer (level)") as the page shows it, any other as it is.
function seatName(lang, s) {
  const m = /^Computer \((\w+)\)$/.exec(s);
  const levels = (STRINGS[lang] || {}).levels || STRINGS.en.levels || {};
  const level = m && Object.hasOwn(levels, m[1]) && levels[m[1]];
  return level ? fill((STRINGS[lang] || {}).computerName ?? STRINGS.en.computerName, [level[0]]) : s;
}

// word is the page's word key in lang, filled with args (seats' names in
// lang), or fallback when there is no such word.
function word(lang, key, args, fallback) {
  if (!key) return fallback;
  const s = (STRINGS[lang] || {})[key] ?? STRINGS.en[key];
  return s === undefined ? fallback : fill(s, (args || []).map((a) => seatName(lang, String(a))));
}

self.addEventListener("push", (ev) => {
  let m;
  try { m = ev.data ? ev.data.json() : {}; } catch (e) { m = { body: ev.data ? ev.data.text() : "" }; }
  let lang = m.lang || (self.navigator.language || "en").slice(0, 2).toLowerCase();
  if (!STRINGS[lang]) lang = "en";
  const title = word(lang, m.title_key, m.title_args, m.title || "atril");
  const body = word(lang, m.body_key, m.body_args, m.body || "");
  ev.waitUntil(self.registration.showNotification(title, {
    body, tag: m.tag || undefined, renotify: !!m.tag, icon: "/icons/192.png",
    lang, data: { url: m.url || "/" },
  }));
});

self.addEventListener("notificationclick", (ev) => {
  ev.notification.close();
  const url = new URL((ev.notification.data && ev.notification.data.url) || "/", self.location.origin);
  if (url.origin !== self.location.origin) return;
  ev.waitUntil((async () => {
    const wins = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    for (const w of wins) {
      if (new URL(w.url).pathname === url.pathname && "focus" in w) return w.focus();
    }
    return self.clients.openWindow(url.href);
  })());
});

// A subscription the browser replaced: the new one is sent to the server
// and the old one taken off (the session's cookie says whose it is).
self.addEventListener("pushsubscriptionchange", (ev) => {
  ev.waitUntil((async () => {
    const json = { "Content-Type": "application/json" };
    const key = await (await fetch("/api/push/key")).json();
    const sub = await self.registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key.key });
    await fetch("/api/me/push", { method: "POST", headers: json, body: JSON.stringify(sub.toJSON()) });
    if (ev.oldSubscription) {
      await fetch("/api/me/push", { method: "DELETE", headers: json, body: JSON.stringify({ endpoint: ev.oldSubscription.endpoint }) });
    }
  })());
});
