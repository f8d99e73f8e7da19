// The atril page: plain JavaScript, no library, no build step. The words
// it shows come from i18n.js (STRINGS, one table per language).
"use strict";

// ---------- language ----------

let LANG = "en";
// SETTINGS are the player's settings (settings.js; saveSettings keeps
// them).
let SETTINGS = localSettings();

function browserLang() {
  for (const l of navigator.languages || [navigator.language || "en"]) {
    const s = String(l).slice(0, 2).toLowerCase();
    if (STRINGS[s]) return s;
  }
  return "en";
}

// pickLang chooses the page's language: the one chosen in the header if
// any, else the game's, else the browser's.
function pickLang(gameLang) {
  const saved = SETTINGS.language;
  if (saved && STRINGS[saved]) return saved;
  if (gameLang && STRINGS[gameLang]) return gameLang;
  return browserLang();
}

function fmt(s, args) { return s.replace(/\{(\d)\}/g, (_, i) => String(args[+i])); }
function t(key, ...args) {
  const s = STRINGS[LANG][key] ?? STRINGS.en[key] ?? key;
  return fmt(s, args);
}
// gameT is a word in the game's language (premium squares, the blank).
function gameT(key) {
  const l = STRINGS[G.gameLang] ? G.gameLang : LANG;
  return STRINGS[l][key] ?? STRINGS.en[key];
}
function variantName(v) { return (STRINGS[LANG].variants || {})[v] || v.charAt(0).toUpperCase() + v.slice(1); }
function lexiconName(l) {
  return (STRINGS[LANG].lexicons || {})[l] || (INFO && INFO.lexicon_titles || {})[l] || l;
}
function levelName(l) { return ((STRINGS[LANG].levels || {})[l] || [l])[0]; }
function levelDesc(l) { return ((STRINGS[LANG].levels || {})[l] || ["", ""])[1]; }

function translatePage() {
  document.querySelectorAll("[data-t]").forEach((e) => { e.textContent = t(e.dataset.t); });
  document.querySelectorAll("[data-t-label]").forEach((e) => { e.setAttribute("aria-label", t(e.dataset.tLabel)); });
  document.documentElement.lang = LANG;
  $("#lang-select").value = LANG;
  renderAccount();
}

// ---------- helpers ----------

const $ = (sel) => document.querySelector(sel);
const el = (tag, cls, text) => {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
};

async function api(method, path, body, token) {
  const opt = { method, headers: {} };
  if (body !== undefined) { opt.body = JSON.stringify(body); opt.headers["Content-Type"] = "application/json"; }
  if (token) opt.headers["Authorization"] = "Bearer " + token;
  const r = await fetch(path, opt);
  let data = null;
  try { data = await r.json(); } catch (e) { data = null; }
  if (!r.ok) { const err = new Error((data && data.error) || r.statusText); err.status = r.status; throw err; }
  return data;
}

// units splits a word as the server writes it into tiles: a multi-letter
// tile is in brackets ("[LL]aGAN" is LL, a, G, A, N).
function units(word) {
  const out = [];
  for (let i = 0; i < word.length;) {
    if (word[i] === "[") {
      const j = word.indexOf("]", i);
      if (j < 0) { out.push(word.slice(i + 1)); break; }
      out.push(word.slice(i + 1, j));
      i = j + 1;
    } else {
      const ch = String.fromCodePoint(word.codePointAt(i));
      out.push(ch);
      i += ch.length;
    }
  }
  return out;
}
// plainMove is a move as plain text, without brackets.
function plainMove(n) { return (n || "").replace(/[[\]]/g, ""); }
// wordNode shows tiles as text; a multi-letter tile is one marked unit.
function wordNode(tiles) {
  const s = el("span", "word");
  for (const u of tiles) {
    if ([...u].length > 1) s.append(el("span", "mt", u));
    else s.append(document.createTextNode(u));
  }
  return s;
}
// moveNode shows a move in notation ("8H WORD", "-ABC", "-") with its
// multi-letter tiles as single units and no brackets.
function moveNode(notation) {
  // Its text reads as the move (a multi-letter tile is its letters).
  const s = el("span", "mv");
  if (!notation || notation === "-") { s.textContent = "–"; return s; }
  if (notation[0] === "-") { s.append("−", wordNode(units(notation.slice(1)))); return s; }
  const sp = notation.indexOf(" ");
  s.append(el("span", "pos", notation.slice(0, sp)), " ", wordNode(units(notation.slice(sp + 1))));
  return s;
}
// sayNodes sets the message line from text with {n} holes filled by nodes.
function msgNodes(template, ...parts) {
  const out = [];
  template.split(/(\{\d\})/).forEach((piece) => {
    const m = piece.match(/^\{(\d)\}$/);
    if (m) { const p = parts[+m[1]]; out.push(p instanceof Node ? p : document.createTextNode(String(p))); }
    else if (piece) out.push(document.createTextNode(piece));
  });
  return out;
}
function say(content, kind) {
  // (The join page has its own line: the lobby's is hidden there.)
  const m = !$("#join").hidden ? $("#join-msg") : $("#game").hidden ? $("#lobby-msg") : $("#message");
  m.textContent = "";
  if (Array.isArray(content)) m.append(...content); else m.textContent = content;
  m.className = kind || "";
}
// REASONS recognise the server's reasons for refusing a move, so that the
// page can say them in its language (i18n.js, "reasons").
const REASONS = [
  [/^(\S+) \(formed at (\w+)\) is not a word$/, "formedNotWord"],
  [/^(\S+) is not a word$/, "notWord"],
  [/^the first move must cover the start square (\w+)$/, "coverStart"],
  [/^the first move must form a word of at least two letters$/, "twoLetters"],
  [/^not connected to the tiles on the board$/, "notConnected"],
  [/^the tiles must lie in one row or one column$/, "oneLine"],
  [/^the tiles must form one word without gaps$/, "gaps"],
  [/^forms no word of two or more letters$/, "noWord"],
  [/^it is seat \d+'s turn, not yours$/, "notYourTurn"],
];
function localReason(text) {
  const table = STRINGS[LANG].reasons || {};
  const m = /^(\d+[A-Z]|[A-Z]\d+): (.*)$/.exec(text);
  const body = m ? m[2] : text;
  for (const [re, key] of REASONS) {
    const x = re.exec(body);
    if (x && table[key]) return (m ? m[1] + ": " : "") + fmt(table[key], x.slice(1));
  }
  return text;
}

function colName(c) { return String.fromCharCode(65 + c); }
function sqName(r, c) { return colName(c) + (r + 1); }

// ask shows a question in a dialog of the page and resolves to true for OK.
function ask(text, okLabel) {
  const d = $("#ask-dialog");
  $("#ask-text").textContent = text;
  $("#ask-ok").textContent = okLabel || t("ok");
  $("#ask-cancel").textContent = t("cancel");
  return new Promise((resolve) => {
    // A close event of the question before may still be on its way
    // when this one opens: only a close that leaves it shut answers.
    const done = () => {
      if (d.open) return;
      d.removeEventListener("close", done);
      resolve(d.returnValue === "ok");
    };
    d.addEventListener("close", done);
    d.returnValue = "";
    d.showModal();
    $("#ask-cancel").focus();
  });
}

// ---------- the seats this browser holds ----------

function tokenFor(id) { return localStorage.getItem("atril:token:" + id) || ""; }
function myGames() {
  let list = [];
  try { list = JSON.parse(localStorage.getItem("atril:mine") || "[]"); } catch (e) { list = []; }
  const ids = new Set(list.map((x) => x.id));
  for (let i = 0; i < localStorage.length; i++) {
    const k = localStorage.key(i);
    if (k && k.startsWith("atril:token:") && !ids.has(k.slice(12))) list.push({ id: k.slice(12), at: 0 });
  }
  return list.filter((x) => tokenFor(x.id));
}
function rememberSeat(id, token) {
  localStorage.setItem("atril:token:" + id, token);
  const list = myGames().filter((x) => x.id !== id);
  list.unshift({ id, at: Date.now() });
  localStorage.setItem("atril:mine", JSON.stringify(list.slice(0, 200)));
}
function forgetSeat(id) {
  localStorage.removeItem("atril:token:" + id);
  localStorage.setItem("atril:mine", JSON.stringify(myGames().filter((x) => x.id !== id)));
}
function resumeURL(id, token) { return location.origin + "/g/" + id + "#seat=" + token; }

// accountSeats are the seats of a game held by the signed-in account
// (a seat so held shows the account's name, and names are unique).
function accountSeats(st) {
  if (!ME.signed_in || !st || !st.seats) return [];
  return st.seats.map((s, i) => (s.taken && s.account && s.name === ME.name ? i : -1)).filter((i) => i >= 0);
}

// claimSeat asks the server for a token of this device's own for the
// account's seat of a game (the one on turn, when it holds several),
// and keeps it as a join does.
async function claimSeat(st) {
  const mine = accountSeats(st);
  const seat = mine.includes(st.turn) ? st.turn : mine[0];
  G.claimed = true;
  const j = await api("POST", "/api/games/" + st.id + "/seat", { seat });
  rememberSeat(st.id, j.token);
  G.token = j.token;
  return j;
}

// seatKeyText says why the account's seat could not be opened here.
function seatKeyText() { return t("seatKeyFailed", accountReason(G.seatError ? G.seatError.message : "")); }

// displayName localises the names the server gives seats that were
// given none: "Computer (level)" and "Player N".
function displayName(s) {
  const m = s.kind === "computer" && /^Computer \((\w+)\)$/.exec(s.name);
  if (m) return t("computerName", levelName(m[1]));
  const p = s.kind !== "computer" && /^Player (\d)$/.exec(s.name);
  return p ? t("playerName", p[1]) : s.name;
}

// seatLabel is a seat's name with its rating, when it has one: "Ana (1512)".
function seatLabel(s) { return displayName(s) + (s.rating ? " (" + ratingText(s) + ")" : ""); }

// ratingText is a rating with "?" after it while it is provisional (too
// few games yet to say much: the server's provisional flag).
function ratingText(r) { return r.rating + (r.provisional ? "?" : ""); }

// ratingCell is a table cell with a rating, explained on hover when it
// is provisional.
function ratingCell(r, text) {
  const td = el("td", "n", text);
  if (r.provisional) td.title = t("provisionalTitle");
  return td;
}

// signedNumber writes a change with its sign: +12, −12 (a real minus), ±0.
function signedNumber(d) { return d > 0 ? "+" + d : d < 0 ? "−" + -d : "±0"; }

// accountMark is the small mark of a seat held by a signed-in account.
function accountMark() {
  const m = el("span", "acct", "✓");
  m.setAttribute("role", "img");
  m.setAttribute("aria-label", t("accountMark"));
  m.title = t("accountMark");
  return m;
}

async function copyText(text, input) {
  try { await navigator.clipboard.writeText(text); return true; }
  catch (e) { if (input) { input.focus(); input.select(); } return false; }
}

// ---------- accounts ----------

// ME is the browser's account as GET /api/me gives it: the session is a
// cookie the browser sends with every request.
let ME = { signed_in: false };

async function loadMe() {
  try { ME = await api("GET", "/api/me"); } catch (e) { ME = { signed_in: false }; }
  adoptAccountSettings();
  renderAccount();
}

function profileURL(name) { return "/p/" + encodeURIComponent(name); }

// renderAccount shows in the header the Sign in button, or the account's
// name (its profile's link) and the Sign out button.
function renderAccount() {
  const on = !!ME.signed_in;
  $("#signin-open").hidden = on;
  $("#me-link").hidden = !on;
  $("#signout").hidden = !on;
  if (on) {
    $("#me-link").textContent = ME.name;
    $("#me-link").href = profileURL(ME.name);
    $("#me-link").title = t("myProfile");
  }
  // Messages, with how many are unread.
  const unread = on ? ME.unread_messages || 0 : 0;
  $("#messages-link").hidden = !on;
  // (A narrow header shows an envelope and the count instead of the word.)
  $("#messages-link").textContent = "";
  $("#messages-link").append(el("span", "envelope", "✉" + (unread ? " " + unread : "")), el("span", "label", unread ? t("messagesLinkUnread", unread) : t("messagesLink")));
  $("#messages-link").querySelector(".envelope").setAttribute("aria-hidden", "true");
  $("#messages-link").classList.toggle("unread", unread > 0);
}

// ACCOUNT_REASONS recognise the server's answers about accounts, so that
// the page says them in its language.
const ACCOUNT_REASONS = [
  [/^wrong name or password$/, "errLogin"],
  [/^the name (.*) is taken$/, "errTaken"],
  [/^a password has (\d+) to (\d+) characters$/, "errPassword"],
  [/^a name has (\d+) to (\d+) characters$/, "errNameLength"],
  [/^a name holds letters, digits, '_', '-' and '\.' only, not (.*)$/, "errNameChars"],
  [/^a name begins and ends with a letter or digit$/, "errNameEnds"],
  [/^a person's name may not look like a computer seat's$/, "errComputerName"],
  [/^too many failed sign-ins to this account(?: from your address)?; try again in (\d+) s$/, "errAccountLocked"],
  [/^too many .* try again in (\d+) s$/, "errTooMany"],
  [/^at most (\d+) analyses a minute$/, "errAnalyses"],
  [/^the current password is wrong$/, "errWrongPassword"],
  [/^wrong name or recovery code$/, "errRecover"],
  [/^sign in to take a seat in a rated game$/, "errRatedJoin"],
  [/^sign in to create a rated game$/, "errRatedCreate"],
  [/^your account holds seat \d+ of this rated game already$/, "errHoldsSeat"],
  [/^seat \d+ is for players rated (\d+) to (\d+) in this word list and pace, and yours is (\d+)$/, "errRangeBoth"],
  [/^seat \d+ is for players rated (\d+) or more in this word list and pace, and yours is (\d+)$/, "errRangeMin"],
  [/^seat \d+ is for players rated up to (\d+) in this word list and pace, and yours is (\d+)$/, "errRangeMax"],
  [/^your account holds no seat of this game$/, "errNoSeat"],
  [/^seat (\d+) is open on (\d+) devices already$/, "errSeatDevices"],
  [/^sign in to open your seat on this device$/, "errSeatSignIn"],
  [/^you have (\d+) unfinished games \((.*)\): finish or resign them first$/, "errCloseGames"],
  [/^you are in (\d+) tournaments not over \((.*)\): withdraw from them, or cancel those you direct, first$/, "errCloseTourneys"],
];
function accountReason(text) {
  for (const [re, key] of ACCOUNT_REASONS) {
    const x = re.exec(text);
    if (x) return t(key, ...x.slice(1));
  }
  return text;
}

function openSignIn() {
  $("#signin-error").textContent = "";
  $("#signin-password").value = "";
  $("#signin-dialog").showModal();
  $("#signin-name").focus();
}

// submitSignIn signs in, or makes the account (the "Create account"
// button), and shows the server's refusal in the dialog.
async function submitSignIn(ev) {
  ev.preventDefault();
  const create = !!ev.submitter && ev.submitter.id === "signup-go";
  const name = $("#signin-name").value.trim(), password = $("#signin-password").value;
  const err = $("#signin-error");
  err.textContent = "";
  if (!name || !password) { err.textContent = t("fieldsEmpty"); return; }
  const buttons = document.querySelectorAll("#signin-form button");
  buttons.forEach((b) => { b.disabled = true; });
  try {
    ME = await api("POST", create ? "/api/accounts" : "/api/login", { name, password });
    $("#signin-dialog").close();
    $("#signin-password").value = "";
    accountChanged();
    const join = !$("#join").hidden && !$("#join-form").hidden;
    (join ? $("#join-button") : $("#me-link")).focus();
  } catch (e) {
    err.textContent = accountReason(e.message);
  }
  buttons.forEach((b) => { b.disabled = false; });
}

async function signOut() {
  // This device's push messages stop with its session.
  await pushOff(true);
  try { await api("POST", "/api/logout"); } catch (e) { say(t("error", e.message), "error"); return; }
  ME = { signed_in: false };
  accountChanged();
  $("#signin-open").focus();
}

// signOutAll ends every session of the account, on every device.
async function signOutAll() {
  if (!await ask(t("signOutAllAsk"), t("signOutAll"))) return;
  const msg = $("#profile-msg");
  let out;
  try { out = await api("POST", "/api/logout?everywhere=1"); } catch (e) {
    msg.textContent = accountReason(e.message);
    msg.className = "error";
    return;
  }
  ME = { signed_in: false };
  // The server forgot every browser's push subscription: this one's
  // ends too.
  await pushOff(true);
  accountChanged();
  msg.textContent = t("signedOutAll", out.sessions_ended);
  msg.className = "";
  $("#signin-open").focus();
}

// changePassword sends the current and the new password; the server ends
// the account's other sessions.
async function changePassword(ev) {
  ev.preventDefault();
  const msg = $("#password-msg");
  const cur = $("#password-current").value, pw = $("#password-new").value;
  msg.className = "error";
  if (!cur || !pw) { msg.textContent = t("passwordsEmpty"); return; }
  $("#password-go").disabled = true;
  try {
    ME = await api("POST", "/api/me/password", { password: cur, new: pw });
    $("#password-current").value = "";
    $("#password-new").value = "";
    msg.textContent = t("passwordChanged");
    msg.className = "";
    // The server forgot every browser's push subscription: this one's
    // is given again.
    const sub = await pushSubscription().catch(() => null);
    if (sub) await api("POST", "/api/me/push", sub.toJSON()).catch(() => {});
  } catch (e) {
    msg.textContent = accountReason(e.message);
  }
  $("#password-go").disabled = false;
}

// countryName is a country's name in the page's language (its code
// where the browser knows no name; "" for none).
function countryName(code) {
  if (!code) return "";
  try { return new Intl.DisplayNames([LANG], { type: "region" }).of(code) || code; } catch (e) { return code; }
}

// fillBioForm fills one's own page's bio form: the countries by name in
// the page's language, and what the page shows now.
function fillBioForm() {
  const sel = $("#bio-country");
  sel.textContent = "";
  sel.append(new Option(t("bioNoCountry"), ""));
  const codes = (INFO && INFO.countries) || [];
  const named = codes.map((c) => [countryName(c), c]).sort((a, b) => a[0].localeCompare(b[0], LANG));
  for (const [name, c] of named) sel.append(new Option(name, c));
  sel.value = PROFILE.country || "";
  $("#bio-about").value = PROFILE.about || "";
}

// saveBio writes the signed-in player's bio and shows it on the page.
async function saveBio(ev) {
  ev.preventDefault();
  const msg = $("#bio-msg");
  $("#bio-go").disabled = true;
  try {
    const b = await api("PUT", "/api/me/bio", { about: $("#bio-about").value, country: $("#bio-country").value });
    PROFILE.about = b.about;
    PROFILE.country = b.country;
    renderBio();
    $("#bio-about").value = b.about;
    msg.textContent = t("bioSaved");
    msg.className = "";
  } catch (e) {
    msg.textContent = t("error", e.message);
    msg.className = "error";
  }
  $("#bio-go").disabled = false;
}

// renderBio shows what the player says about themselves.
function renderBio() {
  const P = PROFILE;
  $("#profile-about").textContent = P.about || "";
  $("#profile-about").hidden = !P.about;
  $("#profile-country").textContent = countryName(P.country);
  $("#profile-country").hidden = !P.country;
}

// closeAccount closes the signed-in player's account, once asked and with
// its password, and goes back to the lobby signed out.
async function closeAccount(ev) {
  ev.preventDefault();
  const msg = $("#close-msg");
  msg.className = "error";
  const password = $("#close-password").value;
  if (!password) { msg.textContent = t("closeNeedPassword"); return; }
  if (!await ask(t("closeAsk", ME.name), t("closeGo"))) return;
  $("#close-go").disabled = true;
  try {
    await api("POST", "/api/me/close", { password });
    location.href = "/";
    return;
  } catch (e) {
    msg.textContent = accountReason(e.message);
  }
  $("#close-go").disabled = false;
}

// accountChanged redraws what depends on the account: the header, the
// new game's form, the join form.
function accountChanged() {
  adoptAccountSettings();
  renderAccount();
  if (!$("#study").hidden) { renderCardbox(); syncCardbox($("#study-lexicon").value); }
  if (INFO) { renderPlayAs(); describeRated(); fillQuick(); loadMine(); loadTourneys(); puzzleLink(); if (!$("#lobby").hidden) loadOpen(); }
  if (JOINING) renderJoinForm(JOINING);
  if (TOURNEY) loadTourney();
  if (PROFILE) renderProfileAccount();
  if (location.pathname === "/rush") renderRushSignIn();
  if (MSGS) renderMessagesAccount();
  // A puzzle's page shows the account's own answer: ask for it again.
  if (G.puzzle) {
    G.puzzle.first = null;
    if (ME.signed_in && G.puzzle.kind !== "practice") {
      api("GET", puzzlePath()).then((P) => {
        Object.assign(G.puzzle, { first: P.answered || null, rating: P.rating || null, level: P.level || null });
        renderPuzzleSide();
      }, () => {});
    }
    renderPuzzleSide();
    return;
  }
  // Signed in on a game's page that holds no seat here: the account's
  // seat, if it holds one, opens on this device.
  const st = G.st || JOINING;
  if (st && !G.token && accountSeats(st).length) {
    claimSeat(st).then(() => location.reload(), (e) => {
      G.seatError = e;
      if (G.st) render(G.st);
      say(seatKeyText(), "error");
    });
  }
}

function wireAccount() {
  $("#signin-open").addEventListener("click", openSignIn);
  $("#join-signin").addEventListener("click", openSignIn);
  $("#signout").addEventListener("click", signOut);
  $("#signout-all").addEventListener("click", signOutAll);
  $("#block-btn").addEventListener("click", () => setBlock(PROFILE.name, !isBlocked(PROFILE.name)));
  $("#follow-btn").addEventListener("click", () => setFollow(PROFILE.name, !isFollowed(PROFILE.name)));
  $("#report-form").addEventListener("submit", sendReport);
  $("#password-form").addEventListener("submit", changePassword);
  $("#bio-form").addEventListener("submit", saveBio);
  $("#close-form").addEventListener("submit", closeAccount);
  $("#signin-form").addEventListener("submit", submitSignIn);
  $("#passkey-go").addEventListener("click", passkeySignIn);
  $("#recover-go").addEventListener("click", recoverAccount);
  $("#recovery-form").addEventListener("submit", makeRecoveryCodes);
  $("#passkey-add").addEventListener("click", addPasskey);
  $("#passkey-signin").hidden = !passkeysSupported();
  $("#signin-cancel").addEventListener("click", () => $("#signin-dialog").close());
}

// ---------- lobby ----------

let INFO = null;

async function showLobby() {
  LANG = pickLang(null);
  translatePage();
  document.title = "atril";
  $("#lobby").hidden = false;
  $("#name").value = localStorage.getItem("atril:name") || "";
  INFO = await api("GET", "/api/info");
  fillCreateForm();
  fillQuick();
  // "/?invite=NAME" (a player's page's Invite) opens the form inviting them.
  const invite = new URLSearchParams(location.search).get("invite");
  if (invite && ME.signed_in) inviteInForm(invite);
  $("#variant").addEventListener("change", () => { fillLexicons(); });
  $("#opponent").addEventListener("change", describeOpponent);
  $("#clock").addEventListener("change", () => { describeClock(); describeRated(); });
  $("#challenge").addEventListener("change", describeChallenge);
  $("#rated").addEventListener("change", describeRated);
  $("#create-form").addEventListener("submit", createGame);
  $("#tourney-form").addEventListener("submit", createTourney);
  $("#tourney-format").addEventListener("change", tourneyFormat);
  fillJudge();
  $("#judge-form").addEventListener("submit", judgeWords);
  $("#lobby-chat-form").addEventListener("submit", sendLobbyChat);
  $("#follows-notify").addEventListener("click", toggleNotify);
  fillImport();
  $("#import-form").addEventListener("submit", importGame);
  $("#import-file").addEventListener("change", async () => {
    const f = $("#import-file").files[0];
    if (f) $("#import-text").value = await f.text();
  });
  fillLeadersLexicons();
  fillPuzzleCard();
  $("#puzzle-lexicon").addEventListener("change", () => { localStorage.setItem("atril:puzzle", $("#puzzle-lexicon").value); puzzleLink(); });
  $("#puzzle-level-lobby").addEventListener("click", () => puzzleAtLevel($("#puzzle-lexicon").value));
  $("#endgame-level-lobby").addEventListener("click", () => puzzleAtLevel($("#puzzle-lexicon").value, "endgame"));
  $("#leaders-kind").value = ["puzzles", "endgames"].find((k) => k === localStorage.getItem("atril:leaders-kind")) || "games";
  $("#leaders-kind").addEventListener("change", () => {
    localStorage.setItem("atril:leaders-kind", $("#leaders-kind").value);
    loadLeaders();
  });
  $("#leaders-lexicon").addEventListener("change", () => {
    localStorage.setItem("atril:leaders", $("#leaders-lexicon").value);
    loadLeaders();
  });
  $("#find-form").addEventListener("submit", (ev) => { ev.preventDefault(); clearTimeout(FIND_TIMER); findPlayers(); });
  $("#find-name").addEventListener("input", () => { clearTimeout(FIND_TIMER); FIND_TIMER = setTimeout(findPlayers, 250); });
  $("#quick-rated").addEventListener("change", () => {
    localStorage.setItem("atril:quick-rated", $("#quick-rated").checked ? "1" : "");
    showQuick();
  });
  $("#leaders-pace").addEventListener("change", () => {
    localStorage.setItem("atril:leaders-pace", $("#leaders-pace").value);
    loadLeaders();
  });
  loadOpen();
  loadMine();
  loadLeaders();
  loadTourneys();
  setInterval(() => { if (!document.hidden) { loadOpen(); loadTourneys(); } }, 10000);
  // My games, less often: the games of correspondence play whose turn
  // came while the lobby stayed open.
  setInterval(() => { if (!document.hidden) loadMine(); }, 30000);
  listenLobby(0, () => { if (!document.hidden) { loadOpen(); loadTourneys(); } });
}

// socketURL is the address of this server's WebSocket at path (wss: on
// a page served over https).
function socketURL(path) {
  return (location.protocol === "https:" ? "wss:" : "ws:") + "//" + location.host + path;
}

// LOBBY_WS is the lobby's WebSocket while the lobby is open.
let LOBBY_WS = null;

// listenLobby follows the lobby's WebSocket: each message says the
// lobby changed (a game offered or begun, a chat line, a player come, a
// tournament's registrations, rounds or results), and changed reads
// what the page shows of it at once rather than at its next reading. A
// socket that closes is opened again later, waiting longer after each
// failure in a row; meanwhile the regular readings go on.
function listenLobby(fails, changed) {
  const ws = new WebSocket(socketURL("/api/lobby/ws"));
  LOBBY_WS = ws;
  ws.onopen = () => { fails = 0; };
  ws.onmessage = changed;
  ws.onclose = () => {
    if (LOBBY_WS !== ws) return;
    LOBBY_WS = null;
    setTimeout(() => listenLobby(fails + 1, changed), Math.min(60000, 1000 * 2 ** Math.min(fails, 6)));
  };
}

function fillCreateForm() {
  const vs = $("#variant");
  const keep = vs.value;
  vs.textContent = "";
  const names = INFO.variants.map((v) => v.name);
  for (const v of INFO.variants) {
    const o = el("option", "", variantName(v.name));
    o.value = v.name;
    vs.append(o);
  }
  const byLang = { en: "english", es: "spanish", cs: "czech" }[browserLang()];
  const saved = localStorage.getItem("atril:variant");
  vs.value = [keep, saved, byLang, "english", names[0]].find((n) => n && names.includes(n));
  fillLexicons();
  const os = $("#opponent");
  const keepOpp = os.value;
  os.textContent = "";
  const order = ["amateur", "adept", "experienced", "professional", "inhuman", "godlike", "simulation"];
  const levels = INFO.levels.slice().sort((a, b) => (order.indexOf(a) + 1 || 99) - (order.indexOf(b) + 1 || 99) || a.localeCompare(b));
  for (const l of levels) {
    const o = el("option", "", t("computerOpt", levelName(l)));
    o.value = "computer:" + l;
    os.append(o);
  }
  for (const k of ["friend", "invite", "anyone"]) {
    const o = el("option", "", t(k));
    o.value = k;
    os.append(o);
  }
  const values = [...os.options].map((o) => o.value);
  os.value = [keepOpp, localStorage.getItem("atril:opponent"), "computer:professional", values[0]].find((v) => v && values.includes(v));
  describeOpponent();
  const cs = $("#clock");
  const keepClock = cs.value;
  cs.textContent = "";
  for (const m of CLOCK_MINUTES) {
    const o = el("option", "", m ? t("clockMinutes", m) : t("noClock"));
    o.value = String(m * 60);
    cs.append(o);
  }
  for (const [m, inc] of CLOCK_INCREMENTS) {
    const o = el("option", "", t("clockMinutesInc", m, inc));
    o.value = m * 60 + "+" + inc;
    cs.append(o);
  }
  for (const d of PER_MOVE_DAYS) {
    const o = el("option", "", t("perMove" + d));
    o.value = "d" + d;
    cs.append(o);
  }
  const secs = [...cs.options].map((o) => o.value);
  cs.value = [keepClock, localStorage.getItem("atril:clock"), "0"].find((v) => v && secs.includes(v));
  describeClock();
  const rs = $("#challenge");
  const keepRule = rs.value;
  rs.textContent = "";
  for (const r of CHALLENGE_RULES) {
    const o = el("option", "", t("challenge_" + r));
    o.value = r;
    rs.append(o);
  }
  rs.value = [keepRule, localStorage.getItem("atril:challenge"), "void"].find((v) => v && CHALLENGE_RULES.includes(v));
  describeChallenge();
  renderPlayAs();
  describeRated();
}

// renderPlayAs shows the account's name instead of the name field when
// the browser is signed in (a seat it takes has the account's name).
function renderPlayAs() {
  const on = !!ME.signed_in;
  $("#name-label").hidden = on;
  $("#name").hidden = on;
  $("#play-as").hidden = !on;
  if (on) $("#play-as").textContent = t("playAs", ME.name);
}

// ratedAllowed tells whether the new game may be rated: signed in
// (against a person or the computer).
function ratedAllowed() { return !!ME.signed_in; }

// computerLevel is the level of the computer opponent chosen ("" for a
// person).
function computerLevel() {
  const opp = $("#opponent").value;
  return opp.startsWith("computer:") ? opp.slice(9) : "";
}

function describeRated() {
  const box = $("#rated");
  const ok = ratedAllowed();
  box.disabled = !ok;
  if (!ok) box.checked = false;
  const level = computerLevel();
  const why = !ME.signed_in ? t("ratedSignIn") : "";
  $("#range-box").hidden = !(ok && box.checked && !level && $("#opponent").value !== "invite");
  ratedClock();
  let pace = "";
  if (ok && box.checked) {
    pace = level ? t("ratedComputer", levelName(level), (INFO.level_ratings || {})[level] || "?")
      : t("ratedPaceIs", paceName(clockPace(clockRequest($("#clock").value))));
  }
  $("#rated-desc").textContent = [t("ratedDesc"), why, pace].filter((x) => x).join(" ");
}

// clockPace is the pace of rated play of a clock request (null: none),
// by the server's bounds (INFO.paces).
function clockPace(c) {
  if (!c) return "regular";
  if (c.per_move) return "correspondence";
  const secs = c.seconds + (INFO.pace_moves || 0) * (c.increment || 0);
  const b = (INFO.paces || []).find((p) => p.under_seconds && secs < p.under_seconds);
  return b ? b.name : "regular";
}

// rangeText writes a free seat's rating range (none: "").
function rangeText(s) {
  if (!s.rating_min && !s.rating_max) return "";
  if (!s.rating_max) return t("rangeMin", s.rating_min);
  if (!s.rating_min) return t("rangeMax", s.rating_max);
  return t("rangeBoth", s.rating_min, s.rating_max);
}

// ratedClock keeps a rated game timed (the server refuses one without a
// clock, which a losing player could leave to expire): ticking Rated
// picks 25 minutes when no clock was chosen, and "no clock" is not
// offered meanwhile.
function ratedClock() {
  const on = $("#rated").checked && !$("#rated").disabled;
  const cs = $("#clock"), none = cs.querySelector('option[value="0"]');
  if (none) none.disabled = on;
  if (on && cs.value === "0") {
    cs.value = String(CLOCK_MINUTES[CLOCK_MINUTES.length - 1] * 60);
    describeClock();
  }
}

// The challenge rules offered: void (every word checked as played) and
// those of club and tournament play.
const CHALLENGE_RULES = ["void", "double", "single", "5pt", "10pt"];

function describeChallenge() {
  const r = $("#challenge").value;
  $("#challenge-desc").textContent = r === "void" ? t("challengeVoidDesc") : t("challengeDesc") + " " + t("challengeWhy_" + r);
}

// The clocks offered: minutes for each person's moves (0: none), with
// CLOCK_OVERTIME seconds of overtime at 10 points a minute; and for
// correspondence play, days for each move (options "d1", "d3", ...).
const CLOCK_MINUTES = [0, 5, 10, 15, 25];
// Faster games with an increment: [minutes, seconds gained a move]
// (options "180+2", ...).
const CLOCK_INCREMENTS = [[3, 2], [10, 5]];
const CLOCK_OVERTIME = 60;
const PER_MOVE_DAYS = [1, 3, 7];

// clockRequest is the clock a choice of the lobby's list asks for (null:
// none).
function clockRequest(v) {
  if (v.startsWith("d")) return { per_move: Number(v.slice(1)) * 86400 };
  const [s, inc] = v.split("+");
  const seconds = Number(s) || 0;
  if (seconds <= 0) return null;
  const c = { seconds, overtime: CLOCK_OVERTIME };
  if (Number(inc) > 0) c.increment = Number(inc);
  return c;
}

// clockShort names a clock in a few characters: "10 min", "3 min + 2 s",
// "3 days a move".
function clockShort(c) {
  if (c.per_move) return perMoveText(c.per_move);
  const m = Math.round(c.seconds / 60);
  return c.increment ? t("clockOpenInc", m, c.increment) : t("clockOpen", m);
}

function describeClock() {
  const v = $("#clock").value;
  $("#clock-desc").textContent = v === "0" ? t("noClockDesc") : v.startsWith("d") ? t("perMoveDesc") : v.includes("+") ? t("clockIncDesc", v.split("+")[1]) : t("clockDesc");
}

// perMoveText names a time for each move, in seconds: "3 days a move".
function perMoveText(secs) {
  const d = secs / 86400;
  return PER_MOVE_DAYS.includes(d) ? t("perMove" + d) : t("perMoveAny", clockText(secs * 1000));
}

function fillLexicons() {
  const v = INFO.variants.find((x) => x.name === $("#variant").value) || INFO.variants[0];
  const ls = $("#lexicon");
  ls.textContent = "";
  for (const l of v.lexicons || [v.default_lexicon]) {
    const o = el("option", "", lexiconName(l));
    o.value = l;
    ls.append(o);
  }
  const saved = localStorage.getItem("atril:lexicon:" + v.name);
  ls.value = [...ls.options].some((o) => o.value === saved) ? saved : v.default_lexicon;
}

// ---------- the word judge ----------

// lexiconOptions adds an option for every word list offered to a select,
// and returns their names.
function lexiconOptions(sel) {
  const seen = new Set();
  for (const v of INFO.variants) {
    for (const l of v.lexicons || [v.default_lexicon]) {
      if (seen.has(l)) continue;
      seen.add(l);
      const o = el("option", "", lexiconName(l));
      o.value = l;
      sel.append(o);
    }
  }
  return seen;
}

// fillJudge lists every word list offered, the new game's first.
function fillJudge() {
  const js = $("#judge-lexicon");
  chooseLexicon(js, [js.value, localStorage.getItem("atril:judge"), $("#lexicon").value]);
}

// chooseLexicon lists every word list in sel and chooses the first of
// prefs that is offered, else the first offered.
function chooseLexicon(sel, prefs) {
  sel.textContent = "";
  const names = [...lexiconOptions(sel)];
  sel.value = [...prefs, names[0]].find((n) => n && names.includes(n));
}

// lengthOptions lists the word lengths 2 to 15 in sel after any options
// given (first), keeping its choice (or def).
function lengthOptions(sel, def, first) {
  const was = sel.value || def;
  sel.textContent = "";
  if (first) sel.append(first);
  for (let n = 2; n <= 15; n++) {
    const o = el("option", "", String(n));
    o.value = String(n);
    sel.append(o);
  }
  sel.value = was;
}

// judgeWords asks the server whether the words typed (separated by
// spaces or commas) are in the chosen list, and shows each answer.
async function judgeWords(ev) {
  ev.preventDefault();
  const out = $("#judge-out");
  const words = $("#judge-words").value.split(/[\s,;]+/).filter((w) => w);
  if (!words.length) return;
  const lexicon = $("#judge-lexicon").value;
  localStorage.setItem("atril:judge", lexicon);
  const q = new URLSearchParams({ lexicon });
  for (const w of words.slice(0, 20)) q.append("w", w);
  out.textContent = "";
  try {
    JUDGED = await api("GET", "/api/words?" + q.toString());
    showJudged();
  } catch (e) {
    JUDGED = null;
    out.append(el("li", "invalid", t("error", e.message)));
  }
}

// ---------- the word finder ----------

// showFinder opens the word finder (/words) on the question in the
// address, if any, and asks it.
async function showFinder() {
  $("#finder").hidden = false;
  document.title = t("finderTitle") + " · atril";
  try { INFO = INFO || await api("GET", "/api/info"); } catch (e) { /* no word lists */ }
  const q = new URLSearchParams(location.search);
  fillFinder(q.get("lexicon"));
  $("#finder-letters").value = q.get("letters") || "";
  $("#finder-pattern").value = q.get("pattern") || "";
  $("#finder-all").checked = q.get("all") === "1";
  $("#finder-min").value = q.get("min") || "0";
  $("#finder-max").value = q.get("max") || "0";
  $("#finder-form").addEventListener("submit", (ev) => { ev.preventDefault(); findWords(true); });
  $("#leaves-form").addEventListener("submit", (ev) => { ev.preventDefault(); valueLeave(); });
  if (q.get("letters") || q.get("pattern")) findWords(false);
}

// LEAVES is the leave tool's last answer (GET /api/leaves), shown again
// in another language.
let LEAVES = null;

// valueLeave asks what the computer's leave table says of the tiles typed
// (in the finder's word list).
async function valueLeave() {
  const msg = $("#leaves-msg");
  msg.textContent = "";
  msg.className = "";
  const rack = $("#leaves-rack").value.trim();
  if (!rack) { msg.textContent = t("leavesNeed"); $("#leaves-rack").focus(); return; }
  $("#leaves-go").disabled = true;
  try {
    LEAVES = await api("GET", "/api/leaves?" + new URLSearchParams({ lexicon: $("#finder-lexicon").value, rack, top: "5" }));
  } catch (e) {
    LEAVES = null;
    msg.textContent = t("error", localReason(e.message));
    msg.className = "error";
  }
  showLeaves();
  $("#leaves-go").disabled = false;
}

function showLeaves() {
  const out = $("#leaves-out");
  out.textContent = "";
  const L = LEAVES;
  if (!L) return;
  const pts = (x) => (x >= 0 ? "+" : "") + x.toFixed(2);
  const list = (vs) => {
    const span = el("span");
    vs.forEach((x, i) => { if (i) span.append(", "); span.append(wordNode(units(x.leave)), " " + pts(x.value)); });
    return span;
  };
  const head = el("p");
  head.append(wordNode(units(L.rack)), " ", L.value != null ? t("leavesValue", pts(L.value)) : t("leavesWhole"));
  out.append(head);
  if (!L.best.length) return;
  for (const [key, vs] of [["leavesBest", L.best], ["leavesWorst", L.worst]]) {
    const p = el("p");
    p.append(t(key), " ", list(vs));
    out.append(p);
  }
  const kept = el("p");
  kept.append(t("leavesByKept"), " ");
  L.best_by_kept.forEach((x, i) => { if (i) kept.append(" · "); kept.append(t("leavesKeep", i + 1), " ", wordNode(units(x.leave)), " " + pts(x.value)); });
  out.append(kept);
}

// fillFinder lists the word lists (want, the last one used or the first
// chosen) and the lengths.
function fillFinder(want) {
  const sel = $("#finder-lexicon");
  const keep = want || sel.value;
  sel.textContent = "";
  if (!INFO) return;
  chooseLexicon(sel, [keep, localStorage.getItem("atril:judge")]);
  for (const id of ["#finder-min", "#finder-max"]) {
    const any = el("option", "", t("finderAny"));
    any.value = "0";
    lengthOptions($(id), "0", any);
  }
}

// FOUND is the word finder's last answer, shown again in another language.
let FOUND = null;

// findWords asks the server the question of the form, and keeps it in
// the address (a new history entry when asked from the form).
async function findWords(push) {
  const msg = $("#finder-msg");
  msg.textContent = "";
  msg.className = "";
  const q = new URLSearchParams({ lexicon: $("#finder-lexicon").value });
  const letters = $("#finder-letters").value.trim();
  const pattern = $("#finder-pattern").value.trim();
  if (!letters && !pattern) { msg.textContent = t("finderNeed"); $("#finder-letters").focus(); return; }
  if (letters) q.set("letters", letters);
  if (letters && $("#finder-all").checked) q.set("all", "1");
  if (pattern) q.set("pattern", pattern);
  for (const k of ["min", "max"]) if ($("#finder-" + k).value !== "0") q.set(k, $("#finder-" + k).value);
  localStorage.setItem("atril:judge", q.get("lexicon"));
  const url = "/words?" + q.toString();
  if (push && location.pathname + location.search !== url) history.pushState(null, "", url);
  $("#finder-go").disabled = true;
  try {
    FOUND = await api("GET", "/api/find?" + q.toString());
    showFound();
  } catch (e) {
    FOUND = null;
    $("#finder-out").textContent = "";
    msg.textContent = t("error", localReason(e.message));
    msg.className = "error";
  }
  $("#finder-go").disabled = false;
}

// showFound lists the words found by length, each with its hooks: the
// letters that make a word before it, and after it.
function showFound() {
  const out = $("#finder-out");
  out.textContent = "";
  if (!FOUND) return;
  const msg = $("#finder-msg");
  const n = FOUND.words.length;
  msg.textContent = n === 0 ? t("finderNone") : FOUND.cut ? t("finderCut", n) : n === 1 ? t("finderOne") : t("finderCount", n);
  const groups = new Map();
  for (const w of FOUND.words) {
    const len = w.tiles;
    if (!groups.has(len)) groups.set(len, []);
    groups.get(len).push(w);
  }
  for (const [len, words] of groups) {
    out.append(el("h2", "", t("finderLen", len, words.length)));
    const ul = el("ul", "found");
    for (const w of words) ul.append(foundItem(w, false));
    out.append(ul);
  }
}

window.addEventListener("popstate", () => {
  if (location.pathname !== "/words") return;
  const q = new URLSearchParams(location.search);
  $("#finder-letters").value = q.get("letters") || "";
  $("#finder-pattern").value = q.get("pattern") || "";
  $("#finder-all").checked = q.get("all") === "1";
  if (q.get("letters") || q.get("pattern")) findWords(false);
});

// ---------- word study ----------

// STUDY is the anagram drill under way: its alphagrams (qs) in the
// order asked, each with the words found and whether it was revealed,
// and the one on show (i; qs.length once done).
let STUDY = null;

// showStudy opens word study (/study), and starts the drill the address
// names, if any.
async function showStudy() {
  $("#study").hidden = false;
  document.title = t("studyTitle") + " · atril";
  try { INFO = INFO || await api("GET", "/api/info"); } catch (e) { /* no word lists */ }
  const q = new URLSearchParams(location.search);
  fillStudy(q.get("lexicon"));
  setStudyForm(q);
  renderCardbox();
  if (q.get("review") === "1") { await syncCardbox($("#study-lexicon").value); reviewCardbox(false); }
  else {
    syncCardbox($("#study-lexicon").value);
    if (q.get("length")) startStudy(false);
  }
}

// setStudyForm puts the drill of an address in the form.
function setStudyForm(q) {
  $("#study-length").value = q.get("length") || localStorage.getItem("atril:study-length") || "7";
  $("#study-from").value = q.get("from") || "1";
  $("#study-to").value = q.get("to") || String(+$("#study-from").value + 49);
  $("#study-shuffle").checked = q.get("shuffle") === "1";
}

// fillStudy lists the word lists (want, the last one used or the first)
// and the lengths.
function fillStudy(want) {
  const sel = $("#study-lexicon");
  const keep = want || sel.value;
  sel.textContent = "";
  if (!INFO) return;
  chooseLexicon(sel, [keep, localStorage.getItem("atril:judge")]);
  lengthOptions($("#study-length"), "7");
}

// startStudy asks the server for the alphagrams of the form and starts
// the drill, keeping it in the address (a new history entry when asked
// from the form).
async function startStudy(push) {
  const msg = $("#study-msg");
  msg.textContent = "";
  msg.className = "";
  const from = parseInt($("#study-from").value, 10), to = parseInt($("#study-to").value, 10);
  if (!(from >= 1) || !(to >= from) || to - from >= 200) {
    msg.textContent = t("studyRange");
    msg.className = "error";
    $("#study-from").focus();
    return;
  }
  const q = new URLSearchParams({ lexicon: $("#study-lexicon").value, length: $("#study-length").value, from: String(from), to: String(to) });
  if ($("#study-shuffle").checked) q.set("shuffle", "1");
  localStorage.setItem("atril:judge", q.get("lexicon"));
  localStorage.setItem("atril:study-length", q.get("length"));
  const url = "/study?" + q.toString();
  if (push && location.pathname + location.search !== url) history.pushState(null, "", url);
  q.delete("shuffle");
  $("#study-go").disabled = true;
  try {
    const ans = await api("GET", "/api/study?" + q.toString());
    if (!ans.alphagrams.length) {
      STUDY = null;
      msg.textContent = t("studyNone", ans.count, ans.length);
    } else {
      const qs = ans.alphagrams;
      if ($("#study-shuffle").checked) {
        for (let i = qs.length - 1; i > 0; i--) {
          const j = Math.floor(Math.random() * (i + 1));
          [qs[i], qs[j]] = [qs[j], qs[i]];
        }
      }
      beginDrill(qs, q.get("lexicon"));
    }
  } catch (e) {
    STUDY = null;
    msg.textContent = t("error", localReason(e.message));
    msg.className = "error";
  }
  $("#study-go").disabled = false;
  renderStudy();
}

// beginDrill starts a drill of the alphagrams qs of word list lexicon.
function beginDrill(qs, lexicon) {
  STUDY = { qs: qs.map((a) => ({ a, found: new Set(), revealed: false })), i: 0, lexicon };
  renderStudy();
  $("#study-answer").focus();
}

// studySolved reports whether every word of question q was found
// without showing them.
function studySolved(q) { return !q.revealed && q.found.size === q.a.words.length; }

// studyDone reports whether every word of question q is found or shown.
function studyDone(q) { return q.revealed || q.found.size === q.a.words.length; }

// foundItem is a word with its hooks, as the word finder and word
// study list them; a word missed in a drill is marked.
function foundItem(w, missed) {
  const li = el("li", missed ? "missed" : "");
  // Letters of more than one character apart ("ch s"), others together.
  const hooks = (hs) => hs.join(hs.some((h) => h.length > 1) ? " " : "").toLowerCase();
  const word = el("strong");
  // A blank's letter (lowercase from the server) is marked.
  for (const ch of w.word) word.append(ch === ch.toUpperCase() ? ch : el("span", "bl", ch.toUpperCase()));
  li.append(el("span", "hook front", hooks(w.front)), word, el("span", "hook back", hooks(w.back)));
  li.title = t("finderHooks", w.front.join(" ") || "—", w.back.join(" ") || "—");
  if (missed) li.append(el("span", "sr-only", " (" + t("studyMissedWord") + ")"));
  return li;
}

// renderStudy draws the drill: the alphagram on show, or the summary
// once every one was asked.
function renderStudy() {
  $("#study-quiz").hidden = !STUDY || STUDY.i >= STUDY.qs.length;
  $("#study-summary").hidden = !STUDY || STUDY.i < STUDY.qs.length;
  if (!STUDY) return;
  if (STUDY.i >= STUDY.qs.length) { renderStudySummary(); return; }
  const q = STUDY.qs[STUDY.i];
  $("#study-progress").textContent = t("studyProgress", STUDY.i + 1, STUDY.qs.length, q.a.rank, Math.round(1 / q.a.probability).toLocaleString(LANG));
  const tiles = $("#study-tiles");
  tiles.textContent = "";
  tiles.setAttribute("aria-label", q.a.letters.join(" "));
  q.a.letters.forEach((l, k) => tiles.append(tileEl(l, q.a.scores[k], false)));
  const n = q.a.words.length;
  $("#study-need").textContent = t("studyNeed", q.found.size, n);
  const ul = $("#study-found");
  ul.textContent = "";
  for (const w of q.a.words) {
    if (q.found.has(w.word)) ul.append(foundItem(w, false));
    else if (q.revealed) ul.append(foundItem(w, true));
  }
  const done = studyDone(q);
  $("#study-answer").disabled = $("#study-check").disabled = done;
  $("#study-reveal").disabled = done;
  $("#study-next").textContent = t(STUDY.i + 1 < STUDY.qs.length ? "studyNext" : "studyFinish");
}

// renderStudySummary says how the drill went and lists the alphagrams
// missed (some word not found), each with its words.
function renderStudySummary() {
  const qs = STUDY.qs;
  const solved = qs.filter(studySolved).length;
  const words = qs.reduce((n, q) => n + q.a.words.length, 0);
  const found = qs.reduce((n, q) => n + q.found.size, 0);
  $("#study-score").textContent = t("studyScore", solved, qs.length, found, words);
  const out = $("#study-missed");
  out.textContent = "";
  const missed = qs.filter((q) => !studySolved(q));
  if (missed.length) out.append(el("h3", "", t("studyMissed", missed.length)));
  for (const q of missed) {
    const ul = el("ul", "found");
    const head = el("li", "alpha", q.a.letters.join(""));
    head.title = t("studyRank", q.a.rank);
    ul.append(head);
    for (const w of q.a.words) ul.append(foundItem(w, !q.found.has(w.word)));
    out.append(ul);
  }
  $("#study-again").hidden = !missed.length;
}

// studyAnswer checks a word typed against the alphagram on show.
function studyAnswer(ev) {
  ev.preventDefault();
  const q = STUDY && STUDY.qs[STUDY.i];
  if (!q) return;
  const input = $("#study-answer");
  const text = input.value.trim().toLocaleUpperCase();
  input.value = "";
  const say = $("#study-say");
  say.className = "";
  if (!text) {
    if (studyDone(q)) nextStudy();
    return;
  }
  const w = q.a.words.find((x) => x.word.toLocaleUpperCase() === text);
  if (!w) {
    say.textContent = t("studyWrong", text);
    say.className = "error";
  } else if (q.found.has(w.word)) {
    say.textContent = t("studyAgainFound", w.word);
  } else {
    q.found.add(w.word);
    say.textContent = q.found.size === q.a.words.length ? t("studyAll", w.word) : t("studyRight", w.word);
  }
  renderStudy();
  if (studyDone(q)) $("#study-next").focus(); else input.focus();
}

// nextStudy moves on to the next alphagram (one left unfinished counts
// as missed).
function nextStudy() {
  if (!STUDY || STUDY.i >= STUDY.qs.length) return;
  const q = STUDY.qs[STUDY.i];
  if (!studyDone(q)) q.revealed = true;
  fileCard(STUDY.lexicon, q);
  STUDY.i++;
  $("#study-say").textContent = "";
  renderStudy();
  if (STUDY.i < STUDY.qs.length) $("#study-answer").focus(); else $("#study-summary h2").focus();
}

$("#study-form").addEventListener("submit", (ev) => { ev.preventDefault(); startStudy(true); });
$("#study-answer-form").addEventListener("submit", studyAnswer);
$("#study-reveal").addEventListener("click", () => {
  const q = STUDY && STUDY.qs[STUDY.i];
  if (!q) return;
  q.revealed = true;
  $("#study-say").textContent = "";
  renderStudy();
  $("#study-next").focus();
});
$("#study-next").addEventListener("click", nextStudy);
$("#study-again").addEventListener("click", () => {
  beginDrill(STUDY.qs.filter((q) => !studySolved(q)).map((q) => q.a), STUDY.lexicon);
});
$("#study-new").addEventListener("click", () => {
  STUDY = null;
  renderStudy();
  $("#study-lexicon").focus();
});

window.addEventListener("popstate", () => {
  if (location.pathname !== "/study") return;
  const q = new URLSearchParams(location.search);
  if (q.get("lexicon")) $("#study-lexicon").value = q.get("lexicon");
  setStudyForm(q);
  renderCardbox();
  if (q.get("review") === "1") reviewCardbox(false);
  else if (q.get("length")) startStudy(false);
  else { STUDY = null; renderStudy(); }
});

// The cardbox: the alphagrams drilled, per word list, each in a box
// with the time it is due again (Leitner's scheme, as word-study
// programs keep it): one solved moves up a box and comes back later, one
// missed goes back to the first box and comes back the next day. Kept in
// localStorage as {spelling: [box, due ms, filed ms]}: for a guest the
// browser's own; signed in, a copy of the account's cardbox, which the
// server keeps (/api/me/cardbox) so that study goes on from any device.
const BOX_DAYS = [1, 2, 4, 7, 14, 30, 60, 120];
const DAY_MS = 24 * 3600 * 1000;

function guestCardboxKey(lexicon) { return "atril:cardbox:" + lexicon; }
function accountCardboxKey(name, lexicon) { return "atril:cardbox:@" + name + ":" + lexicon; }
function cardboxKey(lexicon) { return ME.signed_in ? accountCardboxKey(ME.name, lexicon) : guestCardboxKey(lexicon); }
function readCardbox(key) {
  try {
    const cb = JSON.parse(localStorage.getItem(key) || "{}");
    return cb && typeof cb === "object" && !Array.isArray(cb) ? cb : {};
  } catch (e) { return {}; }
}
function loadCardbox(lexicon) { return readCardbox(cardboxKey(lexicon)); }

// cardFiled is when a card was filed (cards kept before the time was
// kept: worked out from their box and due time).
function cardFiled(c) { return c[2] || c[1] - BOX_DAYS[c[0]] * DAY_MS; }
function cardJSON(letters, c) { return { letters, box: c[0], due: c[1], filed: cardFiled(c) }; }

// syncCardbox merges, signed in, the account's cardbox on the server,
// its copy in this browser and the browser's own (which moves into the
// account), each card's latest filing winning, and sends the server the
// cards it lacks or holds an earlier filing of.
async function syncCardbox(lexicon) {
  if (!ME.signed_in || !lexicon) return;
  const name = ME.name;
  let server;
  try { server = await api("GET", "/api/me/cardbox?" + new URLSearchParams({ lexicon })); } catch (e) { return; }
  if (!ME.signed_in || ME.name !== name) return;
  const merged = {};
  for (const c of server.cards || []) merged[c.letters] = [c.box, c.due, c.filed];
  const send = new Set();
  for (const box of [loadCardbox(lexicon), readCardbox(guestCardboxKey(lexicon))]) {
    for (const [k, c] of Object.entries(box)) {
      if (!Array.isArray(c) || BOX_DAYS[c[0]] === undefined) continue;
      if (!merged[k] || cardFiled(c) > merged[k][2]) { merged[k] = [c[0], c[1], cardFiled(c)]; send.add(k); }
    }
  }
  const keys = [...send];
  try {
    for (let i = 0; i < keys.length; i += 200) {
      await api("PUT", "/api/me/cardbox", { lexicon, cards: keys.slice(i, i + 200).map((k) => cardJSON(k, merged[k])) });
    }
    localStorage.removeItem(guestCardboxKey(lexicon));
  } catch (e) { /* sent at the next sync */ }
  localStorage.setItem(accountCardboxKey(name, lexicon), JSON.stringify(merged));
  if ($("#study-lexicon").value === lexicon) renderCardbox();
}

// putCards files cards ([spelling, box, due ms]) in the cardbox of a
// word list; signed in, the server keeps them too.
function putCards(lexicon, cards) {
  const cb = loadCardbox(lexicon);
  const now = Date.now();
  for (const [spell, box, due] of cards) cb[spell] = [box, due, now];
  localStorage.setItem(cardboxKey(lexicon), JSON.stringify(cb));
  if (ME.signed_in) {
    api("PUT", "/api/me/cardbox", { lexicon, cards: cards.map(([spell]) => cardJSON(spell, cb[spell])) }).catch(() => { /* sent at the next sync */ });
  }
}

// addToCardbox puts alphagrams to study (a game's missed bingos) in the
// first box of a word list's cardbox, due at once, and returns how many
// distinct ones it filed.
function addToCardbox(lexicon, spells) {
  const now = Date.now();
  const distinct = [...new Set(spells)];
  putCards(lexicon, distinct.map((s) => [s, 0, now]));
  return distinct.length;
}

// fileCard puts an alphagram drilled in the cardbox: up a box if every
// word was found without showing them (a new one in the second box),
// else back in the first; signed in, the server keeps it too.
function fileCard(lexicon, q) {
  if (!lexicon) return;
  const cb = loadCardbox(lexicon);
  const solved = studySolved(q);
  const was = cb[q.a.spell];
  const box = solved ? Math.min((was ? was[0] : 0) + 1, BOX_DAYS.length - 1) : 0;
  putCards(lexicon, [[q.a.spell, box, Date.now() + BOX_DAYS[box] * DAY_MS]]);
  renderCardbox();
}

// dueCards lists the cardbox's alphagrams due now, the longest due first.
function dueCards(lexicon) {
  const now = Date.now();
  return Object.entries(loadCardbox(lexicon)).filter(([, c]) => Array.isArray(c) && c[1] <= now).sort((x, y) => x[1][1] - y[1][1]).map(([k]) => k);
}

// renderCardbox says what the chosen list's cardbox holds and what is due.
function renderCardbox() {
  const lexicon = $("#study-lexicon").value;
  const n = Object.keys(loadCardbox(lexicon)).length, due = dueCards(lexicon).length;
  $("#cardbox-line").textContent = n ? t("cardboxLine", n, due) : t("cardboxEmpty");
  $("#cardbox-go").textContent = t("cardboxGo", Math.min(due, 200));
  $("#cardbox-go").disabled = !due;
  $("#cardbox-clear").disabled = !n;
}

// reviewCardbox drills the alphagrams due (at most 200).
async function reviewCardbox(push) {
  const lexicon = $("#study-lexicon").value;
  const due = dueCards(lexicon).slice(0, 200);
  const msg = $("#study-msg");
  msg.textContent = "";
  msg.className = "";
  const url = "/study?" + new URLSearchParams({ lexicon, review: "1" }).toString();
  if (push && location.pathname + location.search !== url) history.pushState(null, "", url);
  if (!due.length) { STUDY = null; renderStudy(); msg.textContent = t("cardboxNone"); return; }
  const q = new URLSearchParams({ lexicon });
  for (const d of due) q.append("letters", d);
  try {
    const ans = await api("GET", "/api/study?" + q.toString());
    beginDrill(ans.alphagrams, lexicon);
  } catch (e) {
    STUDY = null;
    renderStudy();
    msg.textContent = t("error", localReason(e.message));
    msg.className = "error";
  }
}

$("#study-lexicon").addEventListener("change", () => { renderCardbox(); syncCardbox($("#study-lexicon").value); });
$("#cardbox-go").addEventListener("click", () => reviewCardbox(true));
$("#cardbox-clear").addEventListener("click", async () => {
  const lexicon = $("#study-lexicon").value;
  if (!await ask(t("cardboxClearAsk", lexiconName(lexicon)), t("cardboxClear"))) return;
  if (ME.signed_in) {
    try { await api("DELETE", "/api/me/cardbox?" + new URLSearchParams({ lexicon })); } catch (e) {
      $("#study-msg").textContent = t("error", localReason(e.message));
      $("#study-msg").className = "error";
      return;
    }
  }
  localStorage.removeItem(cardboxKey(lexicon));
  renderCardbox();
});

// ---------- a game played elsewhere ----------

// fillImport offers every word list, and first "as the file says" (its
// #lexicon pragma).
function fillImport() {
  const sel = $("#import-lexicon");
  const keep = sel.value;
  sel.textContent = "";
  const file = el("option", "", t("importAsFile"));
  file.value = "";
  sel.append(file);
  sel.value = lexiconOptions(sel).has(keep) ? keep : "";
}

// importGame sends the GCG file to the server, which replays it under
// the rules and keeps it as a finished game, and opens its review.
async function importGame(ev) {
  ev.preventDefault();
  const out = $("#import-out");
  const gcg = $("#import-text").value;
  if (!gcg.trim()) { out.textContent = t("importEmpty"); $("#import-text").focus(); return; }
  out.textContent = "";
  $("#import-go").disabled = true;
  try {
    const res = await api("POST", "/api/games/import", { gcg, lexicon: $("#import-lexicon").value });
    location.href = "/g/" + res.id + "#review-0";
  } catch (e) {
    out.textContent = t("importBad", localReason(e.message));
  }
  $("#import-go").disabled = false;
}

// JUDGED is the word judge's last answer, shown again in another language.
let JUDGED = null;

function showJudged() {
  const out = $("#judge-out");
  out.textContent = "";
  if (!JUDGED) return;
  for (const w of JUDGED.words) {
    const li = el("li", w.valid ? "valid" : "invalid");
    li.append(el("strong", "", w.word.toUpperCase()), " ", el("span", "", t(w.valid ? "judgeValid" : "judgeInvalid", lexiconName(JUDGED.lexicon))));
    out.append(li);
  }
}

function describeOpponent() {
  const v = $("#opponent").value;
  const level = v.startsWith("computer:") ? v.slice(9) : "";
  let desc = level ? levelDesc(level) : t(v + "Desc");
  // The rating the level plays rated games at.
  const lr = level && INFO && INFO.level_ratings ? INFO.level_ratings[level] : 0;
  if (lr) desc += " " + t("levelRating", lr);
  if (v === "invite" && !ME.signed_in) desc += " " + t("inviteSignIn");
  $("#level-desc").textContent = desc;
  // An invitation names the player invited.
  $("#invite-label").hidden = $("#invite-name").hidden = v !== "invite";
  $("#invite-name").required = v === "invite";
  describeRated();
}

async function createGame(ev) {
  ev.preventDefault();
  $("#create").disabled = true;
  try {
    // A signed-in person's seat takes the account's name.
    const name = ME.signed_in ? ME.name : $("#name").value.trim();
    const variant = $("#variant").value, lexicon = $("#lexicon").value, opp = $("#opponent").value;
    if (!ME.signed_in) localStorage.setItem("atril:name", name);
    localStorage.setItem("atril:variant", variant);
    localStorage.setItem("atril:lexicon:" + variant, lexicon);
    localStorage.setItem("atril:opponent", opp);
    const clock = clockRequest($("#clock").value);
    localStorage.setItem("atril:clock", $("#clock").value);
    const challenge = $("#challenge").value;
    localStorage.setItem("atril:challenge", challenge);
    const seats = [{ kind: "human", name }];
    if (opp.startsWith("computer:")) seats.push({ kind: "computer", level: opp.slice(9) });
    else if (opp === "invite") seats.push({ kind: "human", invite: $("#invite-name").value.trim() });
    else seats.push({ kind: "human" });
    const req = { variant, lexicon, seats };
    if (ratedAllowed() && $("#rated").checked && opp !== "invite" && !opp.startsWith("computer:")) {
      // The opponent's seat, kept for a rating range if one is given.
      const lo = +$("#range-min").value || 0, hi = +$("#range-max").value || 0;
      if (lo) seats[1].rating_min = lo;
      if (hi) seats[1].rating_max = hi;
    }
    if (clock) req.clock = clock;
    if (challenge && challenge !== "void") req.challenge = challenge;
    if (ratedAllowed() && $("#rated").checked) req.rated = true;
    const g = await api("POST", "/api/games", req);
    const j = await api("POST", "/api/games/" + g.id + "/join", { name, seat: 0 });
    rememberSeat(g.id, j.token);
    if (opp === "anyone") {
      try {
        await api("POST", "/api/games/" + g.id + "/list", undefined, j.token);
      } catch (e) {
        // Not offered (too many games of ours wait already): call it off.
        await api("POST", "/api/games/" + g.id + "/abort", undefined, j.token).catch(() => {});
        throw e;
      }
    }
    location.href = "/g/" + g.id;
  } catch (e) {
    say(t("error", accountReason(e.message)), "error");
    $("#create").disabled = false;
  }
}

// ---------- finding players ----------

// FIND_SEQ numbers the searches for players, so that a slow answer to
// an older search does not replace a newer one; FIND_TIMER waits for the
// typing to pause.
let FIND_SEQ = 0, FIND_TIMER = 0;

// findPlayers lists the players whose names start with the letters
// typed, each a link to their page, marked when online.
async function findPlayers() {
  const prefix = $("#find-name").value.trim();
  const seq = ++FIND_SEQ;
  const ul = $("#find-out"), msg = $("#find-msg");
  if (!prefix) {
    ul.textContent = "";
    msg.textContent = "";
    return;
  }
  let ans;
  try {
    ans = await api("GET", "/api/players?prefix=" + encodeURIComponent(prefix));
  } catch (e) {
    if (seq === FIND_SEQ) msg.textContent = t("error", e.message);
    return;
  }
  if (seq !== FIND_SEQ) return;
  ul.textContent = "";
  for (const p of ans.players) {
    const li = el("li");
    const a = el("a", "", p.name);
    a.href = "/p/" + encodeURIComponent(p.name);
    li.append(a);
    if (p.online) li.append(" ", el("span", "online-mark", t("onlineNow")));
    else if (p.seen) li.append(" ", el("span", "hint", t("lastSeen", ago(p.seen))));
    if (ME.signed_in && p.name !== ME.name) li.append(" ", inviteButton(p.name), " ", messageLink(p.name));
    ul.append(li);
  }
  msg.textContent = ans.players.length ? "" : t("findNone", prefix);
}

// ---------- quick pairing ----------

// QUICK_CLOCKS are the clocks quick pairing offers, written as the
// new-game form's clock choices are.
const QUICK_CLOCKS = ["180+2", "300", "600", "600+5", "900", "1500", "d1", "d3"];
// QUICK_WAITING counts the lobby's games that wait for an opponent and
// that quick pairing would seat the player in, by quickKey.
let QUICK_WAITING = new Map();
// QUICK_BUSY is set while a quick pairing is asked for (and the page
// goes to its game).
let QUICK_BUSY = false;

// quickKey names the settings quick pairing matches on.
function quickKey(variant, lexicon, clock, rated) {
  const c = !clock ? "none" : clock.per_move ? "d" + clock.per_move : [clock.seconds, clock.increment || 0, clock.overtime || 0].join("+");
  return [variant, lexicon, c, rated ? "rated" : "casual"].join("|");
}

// fillQuick lists the word lists quick pairing offers and sets its
// choices as last left.
function fillQuick() {
  const box = $("#quick-lists"), keep = quickList();
  box.textContent = "";
  const values = [];
  for (const v of INFO.variants) {
    for (const l of v.lexicons || [v.default_lexicon]) {
      const input = el("input");
      input.type = "radio";
      input.name = "quick-list";
      input.value = v.name + "|" + l;
      input.addEventListener("change", () => {
        localStorage.setItem("atril:quick", input.value);
        showQuick();
      });
      const label = el("label");
      label.append(input, el("span", "", lexiconName(l)));
      box.append(label);
      values.push(input.value);
    }
  }
  const pick = [keep, localStorage.getItem("atril:quick"), $("#variant").value + "|" + $("#lexicon").value, values[0]].find((x) => x && values.includes(x));
  for (const input of box.querySelectorAll("input")) input.checked = input.value === pick;
  const rated = $("#quick-rated");
  rated.disabled = !ME.signed_in;
  rated.checked = !!ME.signed_in && localStorage.getItem("atril:quick-rated") === "1";
  $("#quick-rated-desc").textContent = ME.signed_in ? t("quickRatedDesc") : t("ratedSignIn");
  showQuick();
}

// quickList is the variant and word list chosen for quick pairing,
// "variant|lexicon" ("" before the choices are drawn).
function quickList() {
  const c = document.querySelector('#quick-lists input:checked');
  return c ? c.value : "";
}

// showQuick draws a button for each clock of quick pairing, with its
// pace and the players waiting for that game.
function showQuick() {
  const grid = $("#quick-grid");
  if (!quickList()) return;
  grid.textContent = "";
  const [variant, lexicon] = quickList().split("|");
  const rated = $("#quick-rated").checked;
  for (const v of QUICK_CLOCKS) {
    const c = clockRequest(v);
    const b = el("button", "quick");
    b.type = "button";
    b.dataset.clock = v;
    b.append(el("strong", "", clockShort(c)), el("span", "quick-pace", paceName(clockPace(c))));
    const n = QUICK_WAITING.get(quickKey(variant, lexicon, c, rated)) || 0;
    if (n) b.append(el("span", "quick-waiting", t("quickWaiting", n)));
    if (c.per_move && !ME.signed_in) {
      // Correspondence play is between accounts.
      b.disabled = true;
      b.title = t("quickSignInCorr");
    }
    // One request at a time, whatever redraws the buttons meanwhile.
    if (QUICK_BUSY) b.disabled = true;
    b.addEventListener("click", () => quickPlay(v));
    grid.append(b);
  }
}

// countQuickWaiting counts the games of the lobby's list (those of
// others) in which a player waits for an opponent with settings quick
// pairing offers: two seats, one free and kept for nobody, the challenge
// rule void.
function countQuickWaiting(open) {
  QUICK_WAITING = new Map();
  for (const g of open) {
    const free = g.seats.filter((s) => !s.taken);
    if (g.seats.length !== 2 || free.length !== 1 || free[0].invited || free[0].rating_min || free[0].rating_max || g.challenge) continue;
    const k = quickKey(g.variant, g.lexicon, g.clock, g.rated);
    QUICK_WAITING.set(k, (QUICK_WAITING.get(k) || 0) + 1);
  }
  showQuick();
}

// quickPlay asks for a quick pairing with the clock of choice v, and
// goes to the game: started when someone was waiting, or waiting in the
// lobby for someone.
async function quickPlay(v) {
  const [variant, lexicon] = quickList().split("|");
  localStorage.setItem("atril:quick", variant + "|" + lexicon);
  const req = { variant, lexicon, clock: clockRequest(v) };
  if ($("#quick-rated").checked) req.rated = true;
  if (!ME.signed_in) {
    const name = $("#name").value.trim();
    if (name) {
      req.name = name;
      localStorage.setItem("atril:name", name);
    }
  }
  QUICK_BUSY = true;
  showQuick();
  $("#quick-msg").textContent = t("quickLooking");
  $("#quick-msg").className = "";
  try {
    const r = await api("POST", "/api/quick", req);
    if (r.token) rememberSeat(r.id, r.token);
    location.href = "/g/" + r.id;
  } catch (e) {
    $("#quick-msg").textContent = t("error", accountReason(e.message));
    $("#quick-msg").className = "error";
    QUICK_BUSY = false;
    showQuick();
  }
}

// ---------- tournaments ----------

// tourneyWhat describes a tournament's games and format in one line.
function tourneyWhat(x) {
  const parts = [lexiconName(x.lexicon)];
  if (x.clock) parts.push(clockShort(x.clock));
  if (x.challenge) parts.push(t("ruleShort_" + x.challenge));
  parts.push(x.format === "round-robin" ? t("formatRoundRobin") : x.rounds === 1 ? t("formatSwissOne") : t("formatSwissRounds", x.rounds));
  return parts.join(" · ");
}

// loadTourneys lists the tournaments not over, and offers a signed-in
// player the form for a new one.
async function loadTourneys() {
  $("#tourney-new").hidden = !ME.signed_in;
  let list;
  try { list = await api("GET", "/api/tournaments"); } catch (e) { return; }
  const ul = $("#tourneys");
  ul.textContent = "";
  for (const x of list.open) {
    const li = el("li");
    if (x.rated) li.append(el("span", "badge", ratedLabel({ pace: clockPace(x.clock) })), " ");
    const a = el("a", "", x.name);
    a.href = "/t/" + x.id;
    li.append(a, " ", el("span", "", t("tState_" + x.state) + " · " + t("tPlayersOf", x.players.length, x.max_players)), " ",
      el("span", "hint", tourneyWhat(x)));
    ul.append(li);
  }
  $("#tourneys-empty").hidden = list.open.length > 0;
}

function tourneyFormat() {
  const rr = $("#tourney-format").value === "round-robin";
  $("#tourney-rounds").hidden = rr;
  $("#tourney-rounds-label").hidden = rr;
}

// createTourney makes a tournament with the games set up in the new
// game's form (word list, clock, challenge rule, rated).
async function createTourney(ev) {
  ev.preventDefault();
  const msg = $("#tourney-msg");
  msg.textContent = "";
  const clock = clockRequest($("#clock").value);
  if (!clock) { msg.textContent = t("tourneyNeedsClock"); msg.className = "error"; $("#clock").focus(); return; }
  const req = { name: $("#tourney-name").value.trim(), variant: $("#variant").value, lexicon: $("#lexicon").value, clock,
    format: $("#tourney-format").value, max_players: Number($("#tourney-max").value) };
  if (req.format === "swiss") req.rounds = Number($("#tourney-rounds").value);
  const rule = $("#challenge").value;
  if (rule !== "void") req.challenge = rule;
  if ($("#rated").checked && !$("#rated").disabled) req.rated = true;
  $("#tourney-create").disabled = true;
  try {
    const r = await api("POST", "/api/tournaments", req);
    location.href = "/t/" + r.id;
  } catch (e) {
    msg.textContent = t("error", e.message);
    msg.className = "error";
    $("#tourney-create").disabled = false;
  }
}

// TOURNEY is the tournament shown (GET /api/tournaments/{id}).
let TOURNEY = null;
let tourneyTimer = null;

async function showTourney(id) {
  $("#tourney").hidden = false;
  TOURNEY = { id };
  INFO = INFO || await api("GET", "/api/info").catch(() => null);
  for (const [b, what] of [["#t-register", "register"], ["#t-withdraw", "withdraw"], ["#t-start", "start"], ["#t-cancel", "cancel"]]) {
    $(b).addEventListener("click", () => tourneyAction(what));
  }
  await loadTourney();
  // The rounds move on as games end elsewhere.
  const tourneyOn = () => !document.hidden && TOURNEY.state !== "over" && TOURNEY.state !== "cancelled";
  tourneyTimer = setInterval(() => { if (tourneyOn()) loadTourney(); }, 15000);
  // And at once when the lobby's socket says the tournaments changed
  // (a player registered, a round paired, a result).
  listenLobby(0, () => { if (tourneyOn()) loadTourney(); });
}

async function loadTourney() {
  try {
    TOURNEY = await api("GET", "/api/tournaments/" + TOURNEY.id);
  } catch (e) {
    TOURNEY = { id: TOURNEY.id, missing: true, error: e.status === 404 ? t("tourneyMissing") : t("error", e.message) };
  }
  renderTourney();
}

// tourneyAction asks the server to register, withdraw, start or cancel;
// player is the player the director withdraws (none: oneself).
async function tourneyAction(what, player) {
  const msg = $("#t-msg");
  msg.textContent = "";
  msg.className = "";
  if (what === "cancel" && !confirm(t("tourneyCancelSure"))) return;
  const playing = TOURNEY.state === "playing";
  if (what === "withdraw" && player && !confirm(t("tourneyWithdrawPlayerSure", player))) return;
  if (what === "withdraw" && !player && playing && !confirm(t("tourneyWithdrawSure"))) return;
  try {
    TOURNEY = await api("POST", "/api/tournaments/" + TOURNEY.id + "/" + what, player ? { player } : undefined);
    renderTourney();
    msg.textContent = player ? t("tDone_withdrawn", player) : t("tDone_" + what + (what === "withdraw" && playing ? "Late" : ""));
  } catch (e) {
    msg.textContent = e.status === 401 ? t("tourneySignIn") : t("error", e.message);
    msg.className = "error";
  }
}

function renderTourney() {
  const x = TOURNEY;
  if (!x) return;
  if (x.missing) {
    $("#t-name").textContent = t("tourneys");
    $("#t-info").textContent = x.error;
    for (const id of ["#t-register", "#t-withdraw", "#t-start", "#t-cancel", "#t-your", "#t-players-box", "#t-standings-box"]) $(id).hidden = true;
    return;
  }
  document.title = x.name + " · atril";
  $("#t-name").textContent = x.name;
  $("#t-info").textContent = (x.rated ? ratedLabel({ pace: clockPace(x.clock) }) + " · " : "") + tourneyWhat(x) + " · " + t("tDirector", x.director);
  const you = x.you || {};
  let state = t("tState_" + x.state);
  if (x.state === "registering") state += " · " + t("tPlayersOf", x.players.length, x.max_players);
  if (x.state === "playing") state += " · " + t("tRoundOf", (x.pairings || []).length, x.rounds);
  if (you.withdrawn) state += " · " + t("tYouWithdrawn");
  $("#t-state").textContent = state;
  const reg = x.state === "registering";
  const gone = new Set(x.withdrawn || []);
  // withdrawButton is the director's button to withdraw player n.
  const withdrawButton = (n) => {
    const b = el("button", "link-button", t("tourneyWithdraw"));
    b.type = "button";
    b.setAttribute("aria-label", t("tWithdrawPlayer", n));
    b.addEventListener("click", () => tourneyAction("withdraw", n));
    return b;
  };
  const directing = you.director && (reg || x.state === "playing");
  $("#t-register").hidden = !reg || !!you.registered || x.players.length >= x.max_players;
  $("#t-withdraw").hidden = !(reg || x.state === "playing") || !you.registered || !!you.withdrawn;
  $("#t-start").hidden = !reg || !you.director;
  $("#t-start").disabled = x.players.length < 2;
  $("#t-cancel").hidden = !reg || !you.director;
  $("#t-your").hidden = !you.game;
  if (you.game) $("#t-your-game").href = "/g/" + you.game;
  const pl = $("#t-players");
  pl.textContent = "";
  for (const n of x.players) {
    const li = el("li");
    const a = el("a", "", n);
    a.href = profileURL(n);
    li.append(a);
    if (directing && n !== ME.name) li.append(" ", withdrawButton(n));
    pl.append(li);
  }
  $("#t-players-box").hidden = !reg;
  const tb = $("#t-standings tbody");
  tb.textContent = "";
  for (const s of x.standings || []) {
    const tr = el("tr");
    const who = el("td");
    const a = el("a", "", s.name);
    a.href = profileURL(s.name);
    who.append(a);
    if (s.byes) who.append(" ", el("span", "hint", t("tByes", s.byes)));
    if (s.withdrawn) who.append(" ", el("span", "hint", t("tWithdrawnMark")));
    else if (directing && !gone.has(s.name) && s.name !== ME.name) who.append(" ", withdrawButton(s.name));
    tr.append(el("td", "n", String(s.rank)), who, el("td", "n", String(s.wins)), el("td", "n", String(s.losses)), el("td", "n", signedNumber(s.spread)));
    if (ME.signed_in && s.name === ME.name) tr.className = "me";
    tb.append(tr);
  }
  $("#t-standings-box").hidden = !(x.standings || []).length;
  const rounds = $("#t-rounds");
  rounds.textContent = "";
  (x.pairings || []).forEach((games, k) => {
    const box = el("div");
    box.append(el("h2", "", t("tRound", k + 1)));
    const ul = el("ul", "games");
    for (const g of games) {
      const li = el("li");
      if (!g.second) {
        li.append(el("span", "", t("tBye", g.first)));
      } else {
        li.append(el("span", "", g.first + " – " + g.second), " ");
        let res = "";
        if (g.done && g.how === "forfeit") res = t("tForfeit", g.wins[0] === 1 ? g.first : g.wins[1] === 1 ? g.second : "—");
        else if (g.done) res = g.score[0] + "–" + g.score[1];
        else res = t("tInPlay");
        li.append(el("span", "hint", res), " ");
        if (g.game) {
          const a = el("a", "button", g.done ? t("tReview") : t("watchGame"));
          a.href = "/g/" + g.game;
          a.setAttribute("aria-label", (g.done ? t("tReview") : t("watchGame")) + ": " + g.first + " – " + g.second);
          li.append(a);
        }
      }
      ul.append(li);
    }
    box.append(ul);
    rounds.prepend(box);
  });
}

function ago(iso) {
  const s = Math.max(0, (Date.now() - Date.parse(iso)) / 1000);
  const rtf = new Intl.RelativeTimeFormat(LANG, { numeric: "auto" });
  if (s < 60) return rtf.format(-Math.round(s), "second");
  if (s < 3600) return rtf.format(-Math.round(s / 60), "minute");
  if (s < 86400) return rtf.format(-Math.round(s / 3600), "hour");
  return rtf.format(-Math.round(s / 86400), "day");
}

// showLobbyPlayers lists the signed-in players with the lobby open,
// each a link to their page, and, signed in, a button that invites
// them from the new game's form.
function showLobbyPlayers(names) {
  const ul = $("#lobby-players");
  ul.textContent = "";
  for (const name of names) {
    const li = el("li");
    const a = el("a", "", name);
    a.href = profileURL(name);
    li.append(a);
    if (ME.signed_in) li.append(" ", inviteButton(name), " ", messageLink(name));
    ul.append(li);
  }
  $("#players-empty").hidden = names.length > 0;
}

// messageLink opens the conversation with the player of this name.
function messageLink(name) {
  const a = el("a", "button small", t("messageShort"));
  a.href = messagesURL(name);
  a.setAttribute("aria-label", t("sendMessageTo", name));
  return a;
}

// inviteButton is a button that invites the player of this name from
// the new game's form.
function inviteButton(name) {
  const b = el("button", "", t("invitePlayer"));
  b.type = "button";
  b.setAttribute("aria-label", t("invitePlayerName", name));
  b.addEventListener("click", () => inviteInForm(name));
  return b;
}

// inviteInForm sets the new game's form to invite the player of this
// name, and takes the reader there.
function inviteInForm(name) {
  $("#opponent").value = "invite";
  $("#invite-name").value = name;
  describeOpponent();
  $("#create-form").scrollIntoView({ block: "start" });
  $("#opponent").focus();
}

// showLobbyFollows lists the players one follows (signed in), those
// playing or offering a game first, then those in the lobby: each a link
// to their page, whether they have the lobby open or when they last
// had, and their games the lobby may list, with Join or Watch.
function showLobbyFollows(fs) {
  $("#follows-card").hidden = !ME.signed_in || !fs.length;
  showFollowsNotify();
  const ul = $("#follows-lobby");
  ul.textContent = "";
  const rank = (f) => (f.playing || f.offers ? 0 : f.online ? 1 : 2);
  for (const f of [...fs].sort((a, b) => rank(a) - rank(b))) {
    const li = el("li");
    const a = el("a", "", f.name);
    a.href = profileURL(f.name);
    li.append(a);
    if (f.online) li.append(" ", el("span", "online", t("followInLobby")));
    else if (f.seen) li.append(" ", el("span", "hint", t("followSeen", ago(f.seen))));
    for (const g of f.offers || []) {
      const join = el("a", "button", t("joinOpen"));
      join.href = "/g/" + g.id;
      join.setAttribute("aria-label", t("joinOpen") + ": " + f.name);
      li.append(" · ", el("span", "", t("followOffers")), " ", join);
    }
    for (const g of f.playing || []) {
      const score = g.seats.map((st) => seatLabel(st) + " " + st.score).join(" – ");
      const watch = el("a", "button", t("watchGame"));
      watch.href = "/g/" + g.id;
      watch.setAttribute("aria-label", t("watchGame") + ": " + score);
      const clocks = g.seats.flatMap((st, i) => (hasClock(g.clock_state, i) ? [" ", lobbyClock(g.clock_state, i)] : []));
      li.append(" · ", el("span", "", t("followPlays", score)), ...clocks, " ", watch);
    }
    ul.append(li);
  }
}

// FOLLOW_OFFERS are the games the players one follows offered when the
// lobby was last read (null before the first reading), so that a lobby in
// the background can tell of a new one.
let FOLLOW_OFFERS = null;

// notifyFollowOffers tells a player whose lobby is in the background,
// with notifications on, of each game a player they follow has offered
// since the lobby was last read; a click opens the game.
function notifyFollowOffers(fs) {
  const offers = new Map();
  for (const f of fs) for (const g of f.offers || []) offers.set(g.id, f.name);
  const before = FOLLOW_OFFERS;
  FOLLOW_OFFERS = new Set(offers.keys());
  if (!before || !notifyOn() || !document.hidden) return;
  for (const [id, name] of offers) {
    if (before.has(id)) continue;
    try {
      const n = new Notification(t("followNotifyTitle"), { body: t("followOffersNote", name), tag: "atril-offer-" + id });
      n.onclick = () => { window.focus(); n.close(); location.href = "/g/" + id; };
    } catch (e) { /* not here (some browsers allow them only from a service worker) */ }
  }
}

// showLobbyChat shows the lobby chat's latest lines (the server leaves
// out those of accounts blocked either way), each writer a link to their
// page; signed in, the form to write.
let LOBBY_CHAT_KEY = "";
function showLobbyChat(lines) {
  $("#lobby-chat-form").hidden = !ME.signed_in;
  $("#lobby-chat-signin").hidden = !!ME.signed_in;
  $("#lobby-chat-empty").hidden = lines.length > 0;
  const key = LANG + JSON.stringify(lines.map((l) => l.id));
  if (key === LOBBY_CHAT_KEY) return;
  LOBBY_CHAT_KEY = key;
  const ol = $("#lobby-chat-lines");
  const atEnd = ol.scrollTop + ol.clientHeight >= ol.scrollHeight - 4;
  ol.textContent = "";
  for (const l of lines) {
    const li = el("li");
    li.title = new Date(l.at).toLocaleString(LANG);
    const who = el("a", "who", l.name + ":");
    who.href = "/p/" + encodeURIComponent(l.name);
    li.append(who, el("span", "", l.text));
    ol.append(li);
  }
  // Follow the latest lines unless the reader scrolled back.
  if (atEnd) ol.scrollTop = ol.scrollHeight;
}

function sendLobbyChat(ev) { sendLine(ev, "#lobby-chat-text", "#lobby-chat-send", "/api/lobby/chat", undefined, loadOpen); }

async function loadOpen() {
  let lb;
  try { lb = await api("GET", "/api/lobby"); } catch (e) { return; }
  const ul = $("#open-games");
  ul.textContent = "";
  const mine = new Set(myGames().map((x) => x.id));
  const open = lb.open.filter((g) => !mine.has(g.id) && !ACCOUNT_GAMES.has(g.id));
  for (const g of open) ul.append(openGameItem(g));
  $("#open-empty").hidden = open.length > 0;
  countQuickWaiting(open);
  showLobbyPlayers(lb.players || []);
  showLobbyFollows(lb.follows || []);
  notifyFollowOffers(lb.follows || []);
  showLobbyChat(lb.chat || []);
  if (ME.signed_in && (lb.unread_messages || 0) !== (ME.unread_messages || 0)) {
    const more = (lb.unread_messages || 0) > (ME.unread_messages || 0);
    ME.unread_messages = lb.unread_messages || 0;
    renderAccount();
    // With "Notify" on, a lobby in the background says a message came.
    if (more && notifyOn() && document.hidden) {
      try {
        const n = new Notification(t("messagesLink"), { body: t("messagesNotify", ME.unread_messages), tag: "atril-messages" });
        n.onclick = () => { window.focus(); n.close(); location.href = "/messages"; };
      } catch (e) { /* not here (some browsers allow them only from a service worker) */ }
    }
  }
  // The games being played, to watch (one's own are under My games).
  const pl = $("#playing-games");
  pl.textContent = "";
  const playing = (lb.playing || []).filter((g) => !mine.has(g.id) && !ACCOUNT_GAMES.has(g.id));
  for (const g of playing) pl.append(playingGameItem(g, true));
  $("#playing-empty").hidden = playing.length > 0;
  LOBBY_CLOCKS_AT = performance.now();
  tickLobbyClocks();
}

// openGameItem is a list item for a game offered in the lobby: who
// waits, what game, since when, and Join.
function openGameItem(g) {
  const li = el("li");
  const host = g.seats.find((s) => s.taken) || g.seats[0];
  let what = variantName(g.variant) + " · " + lexiconName(g.lexicon);
  if (g.clock) what += " · " + clockShort(g.clock);
  if (g.challenge) what += " · " + t("ruleShort_" + g.challenge);
  const range = g.seats.map(rangeText).find((x) => x);
  if (range) what += " · " + t("lobbyRange", range);
  if (g.rated) li.append(el("span", "badge", ratedLabel(g)), " ");
  li.append(el("span", "", t("waitsFor", seatLabel(host), what)), " ", el("span", "hint", ago(g.created)), " ");
  const a = el("a", "button", t("joinOpen"));
  a.href = "/g/" + g.id;
  li.append(a);
  return li;
}

// playingGameItem is a list item for a game being played: its seats and
// scores (with their clocks running down, if clocks), what game, how
// many moves, and Watch.
function playingGameItem(g, clocks) {
  const li = el("li");
  if (g.rated) li.append(el("span", "badge", ratedLabel(g)), " ");
  const score = g.seats.map((s) => seatLabel(s) + " " + s.score).join(" – ");
  const seats = el("span");
  g.seats.forEach((s, i) => {
    if (i) seats.append(" – ");
    if (s.account) seats.append(accountMark(), " ");
    seats.append(seatLabel(s) + " " + s.score);
    if (clocks && hasClock(g.clock_state, i)) seats.append(" ", lobbyClock(g.clock_state, i));
  });
  li.append(seats, " ",
    el("span", "hint", variantName(g.variant) + " · " + lexiconName(g.lexicon) + " · " + t("playingMoves", g.moves || 0)), " ");
  const a = el("a", "button", t("watchGame"));
  a.href = "/g/" + g.id;
  a.setAttribute("aria-label", t("watchGame") + ": " + score);
  li.append(a);
  return li;
}

// LOBBY_CLOCKS_AT is when the lobby's clocks were read; LOBBY_TICK the
// timer that runs them down.
let LOBBY_CLOCKS_AT = 0, LOBBY_TICK = 0;

// lobbyClock is the time left of seat i of a game being played, as the
// clock c of the lobby's list says, to run down while the seat is on
// turn.
function lobbyClock(c, i) {
  const span = el("span", "lobby-clock");
  span.dataset.left = String(c.left_ms[i]);
  if (c.running === i) span.dataset.running = "1";
  return span;
}

// tickLobbyClocks shows the times left of the games being played (and of
// those of the players one follows), less
// the time since the lobby was read for the seats on turn, every second
// while the lobby shows.
function tickLobbyClocks() {
  clearTimeout(LOBBY_TICK);
  const since = performance.now() - LOBBY_CLOCKS_AT;
  let running = false;
  for (const span of document.querySelectorAll("#playing-games .lobby-clock, #follows-lobby .lobby-clock")) {
    const on = span.dataset.running === "1";
    const left = Number(span.dataset.left) - (on ? since : 0);
    span.textContent = clockText(left);
    span.classList.toggle("running", on);
    span.classList.toggle("overtime", left < 0);
    span.setAttribute("aria-label", t("timeLeft", span.textContent));
    running = running || on;
  }
  if (running && !$("#lobby").hidden) LOBBY_TICK = setTimeout(tickLobbyClocks, 1000);
}

// ---------- the leaderboard ----------

// PACES are the paces of rated play, fastest first: a rated game moves
// its players' ratings in its word list and pace, named by its clock.
const PACES = ["blitz", "rapid", "regular", "correspondence", "computer"];

function paceName(p) { return PACES.includes(p) ? t("pace_" + p) : p || ""; }

// ratedLabel marks a rated game (a state or a lobby's entry) with its
// pace: "Rated · Blitz".
function ratedLabel(g) { return t("rated") + (g.pace ? " · " + paceName(g.pace) : ""); }

// fillPaces lists the paces in sel (after "All", value "", with all) and
// chooses the first of prefer that is one of them (else the first).
function fillPaces(sel, all, ...prefer) {
  sel.textContent = "";
  if (all) sel.append(new Option(t("paceAll"), ""));
  for (const p of PACES) sel.append(new Option(paceName(p), p));
  const values = [...sel.options].map((o) => o.value);
  sel.value = prefer.find((v) => typeof v === "string" && values.includes(v)) ?? values[0];
}

// fillLeadersLexicons lists every word list offered, the last one shown
// (or the new game's) first chosen.
function fillLeadersLexicons() {
  const ls = $("#leaders-lexicon");
  const keep = ls.value;
  ls.textContent = "";
  const seen = [];
  for (const v of INFO.variants) {
    for (const l of v.lexicons || [v.default_lexicon]) {
      if (seen.includes(l)) continue;
      seen.push(l);
      const o = el("option", "", lexiconName(l));
      o.value = l;
      ls.append(o);
    }
  }
  ls.value = [keep, localStorage.getItem("atril:leaders"), $("#lexicon").value, seen[0]].find((n) => n && seen.includes(n));
  const ps = $("#leaders-pace");
  fillPaces(ps, false, ps.value, localStorage.getItem("atril:leaders-pace"), "regular");
}

// LEADERS is the leaderboard shown (rated games' or puzzles'), drawn
// again in another language.
let LEADERS = null;

async function loadLeaders() {
  const lexicon = $("#leaders-lexicon").value, kind = $("#leaders-kind").value, pace = $("#leaders-pace").value;
  if (!lexicon) return;
  const puzzles = kind !== "games";
  $("#leaders-pace").hidden = $("#leaders-pace-label").hidden = puzzles;
  const url = puzzles ? "/api/puzzles/" + encodeURIComponent(lexicon) + "/leaders" + (kind === "endgames" ? "?kind=endgame" : "")
    : "/api/leaderboard?lexicon=" + encodeURIComponent(lexicon) + "&pace=" + encodeURIComponent(pace);
  try {
    const b = await api("GET", url);
    // Another was chosen meanwhile?
    if ($("#leaders-lexicon").value !== lexicon || $("#leaders-kind").value !== kind || (!puzzles && $("#leaders-pace").value !== pace)) return;
    LEADERS = Object.assign(b, { kind });
  } catch (e) {
    LEADERS = { lexicon, kind, pace, players: [], error: e.message };
  }
  showLeaders();
}

// leaderRow is a leaderboard's row: the rank, the player's name (a link
// to their page) and the figures after it.
function leaderRow(rank, name, ...figures) {
  const tr = el("tr");
  const who = el("td");
  const a = el("a", "", name);
  a.href = profileURL(name);
  who.append(a);
  tr.append(el("td", "n", String(rank)), who, ...figures.map((f) => f instanceof Node ? f : el("td", "n", String(f))));
  return tr;
}

function showLeaders() {
  if (!LEADERS) return;
  const puzzles = LEADERS.kind !== "games", endgames = LEADERS.kind === "endgames";
  const body = $("#leaders tbody");
  body.textContent = "";
  LEADERS.players.forEach((p, i) => body.append(leaderRow(i + 1, p.name, ratingCell(p, ratingText(p)), puzzles ? p.answered : p.games)));
  $("#leaders-count").textContent = t(endgames ? "lbEndgames" : puzzles ? "lbPuzzles" : "lbGames");
  $("#leaders-caption").textContent = t(endgames ? "lbEndgameCaption" : puzzles ? "lbPuzzleCaption" : "lbCaption", lexiconName(LEADERS.lexicon), paceName(LEADERS.pace));
  $("#leaders").hidden = !LEADERS.players.length;
  const empty = $("#leaders-empty");
  empty.hidden = LEADERS.players.length > 0;
  empty.textContent = LEADERS.error ? t("error", LEADERS.error) : t(endgames ? "endgameLeadersEmpty" : puzzles ? "puzzleLeadersEmpty" : "leadersEmpty");
}

// FINISHED holds the states of finished games "My games" listed.
const FINISHED = new Map();

// ACCOUNT_GAMES are the games of the signed-in account that this browser
// holds no token for, as the lobby last listed them.
let ACCOUNT_GAMES = new Set();
// mineRound counts the lobby's listings of "My games": an answer that
// comes after a newer listing began is dropped.
let mineRound = 0;

// loadMine lists the games of the seats this browser holds and, signed
// in, those its account took elsewhere (opened here, they get a token of
// this device's own).
async function loadMine() {
  const round = ++mineRound;
  const local = myGames().slice(0, 30).map((x) => ({ id: x.id, at: x.at || 0, token: tokenFor(x.id) }));
  const held = new Set(local.map((x) => x.id));
  let remote = [];
  if (ME.signed_in) {
    try {
      const r = await api("GET", "/api/me/games");
      const seen = new Set();
      for (const g of (r.invitations || []).concat(r.games || [])) {
        if (held.has(g.id) || seen.has(g.id)) continue;
        seen.add(g.id);
        remote.push({ id: g.id, at: Date.parse(g.joined) || 0, seat: g.seat, token: "" });
      }
    } catch (e) { remote = []; }
  }
  if (round !== mineRound) return;
  const had = ACCOUNT_GAMES.size;
  ACCOUNT_GAMES = new Set(remote.map((x) => x.id));
  // The open games list none of the account's own.
  if (had || ACCOUNT_GAMES.size) loadOpen();
  const list = local.concat(remote).sort((a, b) => b.at - a.at);
  const states = await Promise.all(list.map(async (x) => {
    // A finished game's state does not change: it is asked for once.
    if (FINISHED.has(x.id)) return FINISHED.get(x.id);
    try {
      const st = await api("GET", "/api/games/" + x.id, undefined, x.token);
      if (st.over) FINISHED.set(x.id, st);
      return st;
    }
    catch (e) { if (x.token && (e.status === 404 || e.status === 403)) forgetSeat(x.id); return null; }
  }));
  if (round !== mineRound) return;
  const cur = $("#my-current"), fin = $("#my-finished");
  cur.textContent = ""; fin.textContent = "";
  let n = 0, turns = 0;
  states.forEach((st, k) => {
    const x = list[k];
    if (!st) return;
    // A game of the account: its seat, as long as the account holds it.
    const me = st.you ? st.you.seat : x.token ? -1 : x.seat;
    const seat = st.seats[me];
    // A seat kept for the account is an invitation, to accept or decline.
    const invited = !st.you && !!seat && seat.invited && seat.name === ME.name;
    if (me < 0 || !seat || (!st.you && !invited && !(seat.account && seat.name === ME.name))) return;
    n++;
    const li = el("li");
    const a = el("a", "", st.seats.map((s, i) => (i === me ? t("you") : displayName(s))).join(" – "));
    a.href = "/g/" + st.id;
    li.append(a, " ", el("span", "hint", variantName(st.variant) + " · " + st.seats.map((s) => s.score).join(":")), " ");
    let status;
    if (st.aborted) status = t("abortedLine");
    else if (st.abandoned) status = t("abandonedLine");
    else if (st.over && !(st.winners || []).length) status = t("over");
    else if (st.over) status = st.winners.length > 1 ? t("tie") : st.winners[0] === me ? t("won") : t("lost");
    else if (invited && st.tournament) status = t("tInvited", st.tournament.name, st.tournament.round);
    else if (invited) status = t("invitedBy", seat.invited_by || displayName(st.seats.find((s) => s.taken) || st.seats[0]));
    else if (!st.started) status = t("waiting");
    else status = st.turn === me ? t("yourTurn") : t("theirTurn", displayName(st.seats[st.turn]));
    const waitsForMe = !st.over && (invited || st.started && st.turn === me);
    if (waitsForMe) turns++;
    li.append(el("strong", waitsForMe ? "turn-mark" : "", status), " ");
    // The time left of the clock running, as the state had it.
    if (!st.over && st.clock && st.clock.running >= 0) li.append(el("span", "hint", t("leftOnClock", clockText(st.clock.left_ms[st.clock.running]))), " ");
    if (invited && !st.over) {
      // Declining a tournament's game forfeits it.
      const yes = el("button", "small", t("acceptInvite")), no = el("button", "small", t(st.tournament ? "tForfeitButton" : "declineInvite"));
      yes.type = no.type = "button";
      yes.addEventListener("click", () => answerInvitation(st.id, me, true));
      no.addEventListener("click", () => { if (!st.tournament || confirm(t("tForfeitSure"))) answerInvitation(st.id, me, false); });
      li.append(yes, " ", no);
    } else if (x.token) {
      const copy = el("button", "small", t("copyResume"));
      copy.type = "button";
      copy.addEventListener("click", async () => { if (await copyText(resumeURL(st.id, tokenFor(st.id)))) copy.textContent = t("copied"); });
      li.append(copy);
    } else {
      // No personal link here yet: opening the game gets one.
      li.append(el("span", "hint", t("viaAccount")));
    }
    (st.over ? fin : cur).append(li);
  });
  $("#mine-empty").hidden = n > 0;
  // The lobby's title counts the games waiting for one's move.
  if (!$("#lobby").hidden) document.title = turns ? "(" + turns + ") atril" : "atril";
  cur.previousElementSibling.hidden = !cur.children.length;
  fin.previousElementSibling.hidden = !fin.children.length;
}

// answerInvitation takes the seat an invitation keeps for the account
// and opens the game, or declines it (which calls the game off).
async function answerInvitation(id, seat, accept) {
  try {
    if (accept) {
      const j = await api("POST", "/api/games/" + id + "/join", { seat });
      rememberSeat(id, j.token);
      location.href = "/g/" + id;
      return;
    }
    await api("POST", "/api/games/" + id + "/decline");
    loadMine();
  } catch (e) {
    say(t("error", accountReason(e.message)), "error");
  }
}

// ---------- game ----------

const G = {
  id: "", token: "", st: null, seq: -1, gameLang: "en",
  rack: [],        // local order: {letter, score, blank}
  leaving: new Set(), // the rack tiles of a move sent, until the new rack comes
  pending: [],     // {i (rack index), row, col, letter (chosen), blank}
  selected: -1,    // rack index chosen by a click
  exchanging: false, marked: new Set(),
  cursor: null,    // {r, c, down}
  typed: [],       // rack indexes placed by typing since the cursor was set
  announced: -1,   // history entries already told in the message line
  ws: null, wsFails: 0, spectatorTimer: null,
  preview: null,   // {key, data}
  previewTimer: null,
  clockAt: 0, clockTimer: null, clockAsked: false, rematchPoll: null, chatKey: "", kibitzKey: "",
  summary: null, summaryAsked: "", seenMoves: -1, chimes: 0, notified: 0, audio: null,
  review: null,    // {data, moves: [turn indexes], k, cache: {}}
  claimed: false,  // a token of this device's own was asked for the account's seat
  seatError: null, // why it was refused
  puzzle: null,    // on a puzzle's page: {lexicon, number, today, answer}
  rush: null,      // in a puzzle rush: {id, run (the API's RushInfo), log of answers, busy}
  position: null,  // on the analysis board: {cgp, lexicon, log: [{cgp, move, kind, score}], result}
};

async function showGame(id) {
  G.id = id;
  // A personal link carries the seat's token after "#seat=": keep it
  // and take it out of the address bar.
  const hm = location.hash.match(/^#seat=([0-9a-f]+)$/);
  if (hm) {
    rememberSeat(id, hm[1]);
    history.replaceState(null, "", location.pathname);
  }
  G.token = tokenFor(id);
  let st;
  try {
    st = await api("GET", "/api/games/" + id, undefined, G.token);
    // A seat of the signed-in account that this browser holds no token
    // for: the page asks for one of its own and plays that seat.
    if (!G.token && accountSeats(st).length) {
      try {
        await claimSeat(st);
        st = await api("GET", "/api/games/" + id, undefined, G.token);
      } catch (e) {
        if (G.token) throw e;
        G.seatError = e;
      }
    }
  } catch (e) {
    if (e.status === 403 && G.token && !G.claimed) { forgetSeat(id); G.token = ""; return showGame(id); }
    LANG = pickLang(null);
    translatePage();
    $("#main").textContent = e.status === 404 ? t("notFound") : t("error", e.message);
    return;
  }
  G.gameLang = VARIANT_LANG[st.variant] || "en";
  LANG = pickLang(G.gameLang);
  translatePage();
  // The join page offers a free seat, unless the account's own could not
  // be opened here: then the page says why.
  if (!G.token && !G.seatError && !st.over && st.seats.some((s) => s.kind === "human" && !s.taken)) return showJoin(st);
  $("#game").hidden = false;
  buildBoard(st);
  wireGame();
  render(st);
  listen();
  if (G.seatError) say(seatKeyText(), "error");
  if (st.over && /^#review/.test(location.hash)) startReview(parseInt(location.hash.slice(8), 10) || 0);
}

// JOINING is the game the join page offers a seat of.
let JOINING = null;

function showJoin(st) {
  JOINING = st;
  $("#join").hidden = false;
  const host = st.seats.find((s) => s.taken) || st.seats[0];
  $("#join-title").textContent = st.tournament ? t("tGameOf", st.tournament.name, st.tournament.round) : t("joinTitle", seatLabel(host));
  let what = t("joinWhat", variantName(st.variant), lexiconName(st.lexicon));
  const secs = st.clock ? Math.max(...st.clock.seconds) : 0;
  const perMove = st.clock && st.clock.per_move ? Math.max(...st.clock.per_move) : 0;
  const inc = st.clock && st.clock.increment ? Math.max(...st.clock.increment) : 0;
  if (secs > 0) what += " " + t(inc ? "joinClockInc" : "joinClock", Math.round(secs / 60), Math.round(Math.max(...st.clock.overtime) / 60), inc);
  else if (perMove > 0) what += " " + t("joinPerMove", perMoveText(perMove));
  if (st.challenge) what += " " + t("joinRule", t("ruleShort_" + st.challenge)) + " " + t("challengeDesc") + " " + t("challengeWhy_" + st.challenge);
  if (st.rated) what += " " + t("joinRated", paceName(st.pace));
  const range = st.seats.filter((x) => !x.taken).map(rangeText).find((x) => x);
  if (range) what += " " + t("joinRange", range);
  $("#join-what").textContent = what;
  document.title = $("#join-title").textContent + " – atril";
  $("#join-name").value = localStorage.getItem("atril:name") || "";
  renderJoinForm(st);
  $("#watch-link").addEventListener("click", (ev) => {
    ev.preventDefault();
    $("#join").hidden = true;
    $("#game").hidden = false;
    buildBoard(st); wireGame(); render(st); listen();
  });
  $("#join-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    $("#join-button").disabled = true;
    try {
      // A signed-in person's seat takes the account's name.
      const name = ME.signed_in ? ME.name : $("#join-name").value.trim();
      if (!ME.signed_in) localStorage.setItem("atril:name", name);
      const j = await api("POST", "/api/games/" + st.id + "/join", { name });
      rememberSeat(st.id, j.token);
      location.reload();
    } catch (e) { say(t("error", accountReason(e.message)), "error"); $("#join-button").disabled = false; }
  });
}

// renderJoinForm asks a guest's name, or says under which account the
// seat is taken; a rated game asks a guest to sign in first.
function renderJoinForm(st) {
  const on = !!ME.signed_in;
  const blocked = !!st.rated && !on;
  $("#join-form").hidden = blocked;
  $("#join-need").hidden = !blocked;
  $("#join-name-label").hidden = on;
  $("#join-name").hidden = on;
  $("#join-as").hidden = !on;
  if (on) $("#join-as").textContent = t("playAs", ME.name);
}

// ---------- the board ----------

function buildBoard(st) {
  const b = $("#board");
  b.textContent = "";
  b.style.setProperty("--n", st.size);
  b.setAttribute("aria-label", t("board"));
  const head = el("div", "brow");
  head.setAttribute("role", "row");
  const corner = el("div", "coord corner");
  corner.setAttribute("role", "columnheader");
  const cornerLabel = el("span", "sr-only", t("board"));
  cornerLabel.dataset.t = "board"; // (a change of language names it anew)
  corner.append(cornerLabel);
  head.append(corner);
  for (let c = 0; c < st.size; c++) {
    const h = el("div", "coord", colName(c));
    h.setAttribute("role", "columnheader");
    head.append(h);
  }
  b.append(head);
  const sq = gameT("squares");
  for (let r = 0; r < st.size; r++) {
    const row = el("div", "brow");
    row.setAttribute("role", "row");
    const rh = el("div", "coord", String(r + 1));
    rh.setAttribute("role", "rowheader");
    row.append(rh);
    for (let c = 0; c < st.size; c++) {
      const code = st.premiums[r].slice(2 * c, 2 * c + 2);
      const cell = el("div", "sq" + (code !== ".." ? " " + code : ""));
      cell.dataset.r = r; cell.dataset.c = c;
      cell.setAttribute("role", "gridcell");
      cell.tabIndex = -1;
      // The square's name for screen readers is this hidden text; what
      // shows (premium, tile) is hidden from them.
      cell.append(el("span", "sr-only"));
      let label = sqName(r, c);
      if (r === st.start[0] && c === st.start[1]) {
        cell.classList.add("start");
        label += ", " + sq.start;
      }
      if (code !== "..") {
        const pr = el("span", "prem", sq[code][0]);
        pr.setAttribute("aria-hidden", "true");
        cell.append(pr);
        label += ", " + sq[code][0] + " (" + sq[code][1] + ")";
      }
      cell.dataset.label = label;
      cell.addEventListener("click", () => clickSquare(r, c));
      cell.addEventListener("focus", () => {
        if (G.review || (G.cursor && G.cursor.r === r && G.cursor.c === c)) return;
        setCursor(r, c, G.cursor ? G.cursor.down : false, false);
        G.justFocused = true;
      });
      row.append(cell);
    }
    b.append(row);
  }
  const s0 = square(st.start[0], st.start[1]);
  if (s0) s0.tabIndex = 0;
}

function square(r, c) { return $(`#board .sq[data-r="${r}"][data-c="${c}"]`); }
function inBoard(r, c) { return G.st && r >= 0 && c >= 0 && r < G.st.size && c < G.st.size; }
function boardTileAt(r, c) { return G.st.board.find((x) => x.row === r && x.col === c); }
function pendingAt(r, c) { return G.pending.find((p) => p.row === r && p.col === c); }
function occupied(r, c) { return !!(boardTileAt(r, c) || pendingAt(r, c)); }

// tileEl draws a tile. Only a rack tile (a button, tag) is seen by
// screen readers, through the name given to it (label).
function tileEl(letter, score, blank, tag, label) {
  const d = el(tag || "div", "tile" + (blank ? " blank" : "") + ([...letter].length > 1 ? " multi" : ""));
  const face = [el("span", "l", letter === "?" ? "" : letter)];
  if (!blank && score) face.push(el("span", "pts", String(score)));
  if (tag) {
    d.append(el("span", "sr-only", label || letter));
    face.forEach((x) => x.setAttribute("aria-hidden", "true"));
  } else {
    d.setAttribute("aria-hidden", "true");
  }
  d.append(...face);
  return d;
}

function seatName(i) {
  const s = G.st.seats[i];
  return G.st.you && G.st.you.seat === i ? displayName(s) + " (" + t("you") + ")" : displayName(s);
}

// VOWELS are the vowels of each game language's tiles (in Czech, Y and
// the marked vowels too).
const VOWELS = {
  en: new Set("AEIOU"),
  es: new Set("AEIOU"),
  cs: new Set("AÁEÉĚIÍOÓUÚŮYÝ"),
};

function keyOfRack(rack) { return rack.map((x) => x.letter).sort().join(","); }

// ---------- the rack's order ----------
// The player arranges the rack: a tile dragged along it, Shift+arrow on a
// focused tile, Shuffle, Sort. The order outlasts a move (the tiles kept
// stay in their order, the ones drawn come after them) and a reload (the
// browser keeps the order of the latest racks, per game and seat).

const RACKS_KEPT = 50;

// arrangeRack lays the tiles of fresh (the server's rack) in the order of
// old: the tiles old has, in its order, then the rest (the tiles just
// drawn) in fresh's order. It returns the rack and how many were drawn.
function arrangeRack(old, fresh) {
  const left = fresh.slice();
  const out = [];
  for (const x of old) {
    const k = left.findIndex((y) => y.letter === x.letter && !!y.blank === !!x.blank);
    if (k >= 0) out.push(left.splice(k, 1)[0]);
  }
  return [out.concat(left), left.length];
}

function rackOrders() {
  try { return JSON.parse(localStorage.getItem("atril:racks") || "[]"); } catch (e) { return []; }
}
function rackOrderKey(st) { return G.id + "/" + st.you.seat; }

// savedRackOrder is the order this browser kept for the seat's rack, as
// tiles arrangeRack can follow.
function savedRackOrder(st) {
  const kept = rackOrders().find((x) => x.k === rackOrderKey(st));
  return kept ? kept.tiles.map((x) => ({ letter: x.slice(1), blank: x[0] === "?" })) : [];
}

function saveRackOrder() {
  if (!G.st || !G.st.you || !G.id || G.position || G.puzzle || G.rush) return;
  const key = rackOrderKey(G.st);
  const list = rackOrders().filter((x) => x.k !== key);
  list.unshift({ k: key, tiles: G.rack.map((x) => (x.blank ? "?" : "=") + x.letter) });
  try { localStorage.setItem("atril:racks", JSON.stringify(list.slice(0, RACKS_KEPT))); } catch (e) { /* full: the order is only a convenience */ }
}

// permuteRack reorders the rack: order lists the old indexes in their new
// places. Tiles on the board, chosen or marked for an exchange stay so.
function permuteRack(order) {
  const where = new Map(order.map((old, k) => [old, k]));
  G.rack = order.map((k) => G.rack[k]);
  G.pending.forEach((p) => { p.i = where.get(p.i); });
  G.typed = G.typed.map((i) => where.get(i));
  if (G.selected >= 0) G.selected = where.get(G.selected);
  G.marked = new Set([...G.marked].map((i) => where.get(i)));
  saveRackOrder();
  changed();
}

// moveRackTile moves rack tile i to place to (counted among the others).
function moveRackTile(i, to) {
  const order = G.rack.map((_, k) => k).filter((k) => k !== i);
  order.splice(Math.max(0, Math.min(order.length, to)), 0, i);
  permuteRack(order);
}

// rackOrder lists the indexes of rack's tiles in the order the player's
// settings ask: the alphabet's, or vowels first (each part in the
// alphabet's order); blanks last.
function rackOrder(rack) {
  const rank = new Map(G.st.letters.map((x, k) => [x.letter, k]));
  const vowels = SETTINGS.rack_order === "vowels" ? VOWELS[G.gameLang] || VOWELS.en : new Set();
  const n = G.st.letters.length;
  const at = (x) => (x.blank ? 3 * n : (vowels.has(x.letter) ? 0 : n) + (rank.has(x.letter) ? rank.get(x.letter) : n));
  return rack.map((_, k) => k).sort((a, b) => at(rack[a]) - at(rack[b]) || a - b);
}

// sortRack puts the rack in the order of rackOrder.
function sortRack() { permuteRack(rackOrder(G.rack)); }

// rackSlot is the place among the other rack tiles (all but tile i) that
// a tile dropped at x goes to.
function rackSlot(i, x) {
  let slot = 0;
  document.querySelectorAll("#rack .tile").forEach((d) => {
    if (+d.dataset.i === i) return;
    const b = d.getBoundingClientRect();
    if (b.x + b.width / 2 < x) slot++;
  });
  return slot;
}

// markRackSlot shows where a dragged tile would go on the rack (slot -1:
// nowhere).
function markRackSlot(i, slot) {
  const others = [...document.querySelectorAll("#rack .tile")].filter((d) => +d.dataset.i !== i);
  others.forEach((d, k) => {
    d.classList.toggle("drop-before", k === slot);
    d.classList.toggle("drop-after", slot === others.length && k === others.length - 1);
  });
}

// ---------- rendering ----------

function render(st) {
  const prev = G.st;
  G.st = st;
  if (typeof st.seq === "number") G.seq = Math.max(G.seq, st.seq);
  const me = st.you ? st.you.seat : -1;
  if (st.you && keyOfRack(st.you.rack) !== keyOfRack(G.rack)) {
    const old = G.rack.length ? G.rack.filter((x) => !G.leaving.has(x)) : savedRackOrder(st);
    let drawn;
    [G.rack, drawn] = arrangeRack(old, st.you.rack);
    // A rack with tiles just drawn is laid out as the settings ask.
    if (SETTINGS.rack_order && drawn > 0) {
      const order = rackOrder(G.rack);
      G.rack = order.map((k) => G.rack[k]);
    }
    G.leaving = new Set();
    G.pending = []; G.selected = -1; G.marked.clear(); G.typed = [];
    saveRackOrder();
  }
  G.pending = G.pending.filter((p) => !boardTileAt(p.row, p.col));
  if (st.over) { G.pending = []; G.exchanging = false; }
  announce(prev, st, me);
  if (!G.review) renderBoard();
  renderRack();
  renderSide(st, me);
  schedulePreview();
}

// announce says what the others did since the last render (the latest
// of their moves), replacing our own last message; the message stays
// while only our own move is new.
function announce(prev, st, me) {
  if (G.announced >= 0 && st.history.length > G.announced) {
    const fresh = st.history.slice(G.announced);
    const played = fresh.filter((h) => h.kind === "place" || h.kind === "exchange" || h.kind === "pass");
    const h = played[played.length - 1];
    const back = fresh.find((x) => x.kind === "withdrawn");
    const good = fresh.find((x) => x.kind === "challenge_bonus" || x.kind === "lost_turn");
    if (back && !played.some((x) => fresh.indexOf(x) > fresh.indexOf(back))) {
      const words = (back.words || []).join(", ");
      if (back.seat === me) say(msgNodes(t("youWithdrawn", "{0}", "{1}"), moveNode(back.move), words), "error");
      else say(msgNodes(t("theyWithdrawn", "{0}", "{1}", "{2}"), displayName(st.seats[back.seat]), moveNode(back.move), words));
    } else if (good && !played.some((x) => fresh.indexOf(x) > fresh.indexOf(good))) {
      const k = st.history.lastIndexOf(st.history.filter((x) => x.kind === "place").pop());
      say(msgNodes(t("challengeGood", "{0}"), moveNode(k >= 0 ? st.history[k].move : "")));
    } else if (h && h.seat !== me) {
      const who = displayName(st.seats[h.seat]);
      if (h.kind === "place") say(msgNodes(t("theyPlayed", "{0}", "{1}", "{2}"), who, moveNode(h.move), h.points));
      else if (h.kind === "exchange") say(t("theyExchanged", who, h.count));
      else say(t("theyPassed", who));
    }
  }
  G.announced = st.history.length;
}

function lastPlacementMove() {
  let best = -1;
  for (const x of G.st.board) if (typeof x.move === "number" && x.move > best) best = x.move;
  return best;
}

function renderBoard() {
  const st = G.st;
  $("#board").setAttribute("aria-label", t("board"));
  document.querySelectorAll("#board .tile, #board .bubble").forEach((x) => x.remove());
  document.querySelectorAll("#board .sq.cursor").forEach((x) => { x.classList.remove("cursor", "down"); });
  const last = lastPlacementMove();
  for (const x of st.board) {
    const d = tileEl(x.letter, x.score, x.blank);
    if (last >= 0 && x.move === last) d.classList.add("last");
    square(x.row, x.col).append(d);
  }
  for (const p of G.pending) {
    const rt = G.rack[p.i];
    const d = tileEl(p.letter, rt.score, p.blank);
    d.classList.add("pending");
    d.addEventListener("pointerdown", (ev) => startDrag(ev, p.i));
    square(p.row, p.col).append(d);
  }
  // The cursor shows only while tiles can be placed (not once the game
  // is over, nor to a spectator).
  const showCursor = !!G.cursor && playable();
  labelSquares((r, c) => boardTileAt(r, c), (r, c) => pendingAt(r, c), showCursor);
  if (showCursor) {
    const cell = square(G.cursor.r, G.cursor.c);
    cell.classList.add("cursor");
    if (G.cursor.down) cell.classList.add("down");
  }
  // The preview's score, on the edge between the word's last tile and
  // the empty square after it.
  document.querySelectorAll("#board .sq.has-bubble").forEach((x) => x.classList.remove("has-bubble"));
  if (G.preview && G.preview.data && G.preview.key === pendingKey() && G.pending.length) {
    const at = bubbleSpot();
    const b = el("span", "bubble " + at.side + (G.preview.data.ok ? "" : " bad"), G.preview.data.ok ? String(G.preview.data.score) : "?");
    b.setAttribute("aria-hidden", "true");
    const cell = square(at.r, at.c);
    cell.classList.add("has-bubble");
    cell.append(b);
  }
}

// bubbleSpot is where the preview's score goes: the tile that ends the
// word the pending tiles make (side "right" across, "below" down), over
// its edge with the empty square after it; when the word reaches the
// board's edge, the tile that starts it ("left", "above"). Those squares
// are empty, so the score covers no letter and no points.
function bubbleSpot() {
  const ps = G.pending;
  let down = ps.length > 1 && ps.every((p) => p.col === ps[0].col);
  if (ps.length === 1) {
    const { row: r, col: c } = ps[0];
    down = !occupied(r, c - 1) && !occupied(r, c + 1) && (occupied(r - 1, c) || occupied(r + 1, c));
  }
  const along = (p) => (down ? p.row : p.col);
  const last = ps.reduce((a, b) => (along(b) > along(a) ? b : a)), first = ps.reduce((a, b) => (along(b) < along(a) ? b : a));
  const walk = (p, k) => {
    let [r, c] = [p.row, p.col];
    for (;;) {
      const [nr, nc] = step(r, c, down, k);
      if (!inBoard(nr, nc)) return { r, c, edge: true };
      if (!occupied(nr, nc)) return { r, c, edge: false };
      [r, c] = [nr, nc];
    }
  };
  const end = walk(last, 1);
  if (!end.edge) return { r: end.r, c: end.c, side: down ? "below" : "right" };
  const start = walk(first, -1);
  if (!start.edge) return { r: start.r, c: start.c, side: down ? "above" : "left" };
  return { r: end.r, c: end.c, side: "inside" };
}

// labelSquares names every square for screen readers: its name and
// premium, or the tile on it (placed, or just put down), and the cursor.
function labelSquares(tileAt, pendingTileAt, cursor) {
  document.querySelectorAll("#board .sq").forEach((cell) => {
    const r = +cell.dataset.r, c = +cell.dataset.c;
    const bt = tileAt(r, c), p = pendingTileAt(r, c);
    let label = cell.dataset.label;
    if (bt) label = t("sqTile", sqName(r, c), bt.blank ? t("blankAs", bt.letter.toUpperCase()) : bt.letter);
    else if (p) label = t("sqPending", sqName(r, c), p.blank ? t("blankAs", p.letter) : p.letter);
    const isCur = cursor && G.cursor && G.cursor.r === r && G.cursor.c === c;
    if (isCur) label += ", " + t(G.cursor.down ? "cursorDown" : "cursorAcross");
    if (cell.firstChild.textContent !== label) cell.firstChild.textContent = label;
    cell.setAttribute("aria-selected", isCur ? "true" : "false");
  });
}

function renderRack() {
  const st = G.st;
  const rack = $("#rack");
  rack.textContent = "";
  rack.setAttribute("aria-label", t("rack"));
  rack.style.setProperty("--rack", st.rack_size);
  G.rack.forEach((x, i) => {
    const d = tileEl(x.letter, x.score, x.blank, "button", x.blank ? t("rackBlank") : t("rackTile", x.letter, x.score));
    d.type = "button";
    d.dataset.i = i;
    const used = G.pending.some((p) => p.i === i);
    if (used) { d.classList.add("used"); d.tabIndex = -1; d.setAttribute("aria-hidden", "true"); }
    if (i === G.selected) d.classList.add("selected");
    if (G.exchanging || G.selected >= 0) d.setAttribute("aria-pressed", String(i === G.selected || G.marked.has(i)));
    if (G.marked.has(i)) d.classList.add("marked");
    d.addEventListener("pointerdown", (ev) => startDrag(ev, i));
    d.addEventListener("click", (ev) => { if (ev.detail === 0) clickRack(i); }); // keyboard
    rack.append(d);
  });
  renderDigraph();
}

function renderSide(st, me) {
  const myTurn = st.started && !st.over && st.turn === me;
  document.title = myTurn ? t("titleTurn") + " atril" : "atril";
  // A sound when the turn comes back to us after the others' moves (not
  // for the state the page opens with, however few states it saw).
  if (G.seenMoves >= 0 && myTurn && st.moves > G.seenMoves) {
    chime();
    notifyTurn(st, me);
  }
  G.seenMoves = st.moves;
  $("#sound").hidden = me < 0;
  $("#sound").textContent = t(soundOn() ? "soundOn" : "soundOff");
  $("#sound").setAttribute("aria-pressed", String(soundOn()));
  $("#notify").hidden = me < 0 || st.over || !("Notification" in window) || Notification.permission === "denied";
  $("#notify").textContent = t(notifyOn() ? "notifyOn" : "notifyOff");
  $("#notify").setAttribute("aria-pressed", String(notifyOn()));
  $("#game-title").textContent = t("gameTitle", variantName(st.variant)) + (st.challenge ? " · " + t("ruleShort_" + st.challenge) : "") +
    (st.rated ? " · " + ratedLabel(st) : "");
  $("#rated-tag").hidden = !st.rated;
  $("#rated-badge").textContent = ratedLabel(st);
  $("#imported-tag").hidden = !st.imported;
  $("#tourney-tag").hidden = !st.tournament;
  if (st.tournament) {
    $("#tourney-link").href = "/t/" + st.tournament.id;
    $("#tourney-link").textContent = t("tGameOf", st.tournament.name, st.tournament.round);
  }
  // Scores.
  const sc = $("#scores");
  sc.textContent = "";
  const scores = G.review ? reviewScores() : st.seats.map((s) => s.score);
  st.seats.forEach((s, i) => {
    const onTurn = G.review ? reviewSeat() === i : st.started && !st.over && st.turn === i;
    const d = el("div", "score" + (onTurn ? " on-turn" : ""));
    // The name, the mark of a signed-in player and the rating it had
    // when it sat down.
    const nm = el("span", "seat");
    if (s.account) nm.append(accountMark(), " ");
    nm.append(seatLabel(s) + (me === i ? " (" + t("you") + ")" : ""));
    d.append(nm);
    if (hasClock(st.clock, i) && !G.review) {
      const c = el("span", "clock");
      c.dataset.seat = i;
      d.append(c);
    }
    d.append(el("span", "n", String(scores[i])));
    sc.append(d);
  });
  G.clockAt = performance.now();
  G.clockAsked = false;
  tickClocks();
  renderChat(st, me);
  renderKibitz(st, me);
  // The turn line says only "Game over." at the end: the result box
  // says how it ended.
  let turn = "";
  if (st.over) turn = t("over");
  else if (!st.started) {
    const kept = st.seats.find((s) => s.invited);
    turn = kept ? t("waitingFor", displayName(kept)) : t("waiting");
  } else if (myTurn) turn = t("yourTurn");
  else if (st.seats[st.turn].kind === "computer") turn = t("thinking", displayName(st.seats[st.turn]));
  else turn = t("theirTurn", displayName(st.seats[st.turn]));
  $("#turn").textContent = turn;
  if (me < 0 && !st.over) $("#turn").append(" ", el("span", "spectator", t("spectator") + " " + (G.seatError ? seatKeyText() : t("spectatorMine"))));
  $("#turn").classList.toggle("mine", myTurn);
  renderWatching(st);
  const waitingForPerson = !st.started && me >= 0 && !st.over;
  $("#share").hidden = !waitingForPerson;
  if (waitingForPerson) $("#share-url").value = location.origin + "/g/" + st.id;
  $("#rack-area").hidden = !st.you || st.over;
  for (const b of ["#submit", "#recall", "#shuffle", "#exchange", "#pass", "#exchange-go"]) $(b).disabled = !st.started || st.over;
  for (const b of ["#submit", "#exchange", "#pass", "#exchange-go"]) if (!myTurn || st.awaiting_challenge) $(b).disabled = true;
  // A play the seat on turn may challenge (or, when it went out, must
  // challenge or accept).
  const open = myTurn && typeof st.challengeable === "number" ? st.history[st.challengeable] : null;
  $("#challenge-bar").hidden = !open;
  if (open) {
    const who = displayName(st.seats[open.seat]);
    $("#challenge-say").textContent = st.awaiting_challenge ? t("outAwaits", who) : t("mayChallenge", open.move);
    $("#accept-btn").hidden = !st.awaiting_challenge;
  }
  $("#exchange").disabled = $("#exchange").disabled || st.bag < 7;
  $("#exchange-bar").hidden = !G.exchanging;
  $("#buttons").hidden = G.exchanging;
  $("#resign").hidden = !(me >= 0 && st.started && !st.over);
  renderHint(st, me);
  renderTakeback(st, me);
  coach(st, me);
  // A tournament's game is not called off: it would be forfeited (an
  // opponent who never comes forfeits it by the server's wait).
  $("#abort").hidden = !(me >= 0 && !st.over && st.moves === 0 && !st.tournament);
  $("#resume-box").hidden = me < 0 || st.over;
  if (me >= 0) $("#resume-url").value = resumeURL(st.id, G.token);
  renderMoves(st);
  // Bag and unseen tiles.
  $("#bag").textContent = t("bag", st.bag);
  const un = $("#unseen");
  un.textContent = "";
  let n = 0;
  if (st.you) {
    for (const u of st.you.unseen) {
      const chip = el("span", "chip");
      chip.setAttribute("role", "img");
      chip.setAttribute("aria-label", (u.letter === "?" ? t("rackBlank") : u.letter) + " × " + u.count);
      const d = tileEl(u.letter, u.score, u.letter === "?");
      d.classList.add("mini");
      chip.append(d, el("span", "cnt", u.count > 1 ? "×" + u.count : ""));
      un.append(chip);
      n += u.count;
    }
  }
  $("#unseen-count").textContent = st.you ? "(" + n + ")" : "";
  // The balance of what is left to draw, as players weigh a leave by it.
  const vowels = VOWELS[G.gameLang] || VOWELS.en;
  let nv = 0, nb = 0;
  for (const u of st.you ? st.you.unseen : []) {
    if (u.letter === "?") nb += u.count;
    else if (vowels.has(u.letter)) nv += u.count;
  }
  $("#pool-balance").textContent = st.you ? t("poolBalance", nv, n - nv - nb, nb) : "";
  $("#pool-balance").hidden = !st.you || st.over;
  un.previousElementSibling.hidden = !st.you || st.over;
  un.hidden = st.over;
  $("#bag").hidden = st.over;
  $("#keys-box").hidden = !st.you || st.over;
  renderResult(st, me);
  if (G.puzzle) renderPuzzleSide();
  if (G.rush) renderRushSide();
  if (G.position) renderPositionSide();
}

function renderMoves(st) {
  const ml = $("#moves");
  ml.textContent = "";
  let moveNo = 0;
  const noted = new Set((st.notes || []).map((n) => n.entry));
  st.history.forEach((h, entry) => {
    const li = el("li");
    const row = el("div", "row");
    // The player's name gives way (cut short with an ellipsis on a
    // narrow screen) to the move, which stays on one line.
    const who = el("span", "who");
    const name = el("span", "nm", seatName(h.seat) + ":");
    name.title = seatName(h.seat);
    const what = el("span", "what" + (h.kind === "place" ? " one-line" : ""));
    switch (h.kind) {
      case "place": what.append(moveNode(h.move)); break;
      case "exchange": what.append(t("exchanged", h.count)); break;
      case "pass": what.append(t("passed")); break;
      case "out_bonus": what.append(t("outBonus", h.rack)); break;
      case "time_penalty": what.append(t("timePenalty")); break;
      case "withdrawn": what.append(...msgNodes(t("withdrawnLine", "{0}"), moveNode(h.move)), " ", el("span", "hint", t("notInList", (h.words || []).join(", ")))); break;
      case "challenge_bonus": what.append(t("challengeBonus")); break;
      case "lost_turn": what.append(t("lostTurn")); break;
      default: what.append(t("rackPenalty", h.rack));
    }
    who.append(name, what);
    if (noted.has(entry)) {
      const mark = el("span", "noted", " ✎");
      mark.title = t("hasNotes");
      mark.setAttribute("aria-label", t("hasNotes"));
      mark.setAttribute("role", "img");
      who.append(mark);
    }
    row.append(who, el("span", "pts", (h.points >= 0 ? "+" : "") + h.points + " = " + h.total));
    li.append(row);
    if (h.kind === "place" || h.kind === "exchange" || h.kind === "pass") {
      const k = moveNo++;
      li.dataset.k = k;
      if (st.over) {
        li.classList.add("link");
        li.tabIndex = 0;
        li.addEventListener("click", () => startReview(k));
        li.addEventListener("keydown", (e) => { if (e.key === "Enter") startReview(k); });
      }
      if (G.review && G.review.k === k) li.classList.add("current");
    }
    ml.append(li);
  });
  if (typeof st.resigned === "number") ml.append(el("li", "end", t("resignedLine", displayName(st.seats[st.resigned]))));
  if (typeof st.timed_out === "number") ml.append(el("li", "end", t("timedOutLine", displayName(st.seats[st.timed_out]))));
  if (!st.history.length && !st.over) ml.append(el("li", "hint none", t("noMoves")));
  // A game over with no move (called off, abandoned) has no move list.
  ml.previousElementSibling.hidden = st.over && !ml.children.length;
  const cur = ml.querySelector("li.current");
  ml.scrollTop = cur ? cur.offsetTop - ml.offsetTop - ml.clientHeight / 2 : ml.scrollHeight;
}

function renderResult(st, me) {
  const res = $("#result");
  res.hidden = !st.over || !!G.review;
  if (!st.over) return;
  res.textContent = "";
  let line;
  if (st.aborted) line = t("abortedLine");
  else if (st.abandoned) line = t("abandonedLine");
  else if (st.imported && (!st.winners || !st.winners.length)) line = t("importedOpen");
  else if (!st.winners || !st.winners.length) line = t("over");
  else if (st.winners.length > 1) line = t("tie");
  else if (me >= 0) line = st.winners[0] === me ? t("won") : t("lost");
  else line = t("winner", displayName(st.seats[st.winners[0]]));
  res.append(el("strong", "", line));
  if (typeof st.resigned === "number") res.append(el("p", "", t("resignedLine", displayName(st.seats[st.resigned]))));
  if (typeof st.timed_out === "number") res.append(el("p", "", t("timedOutLine", displayName(st.seats[st.timed_out]))));
  if (st.moves > 0) res.append(el("p", "", t("finalScores", st.seats.map((s, i) => seatName(i) + " " + s.score).join(", "))));
  if (st.rated) res.append(ratingChanges(st));
  // A practice game's takebacks are part of its record.
  if (st.takebacks) res.append(el("p", "hint", t("takebacksLine", st.takebacks)));
  const links = el("div", "links");
  if (st.moves > 0) {
    const rv = el("button", "primary", t("review"));
    rv.type = "button";
    rv.id = "review-button";
    rv.addEventListener("click", () => startReview(0));
    links.append(rv);
  }
  if (st.moves > 0) res.append(scoreGraph(st));
  if (st.moves > 0) showSummary(st, res);
  if (me >= 0) rematchLinks(st, res, links);
  const a = el("a", "", t("download"));
  a.href = "/api/games/" + st.id + "/gcg";
  a.id = "gcg-link";
  const anim = el("a", "", t("gameGif"));
  anim.href = "/api/games/" + st.id + "/game.gif";
  anim.id = "gif-link";
  anim.target = "_blank";
  anim.rel = "noopener";
  const again = el("a", "", t("newGameLink"));
  again.href = "/";
  // (The server animates a game of at most 150 moves: maxAnimatedMoves.)
  links.append(a, ...(st.moves > 0 && st.moves <= 150 ? [anim] : []), again);
  res.append(links);
}

// ratingChanges lists each seat's rating before and after a rated game
// ("Ana 1500 → 1488 (−12)"), or says that a game not played out changes
// none.
function ratingChanges(st) {
  const box = el("div", "rating-changes");
  box.id = "rating-changes";
  if (st.aborted || st.abandoned) {
    box.append(el("p", "", t("ratingUnchanged")));
    return box;
  }
  if (!st.rating_changes || !st.rating_changes.length) return box;
  box.append(el("p", "", t("ratingChanges")));
  const ul = el("ul");
  for (const c of st.rating_changes) {
    const d = c.after - c.before;
    ul.append(el("li", d > 0 ? "up" : d < 0 ? "down" : "", `${displayName(st.seats[c.seat])} ${c.before} → ${c.after} (${signedNumber(d)})`));
  }
  box.append(ul);
  return box;
}

// scoreGraph draws each seat's score after every turn (SVG), with a
// legend; the end-of-game adjustments are the last points.
function scoreGraph(st) {
  const pts = st.seats.map(() => [[0, 0]]);
  let x = 0;
  for (const h of st.history) {
    if (h.kind === "place" || h.kind === "exchange" || h.kind === "pass") x++;
    pts[h.seat].push([x, h.total]);
  }
  const ys = pts.flat().map((p) => p[1]);
  const svg = lineGraph(pts, Math.max(1, x), Math.min(0, ...ys), Math.max(10, ...ys), 0, 110,
    t("graphLabel", st.seats.map((s, i) => seatName(i) + " " + s.score).join(", ")));
  const legend = el("div", "legend");
  pts.forEach((p, i) => {
    const key = el("span", "key");
    key.append(el("span", "swatch s" + (i % 4)), seatName(i));
    legend.append(key);
  });
  const box = el("figure", "graph");
  box.id = "score-graph";
  box.append(svg, legend);
  return box;
}

// lineGraph is an SVG graph 320 wide and h high of lines of [x, y]
// points, x from 0 to maxX and y from minY to maxY, the i-th line of
// class "line s(i mod 4)", with a level axis at y = axisY, labelled for
// those who do not see it.
function lineGraph(lines, maxX, minY, maxY, axisY, h, label) {
  const W = 320, P = 4;
  const sx = (v) => (P + (W - 2 * P) * v / maxX).toFixed(1);
  const sy = (v) => (h - P - (h - 2 * P) * (v - minY) / (maxY - minY)).toFixed(1);
  const NS = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", `0 0 ${W} ${h}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", label);
  const axis = document.createElementNS(NS, "line");
  axis.setAttribute("class", "axis");
  axis.setAttribute("x1", sx(0)); axis.setAttribute("x2", sx(maxX));
  axis.setAttribute("y1", sy(axisY)); axis.setAttribute("y2", sy(axisY));
  svg.append(axis);
  lines.forEach((p, i) => {
    const line = document.createElementNS(NS, "polyline");
    line.setAttribute("class", "line s" + (i % 4));
    line.setAttribute("points", p.map(([a, b]) => sx(a) + "," + sy(b)).join(" "));
    svg.append(line);
  });
  return svg;
}

// winGraph draws seat 1's chance of winning (the summary's win, one
// figure before the first move and one after each history entry) at
// the start of each round, when the first player is on turn again (the
// player on turn has the edge of the move to come, so a figure after
// every move would zigzag), and at the end, from 0 to 100% with the
// even line; the round that moved it most opens the review there.
function winGraph(st, win) {
  const isMove = (h) => h.kind === "place" || h.kind === "exchange" || h.kind === "pass";
  const first = st.history.length ? st.history[0].seat : 0;
  const pts = [{ x: 0, w: win[0], move: 0 }];
  let x = 0, onTurn = first;
  st.history.forEach((h, k) => {
    if (isMove(h)) x++;
    if (isMove(h) || h.kind === "lost_turn") onTurn = 1 - h.seat;
    if (k === st.history.length - 1) pts.push({ x, w: win[k + 1], move: x, end: true });
    else if (isMove(h) && onTurn === first) pts.push({ x, w: win[k + 1], move: x });
  });
  const who = displayName(st.seats[0]);
  const svg = lineGraph([pts.map((p) => [p.x, p.w])], Math.max(1, x), 0, 1, 0.5, 90,
    t("winLabel", who, Math.round(100 * win[0]), Math.round(100 * win[win.length - 1])));
  const box = el("figure", "graph");
  box.id = "win-graph";
  box.append(el("figcaption", "", t("winCaption", who)), svg);
  // The round of the biggest change (not the end's, which is the result).
  let best = null;
  for (let i = 1; i < pts.length; i++) {
    if (pts[i].end) break;
    const d = pts[i].w - pts[i - 1].w;
    if (!best || Math.abs(d) > Math.abs(best.d)) best = { d, from: pts[i - 1].move + 1, to: pts[i].move };
  }
  if (best && Math.round(100 * Math.abs(best.d)) > 0) {
    const b = el("button", "small link-button", t("winSwing", best.from, best.to, (best.d > 0 ? "+" : "−") + Math.round(100 * Math.abs(best.d))));
    b.type = "button";
    b.addEventListener("click", () => startReview(best.from - 1));
    box.append(b);
  }
  return box;
}

// showSummary adds to the result box how each seat played by static
// equity (GET .../summary, asked once a page): best moves, equity given
// up, and the costliest move, which opens the review there.
function showSummary(st, res) {
  const box = el("div", "summary");
  box.id = "summary";
  res.append(box);
  // (The result box is drawn again at every render: an answer fills the
  // box on the page when it comes.)
  const fill = (box, sum) => {
    box.textContent = "";
    const tbl = el("table", "analysis");
    const cap = el("caption", "", t("summaryTitle"));
    tbl.append(cap);
    const head = el("tr");
    for (const h of ["summaryPlayer", "summaryBest", "summaryLost", "summaryWorst"]) head.append(el("th", "", t(h)));
    tbl.append(head);
    for (const ss of sum.seats) {
      const tr = el("tr");
      tr.append(el("td", "", seatName(ss.seat)), el("td", "", t("summaryOf", ss.best, ss.moves)), el("td", "", ss.lost.toFixed(1)));
      const td = el("td");
      if (ss.worst) {
        const b = el("button", "small link-button", t("summaryMiss", ss.worst.move + 1, ss.worst.played, ss.worst.best, ss.worst.lost.toFixed(1)));
        b.type = "button";
        b.addEventListener("click", () => startReview(ss.worst.move));
        td.append(b);
      }
      tr.append(td);
      tbl.append(tr);
    }
    box.append(tbl);
    const practise = sum.seats.filter((ss) => (ss.mistakes || []).length);
    if (practise.length) {
      const p = el("p", "links");
      p.id = "practice-links";
      for (const ss of practise) {
        const own = st.you && st.you.seat === ss.seat;
        const a = el("a", "", own ? t("practiceOwn", ss.mistakes.length) : t("practiceLink", displayName(st.seats[ss.seat]), ss.mistakes.length));
        a.href = "/g/" + st.id + "/practice/" + ss.mistakes[0].move;
        p.append(a, " ");
      }
      box.append(p);
    }
    if (sum.win && sum.win.length === st.history.length + 1) box.append(winGraph(st, sum.win));
    const missed = missedBingos(st, sum);
    if (missed) box.append(missed);
  };
  if (G.summary && G.summary.id === st.id) { fill(box, G.summary.data); return; }
  if (G.summaryAsked === st.id) return;
  G.summaryAsked = st.id;
  api("GET", "/api/games/" + st.id + "/summary").then((data) => {
    G.summary = { id: st.id, data };
    const cur = $("#summary");
    if (cur && G.st && G.st.id === st.id) fill(cur, data);
  }).catch(() => {});
}

// missedBingos is the table of the moves that played no bingo where
// one could be played (the summary's missed_bingos), each with its best
// bingos and a button that puts their words' alphagrams in the cardbox
// of the game's word list, due at once; null when none was missed.
function missedBingos(st, sum) {
  const rows = [];
  for (const ss of sum.seats) for (const mb of ss.missed_bingos || []) rows.push({ seat: ss.seat, mb });
  if (!rows.length) return null;
  rows.sort((a, b) => a.mb.move - b.mb.move);
  const tbl = el("table", "analysis");
  tbl.id = "missed-bingos";
  tbl.append(el("caption", "", t("bingosTitle")));
  const head = el("tr");
  for (const h of ["summaryPlayer", "bingosMove", "bingosRack", "bingosPlayed", "bingosFound", "bingosStudy"]) {
    const th = el("th", "", t(h));
    th.scope = "col";
    head.append(th);
  }
  tbl.append(head);
  for (const { seat, mb } of rows) {
    const tr = el("tr");
    const words = el("td");
    mb.bingos.forEach((b, i) => {
      if (i) words.append(", ");
      words.append(moveNode(b.move), " " + b.score);
    });
    const act = el("td");
    const add = el("button", "small", t("bingosAdd"));
    add.type = "button";
    add.setAttribute("aria-label", t("bingosAddLabel", mb.move + 1));
    add.addEventListener("click", () => {
      const n = addToCardbox(st.lexicon, mb.bingos.map((b) => b.alphagram));
      add.disabled = true;
      add.textContent = t("bingosAdded", n);
    });
    act.append(add);
    tr.append(el("td", "", seatName(seat)), el("td", "n", String(mb.move + 1)), el("td", "", wordNode(units(mb.rack))), el("td"), words, act);
    tr.children[3].append(moveNode(mb.played));
    tbl.append(tr);
  }
  return tbl;
}

// rematchLinks offers a person's seat the rematch: to ask for it (or
// take one's seat in it, once another seat asked), or to go to it once
// this browser holds a seat there. Until someone asks, the page looks
// again every few seconds for a while, so the offer shows.
function rematchLinks(st, res, links) {
  const id = st.you.rematch;
  if (id && tokenFor(id)) {
    const go = el("a", "button", t("rematchGo"));
    go.href = "/g/" + id;
    go.id = "rematch-link";
    links.append(go);
    return;
  }
  if (id) res.append(el("p", "", t("rematchWaiting")));
  const b = el("button", id ? "primary" : "", t(id ? "rematchJoin" : "rematch"));
  b.type = "button";
  b.id = "rematch-button";
  b.addEventListener("click", async () => {
    b.disabled = true;
    try {
      const r = await api("POST", "/api/games/" + st.id + "/rematch", undefined, G.token);
      rememberSeat(r.id, r.token);
      location.href = "/g/" + r.id;
    } catch (e) {
      say(t("error", e.message), "error");
      b.disabled = false;
    }
  });
  links.append(b);
  // (Only another person can ask: a computer never does.)
  if (!id && people(st) > 1 && !G.rematchPoll) {
    const until = Date.now() + 15 * 60 * 1000;
    G.rematchPoll = setInterval(() => {
      if (Date.now() > until || (G.st.you && G.st.you.rematch)) { clearInterval(G.rematchPoll); return; }
      if (!document.hidden) refresh();
    }, 5000);
  }
}

// ---------- hints ----------
// In a casual game against the computer alone, Hint tells what the
// computer's analysis of the position plays, a step a click: its score,
// then where its tiles go, then the play itself laid on the board. The
// page counts the hints of the game.

// hintAllowed tells whether the seat me of st may ask for hints: a
// practice game not over.
function hintAllowed(st, me) { return practice(st, me) && !st.over; }

// practice tells whether st, on the game's page, is a casual game of
// seat me against the computer alone: where hints and the coach help.
function practice(st, me) {
  return me >= 0 && st.started && !st.rated && !G.review && !G.puzzle && !G.rush && !G.position &&
    st.seats.every((s, i) => i === me || s.kind === "computer");
}

function renderHint(st, me) {
  const b = $("#hint");
  b.hidden = !hintAllowed(st, me);
  if (b.hidden) return;
  b.disabled = st.turn !== me || !!G.hintAsking;
  b.textContent = G.hintsUsed ? t("hintUsed", G.hintsUsed) : t("hintButton");
}

// ---------- takebacks ----------
// In a casual game against the computer alone, Take back undoes the
// player's latest move and whatever followed it (the computer's reply),
// back to the position it was made from (POST .../takeback); the button
// counts the game's takebacks, as the server does.

// movedYet tells whether seat me has a move in st's history.
function movedYet(st, me) { return st.history.some((h) => h.seat === me && MOVE_KINDS.includes(h.kind)); }

function renderTakeback(st, me) {
  const b = $("#takeback");
  b.hidden = !hintAllowed(st, me) || !movedYet(st, me);
  if (b.hidden) return;
  b.disabled = !!G.takingBack;
  b.textContent = st.takebacks ? t("takebackUsed", st.takebacks) : t("takebackButton");
}

async function takeBack() {
  const st = G.st, me = st && st.you ? st.you.seat : -1;
  if (!st || !hintAllowed(st, me) || G.takingBack) return;
  G.takingBack = true;
  renderTakeback(st, me);
  try {
    const back = await api("POST", "/api/games/" + G.id + "/takeback", undefined, G.token);
    G.pending = []; G.exchanging = false; G.marked.clear(); G.typed = []; G.selected = -1;
    // The coach judged the move now latest already; its verdict on the
    // move taken back goes.
    G.coached = coachTurn(back, me);
    $("#coach").hidden = true;
    render(back);
    say(t("takenBack"), "info");
  } catch (e) { say(t("error", e.message), "error"); }
  G.takingBack = false;
  renderTakeback(G.st, me);
}

async function askHint() {
  const st = G.st, me = st && st.you ? st.you.seat : -1;
  if (!st || !hintAllowed(st, me) || st.turn !== me) return;
  if (!G.hint || G.hint.moves !== st.moves) G.hint = { moves: st.moves, step: 0, best: undefined };
  const h = G.hint;
  if (h.best === undefined) {
    G.hintAsking = true;
    renderHint(st, me);
    try {
      const a = await api("POST", "/api/analyze", { game: G.id, top: 1, ms: 1000 }, G.token);
      h.best = (a.candidates || [])[0] || null;
    } catch (e) {
      say(t("error", e.message), "error");
    }
    G.hintAsking = false;
    renderHint(G.st, me);
    if (h.best === undefined || G.hint !== h) return;
  }
  if (h.step === 0) G.hintsUsed = (G.hintsUsed || 0) + 1;
  h.step = Math.min(h.step + 1, 3);
  renderHint(st, me);
  const b = h.best;
  if (!b) say(t("hintNone"), "info");
  else if (b.kind === "exchange") say(t("hintExchange", b.move.replace(/^-/, "")), "info");
  else if (b.kind !== "place") say(t("hintPass"), "info");
  else if (h.step === 1) say(t("hintScore", b.score), "info");
  else if (h.step === 2) {
    // A move's name starts with the row for a play across ("8H"), with
    // the column for one down ("H8").
    const across = /^\d/.test(b.move);
    say(t("hintWhere", sqName(b.tiles[0].row, b.tiles[0].col), t(across ? "hintAcross" : "hintDown"), b.tiles.length), "info");
  } else {
    showCandidate({ tiles: b.tiles });
    say(t("hintPlay", b.move, b.score), "info");
  }
}

// ---------- coach ----------
// With the coach on (a setting), in a casual game against the computer
// alone, each move the player makes is judged beside the computer's
// choice (POST /api/analyze of the seat's own earlier turn, with judge:
// a short simulation), and the verdict shows under the message line.

// MOVE_KINDS are the kinds of history entry an analysis counts as turns.
const MOVE_KINDS = ["place", "exchange", "pass", "withdrawn"];

// coachTurn is the turn (among the moves) of seat me's latest move, -1
// for none.
function coachTurn(st, me) {
  let k = -1, n = 0;
  for (const h of st.history) {
    if (!MOVE_KINDS.includes(h.kind)) continue;
    if (h.seat === me) k = n;
    n++;
  }
  return k;
}

function coach(st, me) {
  if (SETTINGS.coach !== "on" || !practice(st, me)) {
    $("#coach").hidden = true;
    return;
  }
  const k = coachTurn(st, me);
  // (A game already over when the page opened is the review's to judge.)
  if (k < 0 || G.coached === k || st.over && G.coached === undefined) return;
  G.coached = k;
  const id = G.id;
  api("POST", "/api/analyze", { game: id, turn: k, sim: true, judge: true, ms: 1000, top: 3 }, G.token).then((res) => {
    if (G.id !== id || G.coached !== k) return;
    const nodes = verdictNodes(res.judged);
    $("#coach").textContent = "";
    $("#coach").append(el("strong", "", t("coachTitle")), " ", ...nodes);
    $("#coach").hidden = !nodes.length;
  }, (e) => {
    // Refused, most often for a busy minute of analyses: no verdict on
    // this move, said as such.
    if (G.id !== id || G.coached !== k) return;
    $("#coach").textContent = "";
    $("#coach").append(el("strong", "", t("coachTitle")), " ", t("coachNone", accountReason(e.message)));
    $("#coach").hidden = false;
  });
}

// ---------- settings ----------

// saveSettings changes the settings: the page follows at once, the
// browser keeps them, and a signed-in player's account too (so every
// device it signs in on follows them). The account's copies go one after
// the other, each with the settings as they are when it leaves, so the
// last change made is the one kept.
let settingsSent = Promise.resolve();
function saveSettings(changes) {
  SETTINGS = cleanSettings({ ...SETTINGS, ...changes });
  keepLocalSettings();
  applySettings(SETTINGS);
  if (!ME.signed_in) return settingsSent;
  $("#settings-error").textContent = "";
  settingsSent = settingsSent.then(async () => {
    if (!ME.signed_in) return;
    try { ME.settings = await api("PUT", "/api/me/settings", SETTINGS); } catch (e) {
      $("#settings-error").textContent = t("settingsNotKept", accountReason(e.message));
    }
  });
  return settingsSent;
}

function keepLocalSettings() {
  try {
    localStorage.setItem("atril:settings", JSON.stringify(SETTINGS));
    localStorage.removeItem("atril:sound");
    localStorage.removeItem("atril:lang");
  } catch (e) { /* no storage: the settings last as long as the page */ }
}

// adoptAccountSettings follows the settings of the account signed in,
// or gives it this browser's when it keeps none yet.
function adoptAccountSettings() {
  if (!ME.signed_in) return;
  if (!ME.settings) {
    if (Object.keys(SETTINGS).length) saveSettings({});
    return;
  }
  const before = SETTINGS;
  SETTINGS = cleanSettings(ME.settings);
  keepLocalSettings();
  applySettings(SETTINGS);
  if ((before.language || "") !== (SETTINGS.language || "")) {
    LANG = pickLang(G.gameLang);
    relang();
  }
}

// openSettings shows the settings' dialog; each change applies at once.
function openSettings() {
  $("#set-theme").value = SETTINGS.theme || "";
  $("#set-board").value = SETTINGS.board || "";
  $("#set-tiles").value = SETTINGS.tiles || "";
  $("#set-rack-order").value = SETTINGS.rack_order || "";
  $("#set-sound").checked = soundOn();
  $("#set-coach").checked = SETTINGS.coach === "on";
  $("#settings-where").textContent = t(ME.signed_in ? "settingsAccount" : "settingsLocal");
  $("#settings-error").textContent = "";
  showPushState();
  $("#settings-dialog").showModal();
}

function wireSettings() {
  $("#settings-open").addEventListener("click", openSettings);
  for (const [id, key] of [["#set-theme", "theme"], ["#set-board", "board"], ["#set-tiles", "tiles"]]) {
    $(id).addEventListener("change", () => saveSettings({ [key]: $(id).value }));
  }
  $("#set-rack-order").addEventListener("change", () => {
    saveSettings({ rack_order: $("#set-rack-order").value });
    // The rack on the page follows at once.
    if (G.st && G.st.you && !G.st.over && SETTINGS.rack_order) sortRack();
  });
  $("#set-coach").addEventListener("change", () => {
    saveSettings({ coach: $("#set-coach").checked ? "on" : "" });
    if (G.st) render(G.st);
  });
  $("#set-sound").addEventListener("change", () => {
    saveSettings({ sound: $("#set-sound").checked ? "" : "off" });
    if (G.st) render(G.st);
  });
  $("#set-push-on").addEventListener("click", pushOn);
  $("#set-push-off").addEventListener("click", () => pushOff(false));
  $("#set-push-test").addEventListener("click", pushTest);
  $("#settings-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    $("#settings-dialog").close();
    $("#settings-open").focus();
  });
}

// ---------- push messages ----------

// pushSupported reports whether this browser can get push messages: a
// service worker and the Push API, on a secure page.
function pushSupported() {
  return window.isSecureContext && "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

// registerWorker registers the page's service worker (web/static/sw.js),
// which shows push messages and lets the browser install the page as an
// app; null when the browser has none.
async function registerWorker() {
  if (!window.isSecureContext || !("serviceWorker" in navigator)) return null;
  try { return await navigator.serviceWorker.register("/sw.js"); } catch (e) { return null; }
}

// pushSubscription is this browser's push subscription, or null.
async function pushSubscription() {
  if (!pushSupported()) return null;
  const reg = await navigator.serviceWorker.getRegistration("/");
  return reg ? reg.pushManager.getSubscription() : null;
}

// showPushState shows in the settings whether this device gets push
// messages (msg, when given, says what just happened).
async function showPushState(msg) {
  const box = $("#set-push");
  box.hidden = !ME.signed_in || !(INFO && INFO.push) || !pushSupported();
  if (box.hidden) return;
  let sub = null;
  try { sub = await pushSubscription(); } catch (e) { sub = null; }
  const denied = Notification.permission === "denied";
  $("#set-push-on").hidden = !!sub || denied;
  $("#set-push-off").hidden = !sub;
  $("#set-push-test").hidden = !sub;
  $("#set-push-state").textContent = msg || t(denied ? "pushDenied" : sub ? "pushIsOn" : "pushIsOff");
}

// pushOn asks the browser's leave to show notifications, subscribes it
// to the server's push messages and gives the server the subscription.
async function pushOn() {
  try {
    if (await Notification.requestPermission() !== "granted") { showPushState(); return; }
    await registerWorker();
    const reg = await navigator.serviceWorker.ready;
    const key = await api("GET", "/api/push/key");
    const sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key.key });
    await api("POST", "/api/me/push", sub.toJSON());
    showPushState();
  } catch (e) { showPushState(t("pushFailed", e.message)); }
}

// pushOff ends this browser's push messages, on the server and in the
// browser; quiet, it says nothing (signing out).
async function pushOff(quiet) {
  try {
    const sub = await pushSubscription();
    if (sub) {
      if (ME.signed_in) await api("DELETE", "/api/me/push", { endpoint: sub.endpoint }).catch(() => {});
      await sub.unsubscribe();
    }
    if (!quiet) showPushState();
  } catch (e) { if (!quiet) showPushState(t("pushFailed", e.message)); }
}

// pushTest asks the server for a message to each of the account's
// browsers.
async function pushTest() {
  try {
    const r = await api("POST", "/api/me/push/test", {});
    showPushState(t("pushTestSent", r.sent + r.failed + r.gone, r.sent));
  } catch (e) { showPushState(t("pushFailed", e.message)); }
}

// ---------- sound ----------

// soundOn reports the player's choice (on unless turned off).
function soundOn() { return SETTINGS.sound !== "off"; }

// chime plays a short two-note sound (Web Audio; browsers allow it once
// the page has been clicked or typed in). G.chimes counts them.
function chime() {
  if (!soundOn()) return;
  G.chimes++;
  try {
    G.audio = G.audio || new AudioContext();
    const ac = G.audio, now = ac.currentTime;
    [[660, 0], [880, 0.12]].forEach(([f, at]) => {
      const o = ac.createOscillator(), g = ac.createGain();
      o.frequency.value = f;
      g.gain.setValueAtTime(0.0001, now + at);
      g.gain.exponentialRampToValueAtTime(0.15, now + at + 0.02);
      g.gain.exponentialRampToValueAtTime(0.0001, now + at + 0.25);
      o.connect(g).connect(ac.destination);
      o.start(now + at);
      o.stop(now + at + 0.3);
    });
  } catch (e) { /* no sound here */ }
}

// ---------- notifications ----------

// notifyOn reports whether the player asked to be told, when the page is
// in the background, that the turn came back, or that a player they
// follow offers a game (and the browser allows it).
function notifyOn() {
  return "Notification" in window && Notification.permission === "granted" && localStorage.getItem("atril:notify") === "on";
}

// toggleNotify turns the notifications on (asking the browser's
// permission the first time) or off.
async function toggleNotify() {
  if (notifyOn()) {
    localStorage.setItem("atril:notify", "off");
  } else {
    const p = Notification.permission === "granted" ? "granted" : await Notification.requestPermission();
    if (p === "granted") localStorage.setItem("atril:notify", "on");
    else if (G.st) say(t("notifyDenied"), "error");
  }
  if (G.st) render(G.st);
  showFollowsNotify();
}

// showFollowsNotify shows, on the card of the players one follows, the
// button that turns the notifications on (of their games offered) or
// off.
function showFollowsNotify() {
  const b = $("#follows-notify");
  b.hidden = !("Notification" in window) || Notification.permission === "denied";
  b.textContent = t(notifyOn() ? "notifyOn" : "notifyOff");
  b.setAttribute("aria-pressed", String(notifyOn()));
}

// notifyTurn tells a player whose page is in the background that the
// turn came back, with the move before it; a click brings the page
// forward. G.notified counts them.
function notifyTurn(st, me) {
  if (!notifyOn() || !document.hidden) return;
  const h = st.history.filter((x) => x.seat !== me && (x.kind === "place" || x.kind === "exchange" || x.kind === "pass")).pop();
  let body = "";
  if (h) {
    const who = displayName(st.seats[h.seat]);
    body = h.kind === "place" ? t("theyPlayed", who, h.move, h.points) : h.kind === "exchange" ? t("theyExchanged", who, h.count) : t("theyPassed", who);
  }
  G.notified++;
  try {
    const n = new Notification(t("notifyTitle"), { body, tag: "atril-" + G.id });
    n.onclick = () => { window.focus(); n.close(); };
  } catch (e) { /* not here (some browsers allow them only from a service worker) */ }
}

// ---------- chat ----------

// people counts the seats of a game that people hold (or will).
function people(st) { return st.seats.filter((s) => s.kind === "human").length; }

// renderChat shows the chat to a person's seat of a game with other
// people, redrawing the lines only when they change.
function renderChat(st, me) {
  $("#chat-box").hidden = me < 0 || people(st) < 2;
  if ($("#chat-box").hidden) return;
  // What a seat held by an account the player blocks writes is not shown.
  const lines = (st.you.chat || []).filter((c) => !(st.seats[c.seat] && st.seats[c.seat].account && isBlocked(st.seats[c.seat].name)));
  const key = LANG + JSON.stringify(lines) + st.seats.map((s) => s.name).join();
  if (G.chatKey === key) return;
  G.chatKey = key;
  const ol = $("#chat-lines");
  ol.textContent = "";
  for (const c of lines) {
    const li = el("li");
    li.append(el("span", "who", seatName(c.seat) + ":"), el("span", "", c.text));
    ol.append(li);
  }
  ol.scrollTop = ol.scrollHeight;
}

// renderKibitz shows the watchers' chat to those watching a game being
// played, and to everyone once it is over (the people playing do not
// see it while they play); signed-in watchers write in it.
function renderKibitz(st, me) {
  const box = $("#kibitz-box");
  box.hidden = !!(G.puzzle || G.rush || G.position || G.review) || !st.started || (me >= 0 && !st.over);
  if (box.hidden) return;
  $("#kibitz-form").hidden = !ME.signed_in;
  $("#kibitz-signin").hidden = ME.signed_in;
  const lines = (st.kibitz || []).filter((c) => !isBlocked(c.name));
  $("#kibitz-empty").hidden = lines.length > 0;
  const key = JSON.stringify(lines);
  if (G.kibitzKey === key) return;
  G.kibitzKey = key;
  const ol = $("#kibitz-lines");
  ol.textContent = "";
  for (const c of lines) {
    const li = el("li");
    li.append(el("span", "who", c.name + ":"), el("span", "", c.text));
    ol.append(li);
  }
  ol.scrollTop = ol.scrollHeight;
}

// sendLine sends the line typed in a chat's input (its send button
// disabled meanwhile) to path, with a seat's token if given, then clears
// the input and calls after to show it.
async function sendLine(ev, inputSel, buttonSel, path, token, after) {
  ev.preventDefault();
  const input = $(inputSel);
  const text = input.value.trim();
  if (!text) return;
  $(buttonSel).disabled = true;
  try {
    await api("POST", path, { text }, token);
    input.value = "";
    after();
  } catch (e) {
    say(t("error", e.message), "error");
  }
  $(buttonSel).disabled = false;
}

function sendKibitz(ev) { sendLine(ev, "#kibitz-text", "#kibitz-send", "/api/games/" + G.id + "/kibitz", undefined, refreshSoon); }
function sendChat(ev) { sendLine(ev, "#chat-text", "#chat-send", "/api/games/" + G.id + "/chat", G.token, refreshSoon); }

// ---------- clocks ----------

// hasClock tells whether seat i has a clock in a state's clock c.
function hasClock(c, i) { return !!c && (c.seconds[i] > 0 || !!(c.per_move && c.per_move[i] > 0)); }

// clockText writes milliseconds left as m:ss (−m:ss in overtime),
// rounding towards the end of the time, as a clock shows it; an hour or
// more as hours and minutes, a day or more as days and hours (the time
// of correspondence play).
function clockText(ms) {
  if (ms >= 86400000) return t("daysHours", Math.floor(ms / 86400000), Math.floor(ms % 86400000 / 3600000));
  if (ms >= 3600000) return t("hoursMinutes", Math.floor(ms / 3600000), Math.floor(ms % 3600000 / 60000));
  const neg = ms < 0;
  const s = neg ? Math.floor(-ms / 1000) : Math.ceil(ms / 1000);
  return (neg ? "−" : "") + Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
}

// tickClocks shows each seat's time left: the state's figures, less the
// time since it came for the seat whose clock runs. When that seat's
// overtime is over the page asks for the state (the server ends the game
// on time and says so; this only makes sure the page sees it).
function tickClocks() {
  const c = G.st && G.st.clock;
  clearTimeout(G.clockTimer);
  if (!c || G.review) return;
  const since = performance.now() - G.clockAt;
  for (const span of document.querySelectorAll("#scores .clock")) {
    const i = Number(span.dataset.seat);
    const left = c.left_ms[i] - (c.running === i ? since : 0);
    span.textContent = clockText(left);
    span.classList.toggle("overtime", left < 0);
    // Low: under a minute, or a tenth of the time for a move.
    const low = c.per_move && c.per_move[i] > 0 ? c.per_move[i] * 100 : 60000;
    span.classList.toggle("low", left >= 0 && left < low);
    span.classList.toggle("running", c.running === i);
    span.setAttribute("aria-label", t("timeLeft", span.textContent));
    if (c.running === i && left < -c.overtime[i] * 1000 - 1500 && !G.clockAsked) {
      G.clockAsked = true;
      refreshSoon();
    }
  }
  if (c.running >= 0 && !G.st.over) G.clockTimer = setTimeout(tickClocks, 250);
}

// ---------- following the game ----------

async function refresh() {
  if (!G.id) return; // a puzzle or the analysis board: no game to ask for
  try {
    const st = await api("GET", "/api/games/" + G.id, undefined, G.token);
    // Two reads in flight may come back out of order: an answer older
    // than the state shown (an earlier notification) is dropped, or the
    // page would step back and announce the newer moves again. (A
    // server just restarted answers seq 0 until its next notification.)
    if (G.st && G.st.id === st.id && st.seq > 0 && st.seq < G.st.seq) return;
    render(st);
  } catch (e) {
    // The seat's token was taken back (its account signed out
    // everywhere): forget it and open the game again, which asks for a
    // new one if this device is still signed in to the account.
    if (e.status === 403 && G.token) { forgetSeat(G.id); location.reload(); return; }
    say(t("error", e.message), "error");
  }
}

// renderWatching says how many watch the game being played (not its
// players), naming the signed-in ones.
function renderWatching(st) {
  $("#watching").hidden = !st.watching || st.over || !!(G.puzzle || G.rush || G.position || G.review);
  if (st.watching) {
    // The signed-in watchers by name (not those the player blocks).
    const names = (st.watching_names || []).filter((n) => !(ME.blocked || []).includes(n));
    const w = $("#watching");
    w.textContent = "";
    if (!names.length) w.textContent = t("watchingN", st.watching);
    else {
      // Each name a link to the player's page.
      const list = el("span");
      names.forEach((n, i) => {
        if (i) list.append(", ");
        const a = el("a", "", n);
        a.href = profileURL(n);
        list.append(a);
      });
      w.append(...msgNodes(t("watchingNamed", st.watching, "{1}"), null, list));
    }
  }
}

let refreshTimer = null;
function refreshSoon() {
  clearTimeout(refreshTimer);
  refreshTimer = setTimeout(refresh, 30);
}

// listen follows the game: a seat's notifications over a WebSocket, from
// the last one this page has seen (?after=SEQ), so every tab and device
// of the seat sees each one; any notification means "look again".
// Spectators follow the watchers' WebSocket (watch).
function listen() {
  if (!G.token) return watch();
  if (G.st.over) return;
  let url = socketURL(`/api/games/${G.id}/ws?token=${encodeURIComponent(G.token)}`);
  if (G.seq >= 0) url += "&after=" + G.seq;
  const ws = new WebSocket(url);
  G.ws = ws;
  ws.onmessage = (ev) => {
    let n;
    try { n = JSON.parse(ev.data); } catch (e) { return; }
    if (typeof n.seq === "number") G.seq = Math.max(G.seq, n.seq);
    if (n.type === "rejected") say(t("rejected", localReason(n.reason)), "error");
    refreshSoon();
  };
  ws.onopen = () => {
    if (G.wsFails > 0 && $("#message").textContent === t("connLost")) say("");
    G.wsFails = 0;
    refreshSoon();
  };
  ws.onclose = () => {
    if (G.ws !== ws) return;
    G.ws = null;
    if (G.st && G.st.over) return;
    G.wsFails++;
    if (G.wsFails > 1) say(t("connLost"), "error");
    setTimeout(() => { refresh(); listen(); }, Math.min(10000, 500 * 2 ** G.wsFails));
  };
}

// watch follows a game as a spectator: the watchers' WebSocket says when
// the state changed ("look again") and how many watch. While it fails
// three times or more in a row (a server that refuses it, a proxy that
// does not pass WebSockets), the page also reads the state every 3
// seconds, and tries the socket again less and less often; once it
// opens, the readings stop.
function watch() {
  if (G.st.over || G.ws) return;
  if (G.wsFails >= 3 && !G.spectatorTimer) G.spectatorTimer = setInterval(() => { if (!document.hidden && !G.st.over) refresh(); }, 3000);
  const ws = new WebSocket(socketURL(`/api/games/${G.id}/watch`));
  G.ws = ws;
  ws.onmessage = (ev) => {
    let n;
    try { n = JSON.parse(ev.data); } catch (e) { return; }
    if (n.type === "watching") {
      G.st.watching = n.watching;
      G.st.watching_names = n.watching_names;
      renderWatching(G.st);
    } else refreshSoon();
  };
  ws.onopen = () => {
    G.wsFails = 0;
    clearInterval(G.spectatorTimer);
    G.spectatorTimer = null;
    refreshSoon();
  };
  ws.onclose = () => {
    if (G.ws !== ws) return;
    G.ws = null;
    if (G.st && G.st.over) return;
    G.wsFails++;
    setTimeout(() => { refresh(); watch(); }, Math.min(30000, 500 * 2 ** Math.min(G.wsFails, 6)));
  };
}

document.addEventListener("visibilitychange", () => { if (!document.hidden && G.st && !G.st.over) refreshSoon(); });

// ---------- placing tiles ----------

function playable() {
  const st = G.st;
  return st && st.you && st.started && !st.over && !G.exchanging && !G.review;
}

function placeAt(i, r, c) {
  if (!G.st.you || G.st.over || G.exchanging) return;
  if (boardTileAt(r, c)) return;
  const other = pendingAt(r, c);
  if (other && other.i !== i) return;
  const rt = G.rack[i];
  const put = (letter) => {
    G.pending = G.pending.filter((p) => p.i !== i);
    G.pending.push({ i, row: r, col: c, letter, blank: rt.blank });
    G.selected = -1;
    G.typed = [];
    changed();
  };
  if (rt.blank) {
    const old = G.pending.find((p) => p.i === i);
    if (old) put(old.letter); else chooseBlank(put);
  } else put(rt.letter);
}

function unplace(i) {
  G.pending = G.pending.filter((p) => p.i !== i);
  G.typed = G.typed.filter((x) => x !== i);
  changed();
}

// changed redraws after the pending tiles changed and asks for a preview.
function changed() {
  renderBoard();
  renderRack();
  schedulePreview();
}

function setCursor(r, c, down, focus) {
  G.cursor = { r, c, down: !!down };
  G.typed = [];
  G.justFocused = false;
  document.querySelectorAll("#board .sq").forEach((x) => { x.tabIndex = -1; });
  const cell = square(r, c);
  cell.tabIndex = 0;
  renderBoard();
  if (focus !== false && document.activeElement !== cell) cell.focus({ preventScroll: true });
}

function clickSquare(r, c) {
  if (G.review) return;
  const p = pendingAt(r, c);
  if (p) { unplace(p.i); setCursor(r, c, G.cursor && G.cursor.down); return; }
  if (G.selected >= 0) { G.cursor = null; placeAt(G.selected, r, c); return; }
  if (boardTileAt(r, c)) return;
  // A click on the cursor turns its arrow; a click elsewhere (which first
  // focuses the square and so moves the cursor there) only moves it.
  const same = G.cursor && G.cursor.r === r && G.cursor.c === c;
  if (same && !G.justFocused) setCursor(r, c, !G.cursor.down);
  else if (!same) setCursor(r, c, G.cursor ? G.cursor.down : false);
  G.justFocused = false;
}

// clickRack handles a click (or tap, or Enter) on a rack tile: with the
// cursor's arrow on the board, the tile goes there and the arrow moves
// on; otherwise the tile is chosen for the next square clicked.
function clickRack(i) {
  if (G.exchanging) {
    if (G.marked.has(i)) G.marked.delete(i); else G.marked.add(i);
  } else if (G.pending.some((p) => p.i === i)) {
    return;
  } else if (G.cursor && playable() && !occupied(G.cursor.r, G.cursor.c)) {
    const rt = G.rack[i];
    if (rt.blank) chooseBlank((letter) => placeAtCursor(i, letter, true));
    else placeAtCursor(i, rt.letter, false);
    return;
  } else {
    G.selected = G.selected === i ? -1 : i;
  }
  renderRack();
  const b = $(`#rack .tile[data-i="${i}"]`);
  if (b) b.focus();
}

function letters() { return new Set(G.st.letters.map((x) => x.letter).filter((l) => l !== "?")); }

// freeRack finds a rack tile not yet placed: the letter's tile, or (with
// letter null) a blank.
function freeRack(letter) {
  return G.rack.findIndex((x, i) => (letter === null ? x.blank : !x.blank && x.letter === letter) && !G.pending.some((p) => p.i === i));
}

function step(r, c, down, k) { return down ? [r + k, c] : [r, c + k]; }

// typeLetter places a tile for a typed letter at the cursor and moves the
// cursor on. The tile is the letter's own, else a multi-letter tile that
// starts with it (C of CH, when the rack has CH but no C), else the
// blank; Shift takes the blank. Typed right after a tile whose letter it
// completes into a multi-letter tile (C then H is CH), it turns that tile
// into the multi-letter one, or finishes the one already chosen.
function typeLetter(L, forceBlank) {
  if (!G.cursor) { say(t("cursorHint"), "error"); return; }
  const alpha = letters();
  const lastI = G.typed.length ? G.typed[G.typed.length - 1] : -1;
  const prev = lastI >= 0 ? G.pending.find((p) => p.i === lastI) : null;
  if (prev && prev.partial) {
    const partial = prev.partial + L;
    if (prev.letter.startsWith(partial)) {
      prev.partial = partial === prev.letter ? "" : partial;
      changed();
      return;
    }
    // Not the multi-letter tile after all: the blank stands for what was
    // typed, if there is one.
    const b = freeRack(null);
    if (b >= 0 && alpha.has(prev.partial)) {
      G.typed[G.typed.length - 1] = b;
      Object.assign(prev, { i: b, letter: prev.partial, blank: true, partial: "" });
    }
    prev.partial = "";
  } else if (prev && alpha.has(prev.letter + L)) {
    const combo = prev.letter + L;
    if (prev.blank) { prev.letter = combo; changed(); return; }
    const j = forceBlank ? -1 : freeRack(combo);
    if (j >= 0) { prev.i = j; prev.letter = combo; G.typed[G.typed.length - 1] = j; changed(); return; }
  }
  if (!alpha.has(L)) { say(t("notALetter", L), "error"); return; }
  let { r, c } = G.cursor;
  const down = G.cursor.down;
  while (inBoard(r, c) && occupied(r, c)) [r, c] = step(r, c, down, 1);
  if (!inBoard(r, c)) { say(t("noRoom"), "error"); return; }
  let j = forceBlank ? -1 : freeRack(L), letter = L, blank = false, partial = "";
  if (j < 0 && !forceBlank) {
    const multi = [...alpha].find((x) => x.length > L.length && x.startsWith(L) && freeRack(x) >= 0);
    if (multi) { j = freeRack(multi); letter = multi; partial = L; }
  }
  if (j < 0) { j = freeRack(null); blank = true; }
  if (j < 0) { say(t("notOnRack", L), "error"); return; }
  G.pending.push({ i: j, row: r, col: c, letter, blank, partial });
  G.typed.push(j);
  G.selected = -1;
  let [nr, nc] = step(r, c, down, 1);
  while (inBoard(nr, nc) && occupied(nr, nc)) [nr, nc] = step(nr, nc, down, 1);
  const typed = G.typed;
  if (inBoard(nr, nc)) setCursor(nr, nc, down); else setCursor(r, c, down);
  G.typed = typed;
  if ($("#message").classList.contains("error")) say("");
  changed();
}

// placeAtCursor puts rack tile i at the cursor and moves the cursor to
// the next free square its way.
function placeAtCursor(i, letter, blank) {
  const { r, c, down } = G.cursor;
  G.pending.push({ i, row: r, col: c, letter, blank, partial: "" });
  const typed = G.typed.concat([i]);
  let [nr, nc] = step(r, c, down, 1);
  while (inBoard(nr, nc) && occupied(nr, nc)) [nr, nc] = step(nr, nc, down, 1);
  if (inBoard(nr, nc)) setCursor(nr, nc, down, false); else G.cursor = null;
  G.typed = typed;
  G.selected = -1;
  changed();
}

function backspace() {
  let p = null;
  if (G.typed.length) {
    const i = G.typed.pop();
    p = G.pending.find((x) => x.i === i);
  } else if (G.pending.length) {
    p = G.pending[G.pending.length - 1];
  }
  if (!p) return;
  const typed = G.typed;
  G.pending = G.pending.filter((x) => x !== p);
  setCursor(p.row, p.col, G.cursor ? G.cursor.down : false);
  G.typed = typed;
  changed();
}

function recall() {
  G.pending = []; G.selected = -1; G.typed = [];
  changed();
}

function moveCursor(dr, dc) {
  const cur = G.cursor || { r: G.st.start[0], c: G.st.start[1], down: false };
  const r = Math.min(G.st.size - 1, Math.max(0, cur.r + dr)), c = Math.min(G.st.size - 1, Math.max(0, cur.c + dc));
  setCursor(r, c, cur.down);
}

// The digraph bar: after a tile whose letter starts a multi-letter tile
// (C of CH, L of LL, R of RR), buttons choose between them.
function renderDigraph() {
  const bar = $("#digraph");
  bar.textContent = "";
  bar.hidden = true;
  if (!G.st || !G.pending.length || !playable()) return;
  const p = G.pending[G.pending.length - 1];
  const base = [...p.letter].length > 1 ? p.letter.slice(0, 1) : p.letter;
  const options = [...letters()].filter((l) => l.startsWith(base)).sort((a, b) => a.length - b.length);
  if (options.length < 2) return;
  bar.hidden = false;
  bar.setAttribute("aria-label", t("digraphChoose", sqName(p.row, p.col)));
  bar.append(el("span", "", t("digraphChoose", sqName(p.row, p.col)) + " "));
  for (const o of options) {
    const j = p.blank ? p.i : o === p.letter ? p.i : freeRack(o);
    const b = el("button", "small" + (o === p.letter ? " on" : ""), o);
    b.type = "button";
    b.setAttribute("aria-pressed", String(o === p.letter));
    b.disabled = j < 0;
    b.addEventListener("click", () => {
      if (!p.blank) { G.typed = G.typed.map((x) => (x === p.i ? j : x)); p.i = j; }
      p.letter = o;
      p.partial = "";
      changed();
    });
    bar.append(b);
  }
}

function chooseBlank(done) {
  const d = $("#blank-dialog");
  const box = $("#blank-letters");
  box.textContent = "";
  box.lang = G.gameLang;
  $("#blank-prompt").textContent = gameT("blankPrompt");
  $("#blank-prompt").lang = G.gameLang;
  $("#blank-cancel").textContent = t("cancel");
  for (const l of G.st.letters) {
    if (l.letter === "?") continue;
    const b = el("button", "", l.letter);
    b.type = "button";
    b.addEventListener("click", () => { d.close(); done(l.letter); });
    box.append(b);
  }
  d.showModal();
}

// Dragging with pointer events works for mouse, pen and touch alike. A
// press that hardly moves is a click.
function startDrag(ev, i) {
  if (!G.st.you || G.st.over || ev.button > 0) return;
  ev.preventDefault();
  const x0 = ev.clientX, y0 = ev.clientY;
  let ghost = null, over = null;
  const fromBoard = G.pending.some((p) => p.i === i);
  // onRack says whether the pointer is over the rack (or just below or
  // above it, where a finger hides the tiles).
  const onRack = (e) => {
    const b = $("#rack").getBoundingClientRect();
    return e.clientX >= b.left && e.clientX <= b.right && e.clientY >= b.top - 12 && e.clientY <= b.bottom + 12;
  };
  const move = (e) => {
    if (!ghost && Math.hypot(e.clientX - x0, e.clientY - y0) < 6) return;
    if (!ghost) {
      const rt = G.rack[i];
      ghost = tileEl(rt.letter === "?" ? "" : rt.letter, rt.score, rt.blank);
      ghost.classList.add("ghost");
      document.body.append(ghost);
    }
    ghost.style.left = e.clientX - 22 + "px";
    ghost.style.top = e.clientY - 22 + "px";
    const target = document.elementFromPoint(e.clientX, e.clientY);
    const sq = G.exchanging ? null : target && target.closest("#board .sq");
    if (over && over !== sq) over.classList.remove("drop");
    over = sq;
    if (over) over.classList.add("drop");
    markRackSlot(i, !over && onRack(e) ? rackSlot(i, e.clientX) : -1);
  };
  const up = (e) => {
    window.removeEventListener("pointermove", move);
    window.removeEventListener("pointerup", up);
    window.removeEventListener("pointercancel", up);
    if (!ghost) {
      if (fromBoard) unplace(i); else clickRack(i);
      return;
    }
    ghost.remove();
    markRackSlot(i, -1);
    if (over) {
      over.classList.remove("drop");
      placeAt(i, +over.dataset.r, +over.dataset.c);
    } else if (e.type === "pointerup" && onRack(e)) {
      // A tile dropped on the rack goes where it was dropped, back from
      // the board or along the rack.
      if (fromBoard) {
        G.pending = G.pending.filter((p) => p.i !== i);
        G.typed = G.typed.filter((x) => x !== i);
      }
      moveRackTile(i, rackSlot(i, e.clientX));
    }
  };
  window.addEventListener("pointermove", move);
  window.addEventListener("pointerup", up);
  window.addEventListener("pointercancel", up);
}

// ---------- score preview ----------

function pendingKey() { return G.pending.map((p) => `${p.row},${p.col},${p.letter},${p.blank ? 1 : 0}`).sort().join(";"); }

function schedulePreview() {
  clearTimeout(G.previewTimer);
  const box = $("#preview");
  if (!G.pending.length || !G.st || !G.st.you || G.st.over) {
    G.preview = null;
    box.textContent = "";
    return;
  }
  const key = pendingKey();
  if (G.preview && G.preview.key === key && G.preview.data) { showPreview(); return; }
  G.previewTimer = setTimeout(async () => {
    const tiles = G.pending.map((p) => ({ row: p.row, col: p.col, letter: p.letter, blank: p.blank }));
    try {
      const data = G.puzzle ? await api("POST", puzzlePath() + "/preview", { tiles })
        : G.rush ? await api("POST", rushPath() + "/preview", { number: G.rush.run.number, tiles })
        : G.position ? await api("POST", "/api/position/preview", { cgp: G.position.cgp, tiles })
          : await api("POST", "/api/games/" + G.id + "/preview", { tiles }, G.token);
      if (key !== pendingKey()) return;
      G.preview = { key, data };
      showPreview();
      renderBoard();
    } catch (e) {
      if (key === pendingKey()) { G.preview = null; box.textContent = ""; }
    }
  }, 80);
}

function showPreview() {
  const box = $("#preview");
  const d = G.preview.data;
  box.textContent = "";
  box.className = d.ok ? "ok" : "bad";
  box.dataset.key = G.preview.key;
  const words = el("span", "words");
  d.words.forEach((w, k) => { if (k) words.append(", "); words.append(wordNode(w)); });
  if (d.ok) {
    box.append(el("strong", "pts", t("previewOk", d.score)), " ");
    if (d.bingo) box.append(el("span", "bingo", t("previewBingo")), " ");
    box.append(words);
  } else {
    box.append(el("span", "reason", t("previewNo", localReason(d.reason))));
  }
  box.dataset.score = d.ok ? String(d.score) : "";
}

// ---------- moves ----------

async function sendMove(body) {
  if (G.position) return positionPlay(body);
  if (G.puzzle) return answerPuzzle(false, body.kind === "pass", body);
  const before = G.st.moves;
  // The tiles that leave the rack: the ones drawn for them come after the
  // ones kept.
  G.leaving = new Set(body.kind === "place" ? G.pending.map((p) => G.rack[p.i]) : body.kind === "exchange" ? [...G.marked].map((i) => G.rack[i]) : []);
  try {
    const r = await api("POST", "/api/games/" + G.id + "/move", body, G.token);
    // Our move is told unless the page already shows a later one (the
    // notifications can be quicker than the answer).
    if (G.st.moves <= before + 1) {
      if (body.kind === "place") say(msgNodes(t("accepted", "{0}", "{1}"), moveNode(r.move), r.score), "ok"); else say("");
    }
    G.pending = []; G.exchanging = false; G.marked.clear(); G.typed = [];
    // The arrow stays for the keyboard, not after taps and clicks.
    if (!(document.activeElement && document.activeElement.closest("#board"))) G.cursor = null;
    await refresh();
  } catch (e) {
    G.leaving = new Set();
    say(t("rejected", localReason(e.message)), "error");
  }
}

async function submit() {
  if (!G.pending.length) { say(t("placeFirst"), "error"); return; }
  if (G.puzzle) { answerPuzzle(false); return; }
  if (G.rush) { answerRush(false); return; }
  await sendMove({ kind: "place", tiles: G.pending.map((p) => ({ row: p.row, col: p.col, letter: p.letter, blank: p.blank })) });
}

// answerPlay challenges or accepts the last placement.
async function answerPlay(kind) {
  try {
    render(await api("POST", "/api/games/" + G.id + "/" + kind, undefined, G.token));
  } catch (e) { say(t("rejected", localReason(e.message)), "error"); }
}

async function endGame(kind) {
  if (!(await ask(t(kind === "resign" ? "confirmResign" : "confirmAbort"), t(kind)))) return;
  try {
    const st = await api("POST", "/api/games/" + G.id + "/" + kind, undefined, G.token);
    render(st);
  } catch (e) { say(t("error", e.message), "error"); }
}

let wired = false;
function wireGame() {
  if (wired) return;
  wired = true;
  $("#submit").addEventListener("click", submit);
  $("#recall").addEventListener("click", recall);
  $("#shuffle").addEventListener("click", () => {
    const order = G.rack.map((_, k) => k);
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    permuteRack(order);
  });
  $("#sort").addEventListener("click", sortRack);
  $("#exchange").addEventListener("click", () => {
    G.exchanging = !G.exchanging; G.pending = []; G.selected = -1; G.marked.clear(); G.typed = [];
    render(G.st);
  });
  $("#exchange-cancel").addEventListener("click", () => { G.exchanging = false; G.marked.clear(); render(G.st); });
  $("#exchange-go").addEventListener("click", () => {
    if (!G.marked.size) { say(t("exchangeNone"), "error"); return; }
    sendMove({ kind: "exchange", exchange: [...G.marked].map((i) => G.rack[i].letter) });
  });
  $("#pass").addEventListener("click", async () => { if (await ask(t("confirmPass"), t("pass"))) sendMove({ kind: "pass" }); });
  $("#challenge-btn").addEventListener("click", () => answerPlay("challenge"));
  $("#accept-btn").addEventListener("click", () => answerPlay("accept"));
  $("#resign").addEventListener("click", () => endGame("resign"));
  $("#chat-form").addEventListener("submit", sendChat);
  $("#kibitz-form").addEventListener("submit", sendKibitz);
  $("#hint").addEventListener("click", askHint);
  $("#takeback").addEventListener("click", takeBack);
  $("#sound").addEventListener("click", () => {
    saveSettings({ sound: soundOn() ? "off" : "" });
    render(G.st);
  });
  $("#notify").addEventListener("click", toggleNotify);
  $("#abort").addEventListener("click", () => endGame("abort"));
  $("#copy").addEventListener("click", async () => { if (await copyText($("#share-url").value, $("#share-url"))) say(t("copied"), "ok"); });
  $("#resume-copy").addEventListener("click", async () => { if (await copyText($("#resume-url").value, $("#resume-url"))) say(t("copied"), "ok"); });
  $("#rv-first").addEventListener("click", () => reviewTo(0));
  $("#rv-prev").addEventListener("click", () => reviewTo(G.review.k - 1));
  $("#rv-next").addEventListener("click", () => reviewTo(G.review.k + 1));
  $("#rv-last").addEventListener("click", () => reviewTo(G.review.moves.length));
  $("#review-close").addEventListener("click", stopReview);
  $("#note-form").addEventListener("submit", saveNote);
  $("#review-board").addEventListener("click", async (ev) => {
    // The position before the move shown, as a CGP line, opened on the
    // analysis board.
    ev.preventDefault();
    try {
      const res = await api("GET", `/api/games/${G.id}/position?turn=${G.review.k}`, undefined, G.token);
      location.href = positionURL(res.cgp);
    } catch (e) { say(t("error", localReason(e.message)), "error"); }
  });
  document.addEventListener("keydown", onKey);
}

function onKey(e) {
  if (!G.st || $("#game").hidden || document.querySelector("dialog[open]")) return;
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const tgt = e.target;
  if (tgt.closest && tgt.closest("input, select, textarea, summary")) return;
  const onBoard = !!(tgt.closest && tgt.closest("#board"));
  const onButton = !onBoard && tgt.closest && tgt.closest("button, a, [tabindex]:not(main)");
  if (G.review) {
    const moves = { ArrowLeft: -1, ArrowRight: 1 };
    if (e.key in moves) { e.preventDefault(); reviewTo(G.review.k + moves[e.key]); }
    else if (e.key === "Home") { e.preventDefault(); reviewTo(0); }
    else if (e.key === "End") { e.preventDefault(); reviewTo(G.review.moves.length); }
    return;
  }
  // On a rack tile, Left and Right go along the rack; with Shift they
  // carry the tile.
  const rackTile = tgt.closest && tgt.closest("#rack .tile");
  if (rackTile && (e.key === "ArrowLeft" || e.key === "ArrowRight")) {
    e.preventDefault();
    const i = +rackTile.dataset.i, d = e.key === "ArrowLeft" ? -1 : 1;
    let to = i + d;
    if (e.shiftKey) {
      if (to < 0 || to >= G.rack.length) return;
      moveRackTile(i, to);
      say(t("rackMoved", G.rack[to].blank ? t("rackBlank") : G.rack[to].letter, to + 1, G.rack.length));
    } else {
      while (to >= 0 && to < G.rack.length && G.pending.some((p) => p.i === to)) to += d;
      if (to < 0 || to >= G.rack.length) return;
    }
    const b = $(`#rack .tile[data-i="${to}"]`);
    if (b) b.focus();
    return;
  }
  if (!playable()) return;
  const arrows = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  if (e.key in arrows) {
    if (!onBoard && onButton) return;
    e.preventDefault();
    moveCursor(...arrows[e.key]);
    return;
  }
  if (onButton && (e.key === "Enter" || e.key === " ")) return; // the button's own action
  switch (e.key) {
    case "Enter":
      e.preventDefault();
      if (onBoard && G.selected >= 0 && G.cursor) { placeAt(G.selected, G.cursor.r, G.cursor.c); return; }
      submit();
      return;
    case " ":
      if (!onBoard) return;
      e.preventDefault();
      if (G.cursor) setCursor(G.cursor.r, G.cursor.c, !G.cursor.down);
      return;
    case "Backspace": e.preventDefault(); backspace(); return;
    case "Escape": e.preventDefault(); recall(); return;
  }
  if ([...e.key].length === 1 && /\p{L}/u.test(e.key)) {
    e.preventDefault();
    typeLetter(e.key.toLocaleUpperCase(G.gameLang), e.shiftKey);
  }
}

// ---------- review ----------

async function startReview(k) {
  if (!G.st || !G.st.over) return;
  if (!G.review) {
    let data;
    try { data = await api("GET", "/api/games/" + G.id + "/review"); } catch (e) { say(t("error", e.message), "error"); return; }
    const moves = [];
    const gone = new Set(); // the moves a challenge took back
    data.turns.forEach((tu, i) => {
      if (tu.kind === "place" || tu.kind === "exchange" || tu.kind === "pass") moves.push(i);
      if (tu.kind === "withdrawn") gone.add(moves.length - 1);
    });
    G.review = { data, moves, gone, k: 0, cache: {}, show: null };
  }
  $("#review").hidden = false;
  $("#result").hidden = true;
  say("");
  $("#review-title").textContent = t("rvTitle");
  $("#review-gcg").href = "/api/games/" + G.id + "/gcg";
  reviewTo(k);
  $("#rv-next").focus();
}

function stopReview() {
  G.review = null;
  $("#review").hidden = true;
  history.replaceState(null, "", location.pathname);
  render(G.st);
}

function reviewSeat() {
  const R = G.review;
  return R.k < R.moves.length ? R.data.turns[R.moves[R.k]].seat : -1;
}

function reviewScores() {
  const R = G.review;
  const upto = R.k < R.moves.length ? R.moves[R.k] : R.data.turns.length;
  const sc = G.st.seats.map(() => 0);
  for (let i = 0; i < upto; i++) sc[R.data.turns[i].seat] = R.data.turns[i].total;
  return sc;
}

function reviewTo(k) {
  const R = G.review;
  R.k = Math.max(0, Math.min(R.moves.length, k));
  R.show = null;
  history.replaceState(null, "", "#review-" + R.k);
  $("#analysis").textContent = "";
  renderReview();
  renderSide(G.st, G.st.you ? G.st.you.seat : -1);
  loadAnalysis(R.k);
}

function renderReview() {
  const R = G.review;
  const n = R.moves.length;
  renderReviewBoard();
  $("#rv-first").disabled = $("#rv-prev").disabled = R.k === 0;
  $("#rv-next").disabled = $("#rv-last").disabled = R.k === n;
  $("#review-pos").textContent = R.k === n ? t("rvEnd") : t("rvPos", R.k + 1, n);
  $("#review-board").hidden = R.k === n;
  $("#review-image").href = "/api/games/" + G.id + "/board.png" + (R.k === n ? "" : "?move=" + R.k);
  const rackBox = $("#review-rack");
  rackBox.textContent = "";
  const played = $("#review-played");
  played.textContent = "";
  if (R.k < n) {
    const tu = R.data.turns[R.moves[R.k]];
    rackBox.append(el("span", "", t("rvToPlay", seatName(tu.seat)) + " "));
    const rk = el("span", "rack-mini");
    rk.setAttribute("role", "img");
    rk.setAttribute("aria-label", tu.rack.map((x) => (x.blank ? "?" : x.letter)).join(" "));
    for (const x of tu.rack) { const d = tileEl(x.letter, x.score, x.blank); d.classList.add("mini"); rk.append(d); }
    rackBox.append(rk);
    played.append(...msgNodes(t("rvPlayed", "{0}"), reviewMoveNode(tu.kind, tu.move)), " (" + (tu.points >= 0 ? "+" : "") + tu.points + ")");
    if (R.gone.has(R.k)) played.append(" — " + t("rvWithdrawn", (tu.phonies || []).join(", ")));
    // The mover's chance of winning here, from the summary (two players).
    const win = G.summary && G.summary.id === G.st.id && G.summary.data.win;
    if (win && win.length === R.data.turns.length + 1) {
      const w = tu.seat === 0 ? win[R.moves[R.k]] : 1 - win[R.moves[R.k]];
      rackBox.append(el("span", "win-here", " " + t("rvWin", Math.round(100 * w))));
    }
  }
  renderNotes();
}

// renderNotes shows the players' notes on the move of the review's
// position and, for a player of the game, a form to write theirs.
function renderNotes() {
  const R = G.review;
  const box = $("#review-notes"), form = $("#note-form");
  box.textContent = "";
  const entry = R && R.k < R.moves.length ? R.moves[R.k] : -1;
  const notes = entry < 0 ? [] : (G.st.notes || []).filter((n) => n.entry === entry);
  for (const n of notes) {
    const p = el("p", "note");
    p.append(el("strong", "", n.seat < 0 ? t("noteFile") : t("noteBy", seatName(n.seat))), " ", n.text);
    box.append(p);
  }
  const me = G.st.you ? G.st.you.seat : -1;
  form.hidden = entry < 0 || me < 0 || !G.token;
  if (form.hidden) return;
  if (form.dataset.entry !== String(entry)) {
    const mine = notes.find((n) => n.seat === me);
    $("#note-text").value = mine ? mine.text : "";
    form.dataset.entry = String(entry);
  }
}

// saveNote writes the player's note on the move shown (an empty one
// takes it away).
async function saveNote(ev) {
  ev.preventDefault();
  const R = G.review;
  if (!R || R.k >= R.moves.length) return;
  const entry = R.moves[R.k];
  const btn = $("#note-save");
  btn.disabled = true;
  try {
    const n = await api("POST", "/api/games/" + G.id + "/notes", { entry, text: $("#note-text").value }, G.token);
    const notes = (G.st.notes || []).filter((x) => !(x.entry === n.entry && x.seat === n.seat));
    if (n.text) notes.push(n);
    notes.sort((a, b) => a.entry - b.entry || a.seat - b.seat);
    G.st.notes = notes;
    $("#note-text").value = n.text;
    say(t(n.text ? "noteSaved" : "noteRemoved"));
    renderMoves(G.st);
    if (G.review) renderNotes();
  } catch (e) {
    say(t("error", e.message), "error");
  } finally {
    btn.disabled = false;
  }
}

// renderReviewBoard draws the board before move k, with the move played
// there (or the analysed move pointed at) shown faintly.
function renderReviewBoard() {
  const R = G.review;
  const n = R.moves.length;
  document.querySelectorAll("#board .tile, #board .bubble").forEach((x) => x.remove());
  document.querySelectorAll("#board .sq.has-bubble").forEach((x) => x.classList.remove("has-bubble"));
  document.querySelectorAll("#board .sq.cursor").forEach((x) => x.classList.remove("cursor", "down"));
  for (let j = 0; j < R.k; j++) {
    if (R.gone.has(j)) continue;
    for (const x of R.data.turns[R.moves[j]].tiles || []) {
      const d = tileEl(x.letter, x.score, x.blank);
      if (j === R.k - 1) d.classList.add("last");
      square(x.row, x.col).append(d);
    }
  }
  const shown = R.show || (R.k < n ? R.data.turns[R.moves[R.k]] : null);
  for (const x of (shown && shown.tiles) || []) {
    const d = tileEl(x.letter, x.score, x.blank);
    d.classList.add("shown");
    square(x.row, x.col).append(d);
  }
  const at = new Map(), next = new Map();
  for (let j = 0; j < R.k; j++) if (!R.gone.has(j)) for (const x of R.data.turns[R.moves[j]].tiles || []) at.set(x.row * 100 + x.col, x);
  for (const x of (shown && shown.tiles) || []) next.set(x.row * 100 + x.col, x);
  labelSquares((r, c) => at.get(r * 100 + c), (r, c) => next.get(r * 100 + c), false);
}

function reviewMoveNode(kind, mv) {
  if (kind === "pass") return document.createTextNode(t("rvPass"));
  if (kind === "exchange") return document.createTextNode(t("rvExchange", plainMove((mv || "").slice(1))));
  return moveNode(mv);
}

async function loadAnalysis(k) {
  const R = G.review;
  const box = $("#analysis");
  if (k >= R.moves.length) return;
  if (!R.cache[k]) {
    box.textContent = t("rvLoading");
    try { R.cache[k] = await api("GET", `/api/games/${G.id}/analysis?move=${k}&n=8`); }
    catch (e) { if (R.k === k) box.textContent = t("error", e.message); return; }
  }
  if (!G.review || G.review.k !== k) return;
  const an = R.cache[k];
  box.textContent = "";
  const table = el("table", "analysis");
  table.append(el("caption", "", t("rvBest")));
  const head = el("tr");
  for (const h of ["rvMove", "rvScore", "rvLeave", "rvEquity"]) { const th = el("th", "", t(h)); th.scope = "col"; head.append(th); }
  const thead = el("thead");
  thead.append(head);
  table.append(thead);
  const body = el("tbody");
  const key = (c) => c.kind + " " + c.move;
  const playedKey = an.played ? key(an.played) : "";
  const row = (c, extra) => {
    const tr = el("tr", key(c) === playedKey ? "played" : "");
    const td = el("td");
    td.append(reviewMoveNode(c.kind, c.move));
    if (extra) td.append(" ", el("span", "hint", extra));
    const kept = el("td");
    kept.append(c.leave ? wordNode(units(c.leave)) : "–");
    tr.append(td, el("td", "n", String(c.score)), kept, el("td", "n", c.equity.toFixed(1)));
    if (c.tiles) {
      tr.tabIndex = 0;
      const show = () => { R.show = c; renderReviewBoard(); };
      const hide = () => { R.show = null; renderReviewBoard(); };
      tr.addEventListener("mouseenter", show); tr.addEventListener("mouseleave", hide);
      tr.addEventListener("focus", show); tr.addEventListener("blur", hide);
    }
    body.append(tr);
  };
  an.best.forEach((c) => row(c));
  if (an.played && !an.best.some((c) => key(c) === playedKey)) row(an.played, an.rank ? t("rvRank", an.rank, an.moves) : t("rvNotRanked"));
  // The best bingo, when the rack had one and the list above has none.
  const bingo = (an.bingos || [])[0];
  if (bingo && !an.best.some((c) => key(c) === key(bingo)) && key(bingo) !== playedKey) row(bingo, t("rvBingo"));
  table.append(body);
  box.append(table);
  if (an.played && an.rank) box.append(el("p", "hint", t("rvPlayed", plainMove(an.played.move)) + " · " + t("rvRank", an.rank, an.moves)));
  const sim = el("button", "small", t("simButton"));
  sim.type = "button";
  sim.id = "sim-button";
  sim.addEventListener("click", () => simulate(k, sim));
  box.append(sim);
  // A placement made with tiles in the bag tells the next player
  // something about the tiles kept.
  if (an.played && an.played.kind === "place" && an.bag > 0 && G.st) {
    const inf = el("button", "small", t("infButton"));
    inf.type = "button";
    inf.id = "infer-button";
    inf.addEventListener("click", () => infer(k, inf));
    box.append(" ", inf);
  }
  if (R.sims && R.sims[k]) showSimulation(R.sims[k]);
  if (R.infs && R.infs[k]) showInference(R.infs[k]);
}

// infer asks what move k told the next player about the tiles kept
// (GET /api/games/{id}/infer).
function infer(k, button) {
  reviewRequest(k, button, "infRunning", "infButton", "infs", () => api("GET", `/api/games/${G.id}/infer?move=${k}`), showInference);
}

// reviewRequest asks a slow question about review position k from its
// button, which is disabled and says busy meanwhile: the answer is kept
// in G.review[cache][k] and shown when the review still shows k.
async function reviewRequest(k, button, busy, idle, cache, ask, show) {
  const R = G.review;
  button.disabled = true;
  button.textContent = t(busy);
  try {
    const res = await ask();
    R[cache] = R[cache] || {};
    R[cache][k] = res;
    if (G.review && G.review.k === k) show(res);
  } catch (e) {
    say(t("error", e.message), "error");
  }
  button.disabled = false;
  button.textContent = t(idle);
}

// showInference writes what a placement told the next player: the kinds
// of tile most and least likely kept against the odds of the draw, the
// likeliest leaves, and what was really kept.
function showInference(res) {
  const old = $("#inference");
  if (old) old.remove();
  const out = el("div");
  out.id = "inference";
  const who = (i) => seatLabel(G.st.seats[i]);
  out.append(el("h3", "", t("infTitle", who(res.observer), who(res.seat))));
  const pct = (x) => Math.round(x * 100) + "%";
  const odds = (l) => t("infOdds", l.tile.blank ? "?" : l.tile.letter, pct(l.held), pct(l.prior));
  if (res.kept === 0) {
    out.append(el("p", "", t("infNothingKept", who(res.seat))));
  } else if (res.consistent === 0) {
    out.append(el("p", "", t("infNone", who(res.seat), res.tau)));
  } else {
    // Most raised and most lowered by the move, against the draw.
    const byLift = res.letters.slice().sort((a, b) => (b.held - b.prior) - (a.held - a.prior) || a.tile.letter.localeCompare(b.tile.letter));
    const up = byLift.filter((l) => l.held - l.prior >= 0.05).slice(0, 5);
    const down = byLift.filter((l) => l.prior - l.held >= 0.05).reverse().slice(0, 5);
    out.append(el("p", "", t("infConsistent", pct(res.consistent), who(res.seat), res.tau)));
    if (up.length) out.append(el("p", "", t("infLikely", who(res.seat), res.kept, up.map(odds).join(", "))));
    if (down.length) out.append(el("p", "", t("infUnlikely", down.map(odds).join(", "))));
    if (res.leaves.length) {
      const p = el("p", "", t("infLeaves") + " ");
      res.leaves.slice(0, 5).forEach((l, i) => { if (i) p.append(", "); p.append(wordNode(units(l.leave)), " " + pct(l.share)); });
      out.append(p);
    }
  }
  const truth = el("p", "hint", t("infTruth", who(res.seat)) + " ");
  truth.append(res.truth ? wordNode(units(res.truth)) : "–");
  out.append(truth);
  out.append(el("p", "hint", t(res.exact ? "infExact" : "infSampled", res.tried)));
  $("#analysis").append(out);
}

// simulate asks the server's analysis (POST /api/analyze) to play the
// position's best moves out against likely racks, or to solve the
// endgame once the bag is empty.
function simulate(k, button) {
  // Two players: the move played is judged beside the best ones.
  const judge = !!(G.st && G.st.seats && G.st.seats.length === 2);
  reviewRequest(k, button, "simRunning", "simButton", "sims",
    () => api("POST", "/api/analyze", { game: G.id, turn: k, sim: true, judge, ms: 2000, top: 8 }), showSimulation);
}

// verdictNodes says the verdict j on a move played (an analysis's
// "judged"): its value and the best's, and what it gave up (simulation:
// chance of winning too); none when j values nothing.
function verdictNodes(j) {
  if (!j || j.value == null || j.best_value == null) return [];
  const val = (x, win) => (x >= 0 ? "+" : "") + x.toFixed(1) + (win != null ? " · " + t("simWinShort", win.toFixed(0)) : "");
  if (j.lost === 0) return msgNodes(t("simJudgedBest", "{0}", val(j.value, j.win)), moveNode(j.played));
  return msgNodes(t("simJudged", "{0}", val(j.value, j.win), "{2}", val(j.best_value, j.best_win), j.lost.toFixed(1)),
    moveNode(j.played), null, moveNode(j.best));
}

function showSimulation(res) {
  const box = $("#analysis");
  const old = $("#simulation");
  if (old) old.remove();
  const out = el("div");
  out.id = "simulation";
  if (res.line && res.line.length) {
    const line = el("span");
    res.line.forEach((m, i) => { if (i) line.append(", "); line.append(moveNode(m)); });
    out.append(...msgNodes(t("simEndgame", res.spread, t(res.exact ? "simExact" : "simEstimate"), "{0}"), line));
  }
  const verdict = verdictNodes(res.judged);
  if (verdict.length) {
    const p = el("p");
    p.id = "sim-verdict";
    p.append(...verdict);
    out.append(p);
  }
  if (res.candidates && res.candidates.length) {
    const table = el("table", "analysis");
    table.append(el("caption", "", t("simTitle")));
    const head = el("tr");
    for (const h of ["rvMove", "simStatic", "simMean", "simWin"]) { const th = el("th", "", t(h)); th.scope = "col"; head.append(th); }
    const thead = el("thead");
    thead.append(head);
    table.append(thead);
    const body = el("tbody");
    for (const c of res.candidates) {
      const tr = el("tr", c.eliminated ? "hint" : "");
      const td = el("td");
      td.append(moveNode(c.move));
      const num = (x) => (typeof x === "number" ? x.toFixed(1) : "–");
      tr.append(td, el("td", "n", num(c.static)), el("td", "n", num(c.mean)), el("td", "n", num(c.win)));
      body.append(tr);
    }
    table.append(body);
    out.append(table);
  }
  box.append(out);
}

// ---------- a player's profile ----------

// PROFILE is the profile shown (GET /api/players/{name}), or
// {missing: name, status, error} when there is none.
let PROFILE = null;

// ---------- puzzles ----------

// puzzleDay is today's puzzle number: days from 1 January 2026 (UTC).
function puzzleDay() { return Math.floor((Date.now() - Date.UTC(2026, 0, 1)) / 86400000) + 1; }
// A puzzle's kind: "score" (find the highest-scoring play) or "endgame"
// (the bag empty: find the move that ends the game best).
function puzzleURL(lexicon, n, kind) { return (kind === "endgame" ? "/endgame/" : "/puzzle/") + encodeURIComponent(lexicon) + "/" + n; }
function puzzleAPI(lexicon, n, kind) { return (kind === "endgame" ? "/api/endgames/" : "/api/puzzles/") + encodeURIComponent(lexicon) + "/" + n; }
function puzzlePath() { return G.puzzle.api || puzzleAPI(G.puzzle.lexicon, G.puzzle.number, G.puzzle.kind); }

// fillPuzzleCard offers the lobby's puzzle of the day in each word list.
function fillPuzzleCard() {
  const sel = $("#puzzle-lexicon");
  const byLang = INFO.variants.find((v) => VARIANT_LANG[v.name] === browserLang());
  chooseLexicon(sel, [sel.value, localStorage.getItem("atril:puzzle"), byLang && byLang.default_lexicon, "en-sowpods"]);
  puzzleLink();
}

function puzzleLink() {
  $("#puzzle-link").href = puzzleURL($("#puzzle-lexicon").value, "today");
  $("#puzzle-link").textContent = t("puzzleLink", puzzleDay());
  // The day's position as a picture, which opens the puzzle too.
  $("#puzzle-thumb-link").href = $("#puzzle-link").getAttribute("href");
  const src = puzzleAPI($("#puzzle-lexicon").value, puzzleDay()) + "/board.png";
  const img = $("#puzzle-thumb");
  if (img.getAttribute("src") !== src) {
    // (A day the server does not have yet, by a clock ahead of it: no picture.)
    img.onerror = () => { $("#puzzle-thumb-link").hidden = true; };
    img.onload = () => { $("#puzzle-thumb-link").hidden = false; };
    img.src = src;
  }
  $("#puzzle-thumb").alt = t("puzzleThumb", puzzleDay());
  $("#endgame-link").href = puzzleURL($("#puzzle-lexicon").value, "today", "endgame");
  $("#puzzle-level-row").hidden = !ME.signed_in;
  dailyRushLeader($("#puzzle-lexicon").value);
}

// dailyRushLeader says on the puzzle card who leads today's daily rush
// of the word list, if anyone solved a puzzle of it yet.
async function dailyRushLeader(lexicon) {
  const line = $("#rush-daily-line");
  let B;
  try { B = await api("GET", "/api/rush/leaders?lexicon=" + encodeURIComponent(lexicon) + "&mode=daily&n=1"); } catch (e) { B = { players: [] }; }
  if ($("#puzzle-lexicon").value !== lexicon) return;
  const p = B.players[0];
  line.hidden = !p;
  if (p) line.textContent = t("rushDailyLeader", p.name, p.solved);
}

// puzzleAtLevel opens, signed in, a puzzle of the word list not yet
// answered and rated nearest the account's puzzle rating (of kind
// "endgame": an endgame puzzle, by the endgame rating).
async function puzzleAtLevel(lexicon, kind = "score") {
  try {
    const N = await api("GET", "/api/puzzles/" + encodeURIComponent(lexicon) + "/next" + (kind === "endgame" ? "?kind=endgame" : ""));
    location.href = puzzleURL(N.lexicon, N.number, kind);
  } catch (e) {
    say(t("error", e.message), "error");
  }
}

// showPuzzle opens puzzle n of a word list, of kind "score" or
// "endgame", on the game's page: its board, the rack on turn, the moves
// before it, and the puzzle's box.
async function showPuzzle(lexicon, n, kind = "score") {
  let P;
  try {
    P = await api("GET", puzzleAPI(lexicon, n, kind));
  } catch (e) {
    $("#main").textContent = e.status === 404 ? t("notFound") : t("error", e.message);
    return;
  }
  if (String(n) !== String(P.number)) history.replaceState(null, "", puzzleURL(P.lexicon, P.number, kind));
  localStorage.setItem("atril:puzzle", P.lexicon);
  G.puzzle = { kind, lexicon: P.lexicon, number: P.number, today: P.today, answer: null, first: P.answered || P.first || null, cgp: P.cgp,
    rating: P.rating || null, level: P.level || null };
  openPuzzle(P.state);
}

// MISTAKE_LOSS is the equity a move gives up to count as a mistake, as
// the server's summary counts them (review.MistakeLoss).
const MISTAKE_LOSS = 5;

// showPractice opens /g/ID/practice/K: the position before move K of a
// finished game, to find a better move than the one played there (the
// summary's mistakes; nothing is recorded). The puzzle's page serves,
// with the game's other mistakes of the same player one link away.
async function showPractice(id, k, seat) {
  let sum = null;
  if (k === null) {
    // /g/ID/practice?seat=S: the seat's first mistake, if it made one.
    try { sum = await api("GET", "/api/games/" + id + "/summary"); } catch (e) {
      $("#main").textContent = e.status === 404 ? t("notFound") : t("error", e.message);
      return;
    }
    const ss = sum.seats.find((x) => String(x.seat) === String(seat));
    if (!ss || !ss.mistakes.length) {
      const p = el("p", "", t("practiceNone") + " ");
      const back = el("a", "", t("practiceBack"));
      back.href = "/g/" + id;
      p.append(back);
      $("#main").textContent = "";
      $("#main").append(p);
      return;
    }
    k = ss.mistakes[0].move;
    history.replaceState(null, "", "/g/" + id + "/practice/" + k);
  }
  const api0 = "/api/games/" + id + "/practice/" + k;
  let P;
  try {
    // (The summary once: read above when it chose the mistake.)
    [P, sum] = await Promise.all([api("GET", api0), sum || api("GET", "/api/games/" + id + "/summary").catch(() => null)]);
  } catch (e) {
    $("#main").textContent = e.status === 404 ? t("notFound") : t("error", e.message);
    return;
  }
  const ss = sum && sum.seats.find((x) => x.seat === P.seat);
  P.state.seats.forEach((s, i) => { s.name = P.names[i] || s.name; });
  G.puzzle = { kind: "practice", api: api0, game: id, lexicon: P.lexicon, number: P.move, answer: null, first: null, cgp: P.cgp,
    info: P, mistakes: ss ? ss.mistakes.map((m) => m.move) : [] };
  openPuzzle(P.state);
}

// openPuzzle lays out the page of a puzzle (G.puzzle) with its position.
function openPuzzle(st) {
  G.gameLang = VARIANT_LANG[st.variant] || "en";
  LANG = pickLang(G.gameLang);
  translatePage();
  $("#game").hidden = false;
  $("#puzzle").hidden = false;
  buildBoard(st);
  wireGame();
  $("#puzzle-reveal").addEventListener("click", async () => {
    // Signed in, a look at the solution before any answer is recorded as
    // not solving the puzzle.
    if (ME.signed_in && !G.puzzle.first && G.puzzle.kind !== "practice" && !await ask(t("puzzleRevealAsk"), t("puzzleReveal"))) return;
    answerPuzzle(true);
  });
  $("#puzzle-level").addEventListener("click", () => puzzleAtLevel(G.puzzle.lexicon, G.puzzle.kind));
  render(st);
}

// renderPuzzleSide shows the puzzle's box and hides what only a game has.
function renderPuzzleSide() {
  const P = G.puzzle;
  if (P.kind === "practice") { renderPracticeSide(); return; }
  const endgame = P.kind === "endgame";
  G.st.seats.forEach((s, i) => { s.name = t("puzzleSeat", i + 1); });
  $("#puzzle-title").textContent = t(endgame ? "endgameTitle" : "puzzleTitle", P.number, lexiconName(G.st.lexicon));
  document.title = $("#puzzle-title").textContent + " – atril";
  $("#puzzle-goal").dataset.t = endgame ? "endgameGoal" : "puzzleGoal";
  $("#puzzle-goal").textContent = t($("#puzzle-goal").dataset.t);
  $("#game-title").textContent = $("#puzzle-title").textContent;
  $("#turn").textContent = "";
  $("#turn").hidden = true;
  for (const b of ["#exchange", "#pass", "#resign", "#abort", "#hint", "#takeback", "#sound", "#notify", "#resume-box", "#share", "#chat-box", "#kibitz-box"]) $(b).hidden = true;
  // An endgame's best move may be a pass.
  $("#pass").hidden = !endgame;
  const nav = [["#puzzle-prev", P.number - 1], ["#puzzle-next", P.number + 1], ["#puzzle-today", P.today]];
  for (const [sel, n] of nav) {
    const a = $(sel);
    a.hidden = n < 1 || n > P.today || n === P.number;
    a.href = puzzleURL(P.lexicon, n, P.kind);
  }
  // Once answered, the position may go to the analysis board.
  $("#puzzle-board").hidden = !P.answer || !P.cgp;
  if (P.cgp) $("#puzzle-board").href = positionURL(P.cgp);
  // The signed-in account's first answer, the one that counts.
  const f = ME.signed_in ? P.first : null;
  $("#puzzle-record").hidden = !f;
  if (f && f.revealed) $("#puzzle-record").textContent = t("puzzleFirstRevealed");
  else if (f && endgame) $("#puzzle-record").textContent = t(f.correct ? "endgameFirstRight" : "endgameFirstWrong", signedNumber(f.value));
  else if (f) $("#puzzle-record").textContent = t(f.correct ? "puzzleFirstRight" : "puzzleFirstWrong", f.score);
  renderPuzzleRating(endgame);
  $("#puzzle-level").hidden = !ME.signed_in;
  $("#puzzle-level").dataset.t = endgame ? "endgameAtLevel" : "puzzleAtLevel";
  $("#puzzle-level").textContent = t($("#puzzle-level").dataset.t);
  if (endgame) renderEndgameResult();
  else renderPuzzleResult();
}

// renderPracticeSide shows the box of a practice position: whose move it
// was, what was played, the links to the player's other mistakes in the
// game and back to the game, and once answered how the answer fares.
function renderPracticeSide() {
  const P = G.puzzle;
  const I = P.info;
  $("#puzzle-title").textContent = t("practiceTitle", I.move + 1, I.moves, I.name);
  document.title = $("#puzzle-title").textContent + " – atril";
  $("#puzzle-goal").removeAttribute("data-t");
  $("#puzzle-goal").textContent = "";
  $("#puzzle-goal").append(...msgNodes(t("practiceGoal", "{0}"), moveNode(I.played)));
  $("#game-title").textContent = $("#puzzle-title").textContent;
  $("#turn").textContent = "";
  $("#turn").hidden = true;
  for (const b of ["#resign", "#abort", "#hint", "#takeback", "#sound", "#notify", "#resume-box", "#share", "#chat-box", "#kibitz-box",
    "#puzzle-record", "#puzzle-rating", "#puzzle-level"]) $(b).hidden = true;
  // Any move may be the better one: an exchange or a pass too.
  $("#exchange").hidden = $("#pass").hidden = false;
  const i = P.mistakes.indexOf(I.move);
  const at = (j) => "/g/" + P.game + "/practice/" + P.mistakes[j];
  $("#puzzle-prev").hidden = i <= 0;
  if (i > 0) $("#puzzle-prev").href = at(i - 1);
  $("#puzzle-next").hidden = i < 0 || i + 1 >= P.mistakes.length;
  if (i >= 0 && i + 1 < P.mistakes.length) $("#puzzle-next").href = at(i + 1);
  const back = $("#puzzle-today");
  back.hidden = false;
  back.href = "/g/" + P.game;
  back.dataset.t = "practiceBack";
  back.textContent = t("practiceBack");
  $("#puzzle-board").hidden = !P.answer || !P.cgp;
  if (P.cgp) $("#puzzle-board").href = positionURL(P.cgp);
  renderPracticeResult();
}

// renderPracticeResult says how the answer fares by equity against the
// best move and what the move played gave up, with the best moves.
function renderPracticeResult() {
  const R = puzzleResult();
  if (!R) return;
  const { box, A, r, line } = R;
  if (A.reveal) line.textContent = t("practiceSolution", r.moves);
  else if (r.correct) line.append(...msgNodes(t("practiceRight", "{0}", r.equity.toFixed(1)), moveNode(r.move)));
  else line.append(...msgNodes(t("practiceWrong", "{0}", r.equity.toFixed(1), r.rank, r.moves, r.lost.toFixed(1)), moveNode(r.move)));
  box.append(line);
  const played = el("p", "hint");
  played.append(...msgNodes(t("practicePlayed", "{0}", r.played.equity.toFixed(1), r.played_lost.toFixed(1)), moveNode(r.played.move)));
  box.append(played);
  box.append(movesTable(t("practiceBest"), ["rvScore", "rvLeave", "rvEquity"],
    r.best.map((c) => ({ move: c.move, kind: c.kind, cells: [String(c.score), wordNode(units(c.leave)), c.equity.toFixed(1)], show: c.kind === "place" ? c : null }))));
}

// renderPuzzleRating says, signed in, the account's puzzle rating in the
// word list (its endgame rating on an endgame puzzle), with the change
// the first answer made, and, once answered, the puzzle's own.
function renderPuzzleRating(endgame) {
  const P = G.puzzle;
  const line = $("#puzzle-rating");
  const parts = [];
  const k = endgame ? "endgame" : "puzzle";
  if (ME.signed_in) {
    const f = P.first;
    if (f && f.rating_after) {
      const d = f.rating_after - f.rating_before;
      parts.push(t(k + "RatingChange", f.rating_before, f.rating_after, (d >= 0 ? "+" : "−") + Math.abs(d)));
    }
    if (f && f.rating_after) {
      if (P.rating && P.rating.rating !== f.rating_after) parts.push(t("puzzleRatingLater", P.rating.rating));
    } else if (P.rating) parts.push(t(k + "RatingNow", ratingText(P.rating), P.rating.deviation));
    else parts.push(t(k + "Unrated"));
    if (f && P.level) parts.push(t("puzzleLevel", P.level.rating, P.level.answered));
  }
  line.hidden = !parts.length;
  line.textContent = parts.join(" · ");
}

// answerPuzzle sends the placed tiles, or a pass (an endgame's), or asks
// for the solution, and shows what the server says.
async function answerPuzzle(reveal, pass, move) {
  const tiles = G.pending.map((p) => ({ row: p.row, col: p.col, letter: p.letter, blank: p.blank }));
  // A practice position takes any move: a placement, an exchange, a pass.
  const body = reveal ? { reveal: true } : G.puzzle.kind === "practice" ? move || { kind: "place", tiles } : pass ? { pass: true } : { tiles };
  let res;
  try { res = await api("POST", puzzlePath() + "/answer", body); } catch (e) { say(t("error", e.message), "error"); return; }
  if (!reveal && !res.ok) { say(t("rejected", localReason(res.reason)), "error"); return; }
  say("");
  if (move && move.kind === "exchange") { G.exchanging = false; G.marked.clear(); }
  G.puzzle.answer = { res, reveal };
  if (res.first) G.puzzle.first = res.first;
  if (res.rating) G.puzzle.rating = res.rating;
  if (res.level) G.puzzle.level = res.level;
  renderPuzzleSide();
  $("#puzzle-result").focus();
}

// puzzleResult empties the puzzle's result box and, once answered,
// returns it with the answer and the verdict's line (marked right or
// wrong) to fill; null before an answer.
function puzzleResult() {
  const box = $("#puzzle-result");
  box.textContent = "";
  const A = G.puzzle.answer;
  if (!A) return null;
  box.tabIndex = -1;
  return { box, A, r: A.res, line: el("p", A.reveal ? "" : A.res.correct ? "ok" : "error") };
}

function renderPuzzleResult() {
  const R = puzzleResult();
  if (!R) return;
  const { box, A, r, line } = R;
  if (A.reveal) line.textContent = t("puzzleSolution", r.best_score, r.moves);
  else if (r.correct) line.append(...msgNodes(t("puzzleRight", "{0}", r.score, r.moves), moveNode(r.move)));
  else line.append(...msgNodes(t("puzzleWrong", "{0}", r.score, r.rank, r.moves, r.best_score), moveNode(r.move)));
  box.append(line);
  if (r.answered_by > 0) box.append(el("p", "hint", t("puzzleCounts", r.answered_by, r.solved_by)));
  box.append(movesTable(t("puzzleBest"), ["rvScore", "rvLeave", "rvEquity"],
    r.best.map((c) => ({ move: c.move, cells: [String(c.score), wordNode(units(c.leave)), c.equity.toFixed(1)], show: c }))));
}

// answerMoveNode is a move as an answer gives it: a pass in words.
function answerMoveNode(mv) { return mv === "-" ? document.createTextNode(t("rvPass")) : moveNode(mv); }

// renderEndgameResult says what the endgame's answer gains to the end
// against the best move, what the highest-scoring play gains, and the
// line of play that gains the most (its first move laid on the board by
// Show).
function renderEndgameResult() {
  const R = puzzleResult();
  if (!R) return;
  const { box, A, r, line } = R;
  if (A.reveal) line.textContent = t("endgameSolution", signedNumber(r.best));
  else if (r.correct) line.append(...msgNodes(t("endgameRight", "{0}", signedNumber(r.value)), answerMoveNode(r.move)));
  else line.append(...msgNodes(t("endgameWrong", "{0}", signedNumber(r.value), signedNumber(r.best)), answerMoveNode(r.move)));
  box.append(line);
  if (!A.reveal && !r.exact) box.append(el("p", "hint", t("endgameInexact")));
  if (r.answered_by > 0) box.append(el("p", "hint", t("puzzleCounts", r.answered_by, r.solved_by)));
  const top = el("p");
  top.append(...msgNodes(t("endgameTop", "{0}", r.top.score, signedNumber(r.top_value)), moveNode(r.top.move)));
  box.append(top);
  box.append(movesTable(t("endgameLine"), ["endgameWho", "rvScore"],
    r.line.map((m, k) => ({ kind: m.kind, move: m.move, cells: [t(m.you ? "endgameYou" : "endgameOpponent"), String(m.score)], show: k === 0 ? m : null }))));
}

// ---------- messages between players ----------

// MSGS is the messages page: the conversation open ({name, messages,
// more, closed}) and the poll that keeps it and the list fresh.
let MSGS = null;

function messagesURL(name) { return "/messages" + (name ? "/" + encodeURIComponent(name) : ""); }

// showMessages opens /messages (the conversations) or /messages/NAME
// (one of them, to read and write).
async function showMessages(name) {
  $("#messages").hidden = false;
  document.title = t("messagesTitle") + " · atril";
  MSGS = { name: null, messages: [], more: false, closed: "" };
  $("#message-form").addEventListener("submit", (ev) => { ev.preventDefault(); sendMessage(); });
  $("#conversation-older").addEventListener("click", olderMessages);
  window.addEventListener("popstate", () => {
    const m = location.pathname.match(/^\/messages(?:\/([^/]+))?$/);
    if (m) openConversation(m[1] ? decodeURIComponent(m[1]) : null, false);
  });
  await renderMessagesAccount();
  if (name) openConversation(name, false);
  setInterval(() => { if (ME.signed_in && !document.hidden) refreshMessages(); }, 10000);
}

// renderMessagesAccount shows the page as the account allows: the
// conversations signed in, a line asking to sign in otherwise.
async function renderMessagesAccount() {
  $("#messages-signin").hidden = !!ME.signed_in;
  $("#messages-cols").hidden = !ME.signed_in;
  if (ME.signed_in) await loadConversations();
}

// messagesError says on the messages page what went wrong (nothing when
// e is null).
function messagesError(e) {
  const m = $("#messages-error");
  m.textContent = e ? t("error", e.message) : "";
  m.className = e ? "error" : "";
}

// loadConversations lists the account's conversations, the latest first.
async function loadConversations() {
  let L;
  try { L = await api("GET", "/api/me/messages"); } catch (e) { messagesError(e); return; }
  ME.unread_messages = L.unread;
  renderAccount();
  const ul = $("#conversations-list");
  ul.textContent = "";
  for (const c of L.conversations) {
    const li = el("li", c.unread ? "unread" : "");
    const a = el("a", "", c.name);
    a.href = messagesURL(c.name);
    if (MSGS && MSGS.name === c.name) a.setAttribute("aria-current", "page");
    a.addEventListener("click", (ev) => { ev.preventDefault(); openConversation(c.name, true); });
    li.append(a);
    if (c.unread) li.append(" ", el("span", "badge", t("messagesUnread", c.unread)));
    const text = c.last.text.length > 80 ? c.last.text.slice(0, 79) + "…" : c.last.text;
    li.append(el("span", "last", (c.last.mine ? t("messageYou") + " " : "") + text));
    ul.append(li);
  }
  $("#conversations-none").hidden = L.conversations.length > 0;
}

// openConversation shows the conversation with a player, its latest
// messages (which are read now), and the form to write.
async function openConversation(name, push) {
  if (!name) { MSGS.name = null; $("#conversation").hidden = true; return; }
  let P;
  try { P = await api("GET", "/api/me/messages/" + encodeURIComponent(name)); } catch (e) { messagesError(e); return; }
  messagesError(null);
  if (push) history.pushState(null, "", messagesURL(P.name));
  MSGS = { name: P.name, messages: P.messages, more: P.more, closed: P.closed || "" };
  renderConversation();
  loadConversations();
  if (!MSGS.closed) $("#message-text").focus();
}

// refreshMessages asks for the list and the open conversation's latest
// messages again.
async function refreshMessages() {
  loadConversations();
  if (!MSGS || !MSGS.name) return;
  const name = MSGS.name;
  let P;
  try { P = await api("GET", "/api/me/messages/" + encodeURIComponent(name)); } catch (e) { return; }
  if (!MSGS || MSGS.name !== name) return;
  // The latest page, after the older ones loaded before it.
  const first = P.messages.length ? P.messages[0].id : Infinity;
  MSGS.messages = MSGS.messages.filter((m) => m.id < first).concat(P.messages);
  MSGS.closed = P.closed || "";
  renderConversation();
}

async function olderMessages() {
  if (!MSGS || !MSGS.messages.length) return;
  let P;
  try {
    P = await api("GET", "/api/me/messages/" + encodeURIComponent(MSGS.name) + "?before=" + MSGS.messages[0].id);
  } catch (e) { messagesError(e); return; }
  MSGS.messages = P.messages.concat(MSGS.messages);
  MSGS.more = P.more;
  renderConversation(true);
}

// renderConversation draws the open conversation: each message with who
// wrote it and when, and whether a message of one's own was read.
function renderConversation(keepScroll) {
  $("#conversation").hidden = false;
  const title = t("conversationWith", MSGS.name);
  $("#conversation-title").textContent = "";
  const a = el("a", "", MSGS.name);
  a.href = profileURL(MSGS.name);
  $("#conversation-title").append(...msgNodes(t("conversationWith", "{0}"), a));
  document.title = title + " · atril";
  const ol = $("#conversation-list");
  ol.textContent = "";
  for (const m of MSGS.messages) {
    const li = el("li", m.mine ? "mine" : "theirs");
    li.append(el("span", "who", m.mine ? t("messageYou") : MSGS.name), " ", el("span", "text", m.text), " ");
    const time = el("time", "when", new Date(m.at).toLocaleString(LANG, { dateStyle: "short", timeStyle: "short" }));
    time.dateTime = m.at;
    li.append(time);
    if (m.mine && m.read) li.append(" ", el("span", "read", t("messageRead")));
    ol.append(li);
  }
  if (!MSGS.messages.length) ol.append(el("li", "hint", t("conversationEmpty")));
  if (!keepScroll) ol.scrollTop = ol.scrollHeight;
  $("#conversation-older").hidden = !MSGS.more;
  $("#conversation-closed").hidden = !MSGS.closed;
  $("#conversation-closed").textContent = MSGS.closed;
  $("#message-form").hidden = !!MSGS.closed;
}

// sendMessage writes the form's message to the open conversation.
async function sendMessage() {
  const text = $("#message-text").value.trim();
  const msg = $("#message-msg");
  msg.textContent = "";
  msg.className = "";
  if (!text || !MSGS || !MSGS.name) return;
  $("#message-go").disabled = true;
  try {
    const m = await api("POST", "/api/me/messages/" + encodeURIComponent(MSGS.name), { text });
    MSGS.messages.push(m);
    $("#message-text").value = "";
    renderConversation();
    loadConversations();
  } catch (e) {
    msg.textContent = t("error", e.message);
    msg.className = "error";
  } finally {
    $("#message-go").disabled = false;
  }
}

// ---------- puzzle rush ----------

// rushPath is the address of the run on the page.
function rushPath() { return "/api/rush/" + G.rush.id; }
function rushModeName(mode) { return t(mode === "survival" ? "rushSurvivalName" : mode === "daily" ? "rushDailyName" : "rushTimedName"); }

// showRush opens /rush: the form that starts a run, the leaderboard, and
// the run this tab was playing, if it goes on (its id is kept for the
// tab: it is the run's secret).
async function showRush() {
  document.title = t("rushTitle") + " · atril";
  try { INFO = INFO || await api("GET", "/api/info"); } catch (e) { /* no word lists */ }
  const sel = $("#rush-lexicon");
  const byLang = INFO && INFO.variants.find((v) => VARIANT_LANG[v.name] === browserLang());
  if (INFO) chooseLexicon(sel, [localStorage.getItem("atril:rush-lexicon"), localStorage.getItem("atril:puzzle"), byLang && byLang.default_lexicon, "en-sowpods"]);
  const saved = localStorage.getItem("atril:rush-mode");
  const mode = saved === "survival" || saved === "daily" ? saved : "timed";
  for (const r of document.querySelectorAll("input[name=rush-mode]")) r.checked = r.value === mode;
  sel.addEventListener("change", loadRushLeaders);
  for (const r of document.querySelectorAll("input[name=rush-mode]")) r.addEventListener("change", loadRushLeaders);
  $("#rush-form").addEventListener("submit", (ev) => { ev.preventDefault(); startRush(); });
  $("#rush-skip").addEventListener("click", () => answerRush(true));
  $("#rush-end").addEventListener("click", async () => { if (await ask(t("rushEndAsk"), t("rushEnd"))) endRush(); });
  renderRushSignIn();
  const id = sessionStorage.getItem("atril:rush");
  if (id) {
    try {
      const R = await api("GET", "/api/rush/" + id);
      if (!R.over) { rushPlay(R, []); return; }
    } catch (e) { /* gone, or another account's */ }
    sessionStorage.removeItem("atril:rush");
  }
  $("#rush-start").hidden = false;
  loadRushLeaders();
}

// renderRushSignIn says, to a guest, what signing in keeps.
function renderRushSignIn() { $("#rush-signin").hidden = ME.signed_in; }

function rushMode() { const r = document.querySelector("input[name=rush-mode]:checked"); return r ? r.value : "timed"; }

// loadRushLeaders shows the best runs of the form's word list and mode.
async function loadRushLeaders() {
  const lexicon = $("#rush-lexicon").value, mode = rushMode();
  if (!lexicon) return;
  const body = $("#rush-leaders tbody");
  $("#rush-leaders-caption").textContent = t("rushLeadersCaption", lexiconName(lexicon), rushModeName(mode));
  let B;
  try {
    B = await api("GET", "/api/rush/leaders?lexicon=" + encodeURIComponent(lexicon) + "&mode=" + mode);
  } catch (e) {
    B = { players: [], error: e.message };
  }
  if ($("#rush-lexicon").value !== lexicon || rushMode() !== mode) return;
  body.textContent = "";
  B.players.forEach((p, i) => body.append(leaderRow(i + 1, p.name, p.solved, p.runs)));
  if (mode === "daily" && B.day) $("#rush-leaders-caption").textContent = t("rushDailyCaption", lexiconName(lexicon), B.day);
  $("#rush-leaders").hidden = !B.players.length;
  const empty = $("#rush-leaders-empty");
  empty.hidden = B.players.length > 0;
  empty.textContent = B.error ? t("error", B.error) : t("rushLeadersEmpty");
}

// startRush starts a run of the form's word list and mode.
async function startRush() {
  const lexicon = $("#rush-lexicon").value, mode = rushMode();
  localStorage.setItem("atril:rush-lexicon", lexicon);
  localStorage.setItem("atril:rush-mode", mode);
  $("#rush-msg").textContent = "";
  if (mode === "daily" && !ME.signed_in) {
    $("#rush-msg").textContent = t("rushDailySignIn");
    $("#rush-msg").className = "error";
    return;
  }
  $("#rush-go").disabled = true;
  try {
    const R = await api("POST", "/api/rush", { lexicon, mode });
    sessionStorage.setItem("atril:rush", R.id);
    rushPlay(R, []);
  } catch (e) {
    const played = e.status === 409 && mode === "daily" && e.message.match(/: (\d+) solved;/);
    $("#rush-msg").textContent = played ? t("rushDailyPlayed", played[1]) : t("error", e.message);
    $("#rush-msg").className = "error";
  } finally {
    $("#rush-go").disabled = false;
  }
}

// rushPlay shows the run's puzzle on turn on the game's board; log holds
// the run's puzzles answered so far in this page.
function rushPlay(R, log) {
  const first = !G.rush || G.rush.id !== R.id;
  G.rush = { id: R.id, run: R, log, busy: false };
  $("#rush-start").hidden = true;
  $("#game").hidden = false;
  $("#rush").hidden = false;
  G.gameLang = VARIANT_LANG[R.state.variant] || "en";
  if (!G.rushWired) {
    G.rushWired = true;
    LANG = pickLang(G.gameLang);
    translatePage();
    buildBoard(R.state);
    wireGame();
  }
  if (first) {
    G.rushEnds = R.left_ms ? performance.now() + R.left_ms : 0;
    tickRush();
  }
  G.pending = []; G.selected = -1; G.typed = []; G.cursor = null; G.preview = null;
  R.state.seats.forEach((s, i) => { s.name = t("puzzleSeat", i + 1); });
  // Each puzzle is a position of its own: its moves are not news.
  G.announced = -1;
  render(R.state);
}

// renderRushSide shows the run's box (the puzzle, the score asked for,
// solved and missed) and hides what only a game has.
function renderRushSide() {
  const R = G.rush.run;
  const title = R.day ? t("rushDailyPuzzle", R.day, R.number, lexiconName(R.lexicon)) : t("rushPuzzle", R.number, lexiconName(R.lexicon));
  $("#rush-title").textContent = title;
  $("#game-title").textContent = title;
  document.title = title + " – atril";
  $("#turn").textContent = "";
  $("#turn").hidden = true;
  for (const b of ["#exchange", "#pass", "#resign", "#abort", "#hint", "#takeback", "#sound", "#notify", "#resume-box", "#share", "#chat-box", "#kibitz-box"]) $(b).hidden = true;
  $("#rush-score").textContent = t("rushStatus", R.solved, R.misses, R.max_misses);
  $("#rush-goal").textContent = R.top ? t("rushGoalTop", R.target) : t("rushGoal", R.target);
  $("#rush-clock").hidden = !R.seconds;
  for (const b of ["#rush-skip", "#rush-end"]) $(b).disabled = G.rush.busy;
}

// tickRush runs the timed mode's clock down; at the end the page asks
// the server, which ends the run.
function tickRush() {
  clearTimeout(G.rushTimer);
  if (!G.rush || !G.rushEnds) return;
  const left = G.rushEnds - performance.now();
  $("#rush-clock").textContent = t("rushLeft", clockText(Math.max(left, 0)));
  $("#rush-clock").classList.toggle("low", left < 30000);
  if (left <= 0) {
    api("GET", rushPath()).then((R) => { if (R.over) rushOver(R); else { G.rushEnds = performance.now() + Math.max(R.left_ms || 0, 1000); tickRush(); } })
      .catch((e) => say(t("error", e.message), "error"));
    return;
  }
  G.rushTimer = setTimeout(tickRush, Math.min(1000, left % 1000 || 1000));
}

// answerRush sends the placed tiles (or a skip) for the puzzle on turn
// and goes on to the next one, or to the run's end.
async function answerRush(skip) {
  if (!G.rush || G.rush.busy) return;
  const R = G.rush.run;
  const body = skip ? { number: R.number, skip: true }
    : { number: R.number, tiles: G.pending.map((p) => ({ row: p.row, col: p.col, letter: p.letter, blank: p.blank })) };
  G.rush.busy = true;
  renderRushSide();
  let res;
  try {
    res = await api("POST", rushPath() + "/answer", body);
  } catch (e) {
    G.rush.busy = false;
    say(t("error", e.message), "error");
    // The run moved on elsewhere (another tab, or its clock): show it as it is.
    if (e.status === 409) api("GET", rushPath()).then((N) => (N.over ? rushOver(N) : rushPlay(N, G.rush.log))).catch(() => {});
    else renderRushSide();
    return;
  }
  G.rush.busy = false;
  if (!skip && !res.ok) { say(t("rejected", localReason(res.reason)), "error"); renderRushSide(); return; }
  const top = res.best && res.best[0];
  const entry = { number: R.number, target: R.target, correct: res.correct, skipped: !!res.skipped, move: res.move || "", score: res.score,
    top: top ? top.move : "", best: res.best_score };
  G.rush.log.push(entry);
  if (res.run.over) rushOver(res.run);
  else {
    rushPlay(res.run, G.rush.log);
    say(rushLine(entry), res.correct ? "ok" : "error");
  }
}

// rushLine says how a puzzle of the run went.
function rushLine(x) {
  if (x.correct) return msgNodes(t("rushRight", "{0}", x.score, x.target), moveNode(x.move));
  if (x.skipped) return msgNodes(t("rushSkipped", "{0}", x.best), moveNode(x.top));
  return msgNodes(t("rushWrong", "{0}", x.score, x.target, "{1}", x.best), moveNode(x.move), moveNode(x.top));
}

// endRush ends the run now.
async function endRush() {
  try { rushOver(await api("POST", rushPath() + "/end")); } catch (e) { say(t("error", e.message), "error"); }
}

// rushOver shows the run's end: what it solved, the holder's best, the
// puzzles of the run, and the form to start another.
function rushOver(R) {
  clearTimeout(G.rushTimer);
  sessionStorage.removeItem("atril:rush");
  const log = G.rush ? G.rush.log : [];
  G.rush = null;
  G.rushEnds = 0;
  $("#game").hidden = true;
  $("#rush").hidden = true;
  $("#rush-start").hidden = false;
  document.title = t("rushTitle") + " · atril";
  const box = $("#rush-summary");
  box.textContent = "";
  box.append(el("h2", "", t("rushOver", R.solved)));
  if (R.best) box.append(el("p", R.best.solved === R.solved && R.solved > 0 ? "ok" : "hint",
    t(R.best.solved === R.solved && R.solved > 0 ? "rushNewBest" : "rushYourBest", R.best.solved, R.best.runs)));
  if (log.length) {
    const ol = el("ol", "rush-log");
    for (const x of log) {
      const li = el("li", x.correct ? "ok" : "error");
      li.value = x.number;
      li.append(...rushLine(x));
      ol.append(li);
    }
    box.append(ol);
  }
  box.hidden = false;
  box.focus();
  $("#rush-go").textContent = t("rushAgain");
  loadRushLeaders();
}

// movesTable is a table of moves: a caption, the headings (string keys)
// of the columns after the move's, and rows {move, cells, show, cls}
// whose show, a placement with tiles, gets a button that lays it on the
// board.
function movesTable(caption, heads, rows) {
  const table = el("table", "analysis");
  table.append(el("caption", "", caption));
  const head = el("tr");
  for (const h of ["rvMove", ...heads]) { const th = el("th", "", t(h)); th.scope = "col"; head.append(th); }
  const act = el("th");
  act.scope = "col";
  act.append(el("span", "sr-only", t("puzzleShow")));
  head.append(act);
  const thead = el("thead");
  thead.append(head);
  table.append(thead);
  const body = el("tbody");
  for (const r of rows) {
    const tr = el("tr", r.cls || "");
    const mv = el("td");
    mv.append(r.kind ? reviewMoveNode(r.kind, r.move) : moveNode(r.move));
    tr.append(mv);
    for (const c of r.cells) {
      const td = el("td", typeof c === "string" ? "n" : "");
      td.append(c);
      tr.append(td);
    }
    const act = el("td");
    if (r.show && r.show.tiles && r.show.tiles.length) {
      const show = el("button", "small", t("puzzleShow"));
      show.type = "button";
      show.setAttribute("aria-label", t("puzzleShow") + " " + plainMove(r.move));
      show.addEventListener("click", () => showCandidate(r.show));
      act.append(show);
    }
    tr.append(act);
    body.append(tr);
  }
  table.append(body);
  return table;
}

// showCandidate lays a play's tiles from the rack on the board.
function showCandidate(c) {
  G.pending = []; G.selected = -1; G.typed = []; G.cursor = null;
  const used = new Set();
  for (const x of c.tiles) {
    const i = G.rack.findIndex((rt, k) => !used.has(k) && (x.blank ? rt.blank : !rt.blank && rt.letter === x.letter));
    if (i < 0) continue;
    used.add(i);
    G.pending.push({ i, row: x.row, col: x.col, letter: x.letter, blank: !!x.blank });
  }
  changed();
}

async function showProfile(name) {
  $("#profile").hidden = false;
  try {
    PROFILE = await api("GET", "/api/players/" + encodeURIComponent(name));
  } catch (e) {
    PROFILE = { missing: name, status: e.status, error: e.message };
  }
  // The word lists offered, for the filter of the games.
  try { INFO = INFO || await api("GET", "/api/info"); } catch (e) { /* only "All word lists" */ }
  PGAMES = null;
  renderProfile();
  if (!PROFILE.missing) startProfileGames();
}

// renderProfileAccount shows the account's settings on its own page,
// with the players it blocks, and on another player's page, signed in,
// the button that blocks or unblocks that player.
function renderProfileAccount() {
  const shown = !!ME.signed_in && !!PROFILE && !PROFILE.missing && !PROFILE.closed;
  const own = shown && ME.name === PROFILE.name;
  $("#profile-account").hidden = !own;
  $("#profile-block").hidden = !shown || own;
  $("#profile-follow").hidden = !shown || own;
  if (PROFILE && !PROFILE.missing) $("#profile-followers").textContent = t("followersLine", PROFILE.followers || 0);
  $("#profile-invite").hidden = !shown || own || isBlocked(PROFILE.name);
  $("#profile-message").hidden = $("#profile-invite").hidden;
  if (shown && !own) {
    $("#profile-invite").href = "/?invite=" + encodeURIComponent(PROFILE.name);
    $("#profile-message").href = messagesURL(PROFILE.name);
    $("#block-btn").textContent = t(isBlocked(PROFILE.name) ? "unblock" : "block");
    $("#follow-btn").textContent = t(isFollowed(PROFILE.name) ? "unfollow" : "follow");
  }
  if (!own) return;
  fillBioForm();
  $("#password-user").value = ME.name;
  accountList("#follows-list", "#follows-none", ME.follows || [], "unfollow", (name) => setFollow(name, false));
  accountList("#blocked-list", "#blocked-none", ME.blocked || [], "unblock", (name) => setBlock(name, false));
  showPasskeys();
  $("#recovery-user").value = ME.name;
  showRecoveryLeft();
}

// ---------- recovery codes ----------

// showRecoveryLeft says how many recovery codes the account has left.
async function showRecoveryLeft() {
  try {
    const R = await api("GET", "/api/me/recovery-codes");
    $("#recovery-left").textContent = R.left ? t("recoveryLeft", R.left) : t("recoveryNone");
  } catch (e) { $("#recovery-left").textContent = t("error", e.message); }
}

// makeRecoveryCodes makes the account's recovery codes anew (its password
// asked for) and shows them this once.
async function makeRecoveryCodes(ev) {
  ev.preventDefault();
  const msg = $("#recovery-msg");
  msg.textContent = "";
  msg.className = "";
  const password = $("#recovery-password").value;
  if (!password) { msg.textContent = t("fieldsEmpty"); msg.className = "error"; return; }
  $("#recovery-go").disabled = true;
  try {
    const R = await api("POST", "/api/me/recovery-codes", { password });
    $("#recovery-password").value = "";
    const pre = $("#recovery-codes");
    pre.textContent = R.codes.join("\n");
    pre.hidden = false;
    msg.textContent = t("recoveryMade");
    showRecoveryLeft();
  } catch (e) {
    msg.textContent = accountReason(e.message);
    msg.className = "error";
  } finally {
    $("#recovery-go").disabled = false;
  }
}

// recoverAccount sets a new password with a recovery code, from the
// sign-in dialog, and signs in.
async function recoverAccount() {
  const err = $("#signin-error");
  err.textContent = "";
  const name = $("#signin-name").value.trim(), code = $("#recover-code").value.trim(), password = $("#recover-password").value;
  if (!name || !code || !password) { err.textContent = t("recoverEmpty"); return; }
  const buttons = document.querySelectorAll("#signin-form button");
  buttons.forEach((b) => { b.disabled = true; });
  try {
    ME = await api("POST", "/api/login/recover", { name, code, password });
    $("#recover-code").value = "";
    $("#recover-password").value = "";
    $("#recover-box").open = false;
    $("#signin-dialog").close();
    accountChanged();
    say(t("recoverDone"));
    $("#me-link").focus();
  } catch (e) {
    err.textContent = accountReason(e.message);
  }
  buttons.forEach((b) => { b.disabled = false; });
}

// ---------- passkeys ----------

// passkeysSupported reports whether the browser makes and uses passkeys.
function passkeysSupported() { return window.isSecureContext && !!window.PublicKeyCredential && !!navigator.credentials; }

function fromB64(s) {
  const t64 = s.replace(/-/g, "+").replace(/_/g, "/");
  return Uint8Array.from(atob(t64 + "===".slice((t64.length + 3) % 4)), (c) => c.charCodeAt(0));
}
function toB64(buf) {
  let s = "";
  for (const b of new Uint8Array(buf)) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

// showPasskeys lists the account's passkeys on its own page.
async function showPasskeys(msg) {
  $("#passkeys-box").hidden = !passkeysSupported();
  if ($("#passkeys-box").hidden) return;
  let L;
  try { L = await api("GET", "/api/me/passkeys"); } catch (e) { L = { passkeys: [] }; msg = msg || t("error", e.message); }
  const list = $("#passkeys-list");
  list.textContent = "";
  for (const p of L.passkeys) {
    const li = el("li", "", p.used ? t("passkeyUsed", p.name, new Date(p.used).toLocaleDateString(LANG)) : t("passkeyMade", p.name, new Date(p.created).toLocaleDateString(LANG)));
    const b = el("button", "", t("passkeyRemove"));
    b.type = "button";
    b.setAttribute("aria-label", t("passkeyRemove") + " " + p.name);
    b.addEventListener("click", () => removePasskey(p));
    li.append(" ", b);
    list.append(li);
  }
  $("#passkeys-none").hidden = L.passkeys.length > 0;
  $("#passkeys-msg").textContent = msg || "";
}

// addPasskey makes a passkey of this device (or its password manager)
// for the account and registers it.
async function addPasskey() {
  const btn = $("#passkey-add");
  const password = $("#passkey-password").value;
  if (!password) { showPasskeys(t("passkeyPassword")); return; }
  btn.disabled = true;
  try {
    const o = await api("POST", "/api/me/passkeys/options", { password });
    $("#passkey-password").value = "";
    const cred = await navigator.credentials.create({ publicKey: {
      challenge: fromB64(o.challenge), rp: { id: o.rp_id, name: o.rp_name },
      user: { id: fromB64(o.user_id), name: o.user_name, displayName: o.user_name },
      pubKeyCredParams: o.algorithms.map((alg) => ({ type: "public-key", alg })),
      excludeCredentials: o.exclude.map((id) => ({ type: "public-key", id: fromB64(id) })),
      authenticatorSelection: { residentKey: "required", requireResidentKey: true, userVerification: "preferred" },
      attestation: "none", timeout: o.timeout_ms,
    } });
    await api("POST", "/api/me/passkeys", { name: $("#passkey-name").value.trim(), id: toB64(cred.rawId),
      client_data_json: toB64(cred.response.clientDataJSON), attestation_object: toB64(cred.response.attestationObject) });
    $("#passkey-name").value = "";
    showPasskeys(t("passkeyAdded"));
  } catch (e) {
    showPasskeys(e.name === "NotAllowedError" ? t("passkeyCancelled") : e.name === "InvalidStateError" ? t("passkeyThere") : accountReason(e.message));
  } finally {
    btn.disabled = false;
  }
}

async function removePasskey(p) {
  if (!await ask(t("passkeyRemoveAsk", p.name), t("passkeyRemove"))) return;
  try {
    await api("DELETE", "/api/me/passkeys/" + encodeURIComponent(p.id));
    showPasskeys(t("passkeyRemoved", p.name));
  } catch (e) { showPasskeys(t("error", e.message)); }
}

// passkeySignIn signs in with a passkey the browser holds for the site.
async function passkeySignIn() {
  const err = $("#signin-error");
  err.textContent = "";
  const buttons = document.querySelectorAll("#signin-form button");
  buttons.forEach((b) => { b.disabled = true; });
  try {
    const o = await api("POST", "/api/login/passkey/options", {});
    const cred = await navigator.credentials.get({ publicKey: {
      challenge: fromB64(o.challenge), rpId: o.rp_id, userVerification: "preferred", timeout: o.timeout_ms, allowCredentials: [],
    } });
    ME = await api("POST", "/api/login/passkey", { id: toB64(cred.rawId), client_data_json: toB64(cred.response.clientDataJSON),
      authenticator_data: toB64(cred.response.authenticatorData), signature: toB64(cred.response.signature) });
    $("#signin-dialog").close();
    accountChanged();
    const join = !$("#join").hidden && !$("#join-form").hidden;
    (join ? $("#join-button") : $("#me-link")).focus();
  } catch (e) {
    err.textContent = e.name === "NotAllowedError" ? t("passkeyCancelled") : accountReason(e.message);
  }
  buttons.forEach((b) => { b.disabled = false; });
}

// accountList fills the list ul (empty: the note none shows) with the
// names, each a link to the player's page and a button (its label the key
// undo) that calls undo with the name.
function accountList(ul, none, names, undo, fn) {
  $(none).hidden = names.length > 0;
  const list = $(ul);
  list.textContent = "";
  for (const name of names) {
    const li = el("li");
    const a = el("a", "", name);
    a.href = profileURL(name);
    const b = el("button", "", t(undo));
    b.type = "button";
    b.setAttribute("aria-label", t(undo) + " " + name);
    b.addEventListener("click", () => fn(name));
    li.append(a, " ", b);
    list.append(li);
  }
}

// sendReport sends the profile's player's report to the operators.
async function sendReport(ev) {
  ev.preventDefault();
  const msg = $("#report-msg");
  const reason = $("#report-text").value.trim();
  msg.className = "error";
  if (!reason) { msg.textContent = t("reportEmpty"); return; }
  // The game's address or its id.
  const g = $("#report-game").value.trim();
  const m = g.match(/\/g\/([0-9a-f]+)/);
  const body = { reason };
  if (g) body.game = m ? m[1] : g;
  $("#report-go").disabled = true;
  try {
    await api("POST", "/api/players/" + encodeURIComponent(PROFILE.name) + "/report", body);
    $("#report-text").value = $("#report-game").value = "";
    msg.textContent = t("reportSent");
    msg.className = "";
  } catch (e) {
    msg.textContent = t("error", e.message);
  }
  $("#report-go").disabled = false;
}

// isBlocked reports whether the signed-in player blocks the account
// named name.
function isBlocked(name) { return !!ME.signed_in && (ME.blocked || []).includes(name); }

// setBlock blocks or unblocks the account named name, and redraws what
// depends on it (the profile, the chats).
async function setBlock(name, on) {
  if (on && !await ask(t("blockAsk", name), t("block"))) return;
  await changeList(ACCOUNT_LISTS.block, name, on);
}

// isFollowed reports whether the signed-in player follows the account
// named name.
function isFollowed(name) { return !!ME.signed_in && (ME.follows || []).includes(name); }

// setFollow follows or unfollows the account named name.
function setFollow(name, on) { return changeList(ACCOUNT_LISTS.follow, name, on); }

// ACCOUNT_LISTS are the lists of other accounts a player keeps: their
// address in the API, the field of ME with their names, the field of the
// answer, the messages after a change, where the message shows on the
// other player's page (elsewhere: under one's own list), and the count on
// that page that a change moves.
const ACCOUNT_LISTS = {
  block: { path: "/api/me/blocks", me: "blocked", answer: "blocks", done: ["blockedThem", "unblockedThem"], msg: "#block-msg" },
  follow: { path: "/api/me/follows", me: "follows", answer: "follows", done: ["followingThem", "unfollowedThem"], msg: "#follow-msg", count: "followers" },
};

// changeList puts the account named name on the list L (on) or takes it
// off, and redraws the profile.
async function changeList(L, name, on) {
  const msg = $(PROFILE.name === name ? L.msg : "#profile-msg");
  try {
    const out = on ? await api("POST", L.path, { name }) : await api("DELETE", L.path + "/" + encodeURIComponent(name));
    const was = (ME[L.me] || []).includes(name);
    ME[L.me] = out[L.answer].map((x) => x.name);
    if (L.count && PROFILE.name === name && was !== on) PROFILE[L.count] = (PROFILE[L.count] || 0) + (on ? 1 : -1);
    msg.textContent = t(L.done[on ? 0 : 1], name);
    msg.className = "";
  } catch (e) {
    msg.textContent = t("error", e.message);
    msg.className = "error";
  }
  renderProfileAccount();
}

function dateText(iso) { return new Intl.DateTimeFormat(LANG, { dateStyle: "medium" }).format(new Date(iso)); }

function renderProfile() {
  const P = PROFILE;
  if (!P) return;
  $("#profile-body").hidden = !!P.missing;
  $("#profile-missing").hidden = !P.missing;
  if (P.missing) {
    $("#profile-name").textContent = P.missing;
    $("#profile-missing").textContent = P.status === 404 ? t("noPlayer", P.missing) : t("error", P.error);
    document.title = "atril";
    return;
  }
  $("#profile-name").textContent = P.name;
  document.title = P.name + " – atril";
  renderProfileAccount();
  $("#profile-since").textContent = t("memberSince", dateText(P.since));
  const live = $("#profile-live-games");
  live.textContent = "";
  for (const g of P.offers || []) live.append(openGameItem(g));
  for (const g of P.playing || []) live.append(playingGameItem(g, false));
  $("#profile-live").hidden = !live.children.length;
  $("#profile-seen").hidden = !P.seen;
  $("#profile-seen").textContent = !P.seen ? "" : P.online ? t("profileOnline") : t("profileSeen", ago(P.seen));
  renderBio();
  $("#profile-closed").hidden = !P.closed;
  const rb = $("#profile-ratings tbody");
  rb.textContent = "";
  for (const r of P.ratings) {
    const tr = el("tr");
    tr.append(el("td", "", lexiconName(r.lexicon)), el("td", "", paceName(r.pace)), ratingCell(r, ratingText(r) + " ± " + r.deviation), el("td", "n", String(r.games)),
      el("td", "n", `${r.wins}–${r.losses}–${r.draws}`));
    rb.append(tr);
  }
  const pz = P.puzzles || { tried: 0 };
  const lines = [];
  if (pz.tried) lines.push(t("puzzlesLine", pz.tried, pz.solved, pz.streak));
  if (pz.endgames_tried) lines.push(t("endgamesLine", pz.endgames_tried, pz.endgames_solved));
  if (!lines.length) lines.push(t("puzzlesNone"));
  $("#profile-puzzles").textContent = lines.join(" · ");
  $("#profile-puzzles").className = pz.tried || pz.endgames_tried ? "" : "hint";
  const pr = $("#profile-puzzle-ratings");
  pr.textContent = "";
  for (const r of pz.ratings || []) pr.append(el("p", "", t("puzzleRatingLine", lexiconName(r.lexicon), ratingText(r), r.deviation, r.answered, r.solved)));
  for (const r of pz.endgame_ratings || []) pr.append(el("p", "", t("endgameRatingLine", lexiconName(r.lexicon), ratingText(r), r.deviation, r.answered, r.solved)));
  for (const r of pz.rush || []) pr.append(el("p", "", t("rushProfileLine", lexiconName(r.lexicon), rushModeName(r.mode), r.solved, r.runs)));
  pr.hidden = !pr.children.length;
  $("#profile-ratings").hidden = !P.ratings.length;
  $("#profile-no-ratings").hidden = P.ratings.length > 0;
  // The games against the computer, level by level.
  const cb = $("#profile-computer tbody");
  cb.textContent = "";
  for (const l of P.computer || []) {
    const tr = el("tr");
    tr.append(el("td", "", levelName(l.level)), el("td", "n", String(l.games)), el("td", "n", `${l.wins}–${l.losses}–${l.draws}`),
      el("td", "n", l.average.toFixed(1) + " – " + l.computer_average.toFixed(1)));
    cb.append(tr);
  }
  $("#profile-computer-box").hidden = !cb.children.length;
  fillGamesFilter();
  renderProfileGames();
}

// ---------- a player's games: filters, pages, statistics ----------

// PGAMES is the list of the profile's games shown: its filter (kind:
// "" all, rated or casual; word list; pace, "" all; opponent), the games loaded so far (pages of GET
// /api/players/{name}/games), whether older ones follow, and what they
// add up to (GET .../stats); seq drops the answers of a filter since
// replaced.
let PGAMES = null;

// startProfileGames loads the first page of the profile's games of
// every kind, of the word list and pace the player has played most rated
// games in (for its rating graph), or of every word list.
function startProfileGames() {
  const top = [...PROFILE.ratings].sort((a, b) => b.games - a.games)[0];
  PGAMES = { kind: "", lexicon: top ? top.lexicon : "", pace: top ? top.pace : "", opponent: "", level: "", games: [], more: false, stats: null, seq: 0 };
  fillGamesFilter();
  loadProfileGames(false);
}

// fillGamesFilter fills the filter's word lists (those offered here) and
// shows the button of the games with the signed-in player on another
// player's page.
function fillGamesFilter() {
  if (!PGAMES) return;
  const sel = $("#games-lexicon");
  sel.textContent = "";
  sel.append(new Option(t("allLexicons"), ""));
  for (const v of INFO ? INFO.variants : []) for (const l of v.lexicons) sel.append(new Option(lexiconName(l), l));
  sel.value = PGAMES.lexicon;
  const ps = $("#games-pace");
  fillPaces(ps, true, PGAMES.pace);
  ps.disabled = !PGAMES.lexicon;
  $("#games-kind").value = PGAMES.kind;
  $("#games-opponent").value = PGAMES.opponent;
  // The games against one computer level.
  const lv = $("#games-level");
  lv.textContent = "";
  lv.append(new Option(t("gamesLevelAny"), ""));
  for (const l of INFO ? INFO.levels : []) lv.append(new Option(levelName(l), l));
  lv.value = PGAMES.level;
  const h2h = $("#games-h2h");
  h2h.hidden = !ME.signed_in || ME.name === PROFILE.name;
  if (ME.signed_in) h2h.textContent = t("gamesWithYou");
}

// loadProfileGames loads the next page of games (more) or the first one
// with the statistics, for the filter of PGAMES.
async function loadProfileGames(more) {
  const pg = PGAMES;
  const seq = ++pg.seq;
  const q = new URLSearchParams();
  if (pg.kind) q.set("kind", pg.kind);
  if (pg.lexicon) q.set("lexicon", pg.lexicon);
  if (pg.lexicon && pg.pace) q.set("pace", pg.pace);
  if (pg.opponent) q.set("opponent", pg.opponent);
  else if (pg.level) q.set("level", pg.level);
  const base = "/api/players/" + encodeURIComponent(PROFILE.name);
  const page = new URLSearchParams(q);
  if (more && pg.games.length) page.set("before", pg.games[pg.games.length - 1].id);
  $("#games-more").disabled = true;
  try {
    const [list, stats] = await Promise.all([api("GET", base + "/games?" + page),
      more ? Promise.resolve(pg.stats) : api("GET", base + "/stats?" + q)]);
    if (PGAMES !== pg || seq !== pg.seq) return;
    pg.games = more ? pg.games.concat(list.games) : list.games;
    pg.more = list.more;
    pg.stats = stats;
    pg.error = "";
  } catch (e) {
    if (PGAMES !== pg || seq !== pg.seq) return;
    pg.error = e.message;
    if (!more) { pg.games = []; pg.more = false; pg.stats = null; }
  }
  renderProfileGames();
}

// renderProfileGames shows the games loaded, their statistics and the
// rating graph.
function renderProfileGames() {
  const P = PROFILE, pg = PGAMES;
  if (!pg) return;
  renderGamesStats(pg);
  const gb = $("#profile-games tbody");
  gb.textContent = "";
  const key = (n) => n.normalize("NFKC").toLowerCase();
  for (const g of pg.games) {
    const mine = g.seats.find((s) => !s.level && !s.guest && key(s.name) === key(P.name));
    if (!mine) continue;
    const others = g.seats.filter((s) => s !== mine);
    const tr = el("tr", mine.result === 1 ? "won" : mine.result === 0 ? "lost" : "drawn");
    const when = el("td");
    const a = el("a", "", dateText(g.finished));
    a.href = "/g/" + g.id;
    when.append(a);
    const opp = el("td");
    others.forEach((o, i) => {
      if (i) opp.append(", ");
      if (o.level) opp.append(t("computerName", levelName(o.level)));
      else if (o.guest) opp.append(o.name);
      else {
        const oa = el("a", "", o.name);
        oa.href = profileURL(o.name);
        opp.append(oa);
      }
    });
    const change = el("td", "n");
    if (g.rated) {
      const d = mine.rating_after - mine.rating_before;
      change.className = "n " + (d > 0 ? "up" : d < 0 ? "down" : "");
      change.append(el("span", "after", mine.rating_after + " "), "(" + signedNumber(d) + ")");
    } else change.append(el("span", "hint", t("kindCasual")));
    // The seat's play, where the server counted it (turns).
    const counted = (x) => (mine.turns ? String(x || 0) : "");
    // Its moves against the computer's static valuation, once analysed.
    const top = el("td", "n");
    if (mine.analysed) {
      top.textContent = (mine.top_moves || 0) + "/" + mine.analysed;
      top.title = t("gTopTitle", mine.top_moves || 0, mine.analysed, (mine.lost || 0).toFixed(1));
      // On one's own page, a game whose moves gave up a mistake's worth
      // of equity opens its mistakes to practise.
      if (ME.signed_in && ME.name === P.name && (mine.lost || 0) >= MISTAKE_LOSS) {
        const pr = el("a", "practise", t("practiceShort"));
        pr.href = "/g/" + g.id + "/practice?seat=" + g.seats.indexOf(mine);
        top.append(" ", pr);
      }
    }
    tr.append(when, el("td", "", lexiconName(g.lexicon) + (g.pace ? " · " + paceName(g.pace) : "")), opp, el("td", "n", [mine, ...others].map((s) => s.score).join("–")),
      el("td", "n", counted(mine.bingos)), el("td", "n", counted(mine.best_move)), top,
      el("td", "", t(mine.result === 1 ? "resWin" : mine.result === 0 ? "resLoss" : "resDraw")), change);
    gb.append(tr);
  }
  $("#profile-games").hidden = !gb.children.length;
  $("#profile-no-games").hidden = gb.children.length > 0;
  $("#games-more").hidden = !pg.more;
  $("#games-more").disabled = false;
}

// renderGamesStats writes what the games of the filter add up to, and
// draws the rating graph when a word list is picked.
function renderGamesStats(pg) {
  const box = $("#profile-stats");
  box.textContent = "";
  box.className = "";
  const st = pg.stats;
  if (pg.error) {
    box.textContent = t("error", pg.error);
    box.className = "error";
  } else if (st && st.games === 0) {
    box.textContent = t("statsNone");
    box.className = "hint";
  } else if (st) {
    const pct = Math.round(100 * (st.wins + st.draws / 2) / st.games);
    if (st.level) box.append(t("statsAgainst", t("computerName", levelName(st.level))), " ");
    box.append(t("statsLine", st.games, st.wins, st.losses, st.draws, pct), " ",
      t("statsAverage", st.average.toFixed(1), st.opponent_average.toFixed(1)), " ");
    const a = el("a", "", String(st.high.score));
    a.href = "/g/" + st.high.game;
    box.append(t("statsHigh"), " ", a, ".");
    // How the player played: over the games whose moves were counted
    // (results recorded before the server counted them say nothing).
    if (st.play_games > 0) {
      const perTurn = (st.points_per_turn || 0).toFixed(1), bingos = st.bingos_per_game.toFixed(2);
      const best = el("a", "", String(st.best_move.score));
      best.href = "/g/" + st.best_move.game;
      box.append(" ", st.play_games < st.games ? t("statsPlayOf", perTurn, bingos, st.play_games) : t("statsPlay", perTurn, bingos),
        " ", t("statsBest"), " ", best, ".");
    }
    // Its moves against the computer's static valuation, over the games
    // analysed.
    if (st.analysed_moves > 0) {
      box.append(" ", t("statsAccuracy", st.top_share.toFixed(1), st.analysed_moves, st.lost_per_move.toFixed(1)));
    }
  }
  drawRatingGraph(st && st.history && st.history.length >= 2 ? st.history : null, pg.lexicon, pg.pace);
  drawAccuracyGraph(st && !pg.error && st.accuracy && st.accuracy.length >= 2 ? st.accuracy : null);
}

// drawAccuracyGraph draws the equity the player gave up a move in each
// analysed game of acc (oldest first), or hides the graph for null.
function drawAccuracyGraph(acc) {
  const fig = $("#accuracy-graph"), svg = $("#accuracy-svg");
  fig.hidden = !acc;
  svg.textContent = "";
  if (!acc) return;
  const vs = acc.map((p) => p.lost_per_move);
  // From 0 up to a rule of 1, 2, 5, 10, ... points above the highest.
  const top = Math.max(1, ...vs);
  const step = [1, 2, 5, 10, 20, 50].find((s) => top / s <= 5) || 100;
  seriesGraph(svg, acc.map((p) => ({ v: p.lost_per_move, finished: p.finished,
    title: t("gTopTitle", p.top_moves, p.moves, p.lost.toFixed(1)) })), 0, Math.ceil(top / step) * step, step, true);
  const label = t("accuracyGraph", acc.length, vs[0].toFixed(1), vs[vs.length - 1].toFixed(1));
  svg.setAttribute("aria-label", label);
  $("#accuracy-caption").textContent = label;
}

// drawRatingGraph draws the player's rating after each game of hist
// (oldest first) as a line, or hides the graph when hist is null.
function drawRatingGraph(hist, lexicon, pace) {
  const fig = $("#rating-graph"), svg = $("#rating-svg");
  fig.hidden = !hist;
  svg.textContent = "";
  if (!hist) return;
  const rs = hist.map((p) => p.rating);
  const lo = Math.floor((Math.min(...rs) - 10) / 50) * 50, hi = Math.ceil((Math.max(...rs) + 10) / 50) * 50;
  const step = (hi - lo) / 50 > 4 ? Math.ceil((hi - lo) / 200) * 50 : 50;
  seriesGraph(svg, hist.map((p) => ({ v: p.rating, finished: p.finished, title: String(p.rating) })), lo, hi, step, hist.length <= 60);
  const label = t("ratingGraph", lexiconName(lexicon) + " · " + paceName(pace), hist.length, rs[0], rs[rs.length - 1]);
  svg.setAttribute("aria-label", label);
  $("#rating-caption").textContent = label;
}

// seriesGraph draws pts (each a value v, the date finished and a title for
// its dot) in order as a line in svg, on a scale from lo to hi with a
// rule every step, the first and last dates below, and a dot for each
// point with dots set.
function seriesGraph(svg, pts, lo, hi, step, dots) {
  const NS = "http://www.w3.org/2000/svg";
  const mk = (name, attrs, text) => {
    const e = document.createElementNS(NS, name);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    svg.append(e);
    return e;
  };
  const W = 600, H = 170, L = 52, R = 10, T = 10, B = 24;
  const x = (i) => L + i * (W - L - R) / (pts.length - 1);
  const y = (v) => T + (hi - v) * (H - T - B) / (hi - lo);
  for (let v = lo; v <= hi; v += step) {
    mk("line", { class: "axis", x1: L, x2: W - R, y1: y(v), y2: y(v) });
    mk("text", { x: L - 6, y: y(v) + 4, "text-anchor": "end" }, String(v));
  }
  mk("polyline", { class: "line", points: pts.map((p, i) => x(i).toFixed(1) + "," + y(p.v).toFixed(1)).join(" ") });
  if (dots) {
    pts.forEach((p, i) => {
      const c = mk("circle", { cx: x(i).toFixed(1), cy: y(p.v).toFixed(1), r: 3 });
      const tt = document.createElementNS(NS, "title");
      tt.textContent = dateText(p.finished) + ": " + p.title;
      c.append(tt);
    });
  }
  mk("text", { x: L, y: H - 6 }, dateText(pts[0].finished));
  mk("text", { x: W - R, y: H - 6, "text-anchor": "end" }, dateText(pts[pts.length - 1].finished));
}

$("#games-filter").addEventListener("submit", (ev) => {
  ev.preventDefault();
  if (!PGAMES) return;
  PGAMES.kind = $("#games-kind").value;
  PGAMES.lexicon = $("#games-lexicon").value;
  PGAMES.pace = PGAMES.lexicon ? $("#games-pace").value : "";
  $("#games-pace").disabled = !PGAMES.lexicon;
  PGAMES.opponent = $("#games-opponent").value.trim();
  // A player's name or a computer level: the one chosen last.
  PGAMES.level = PGAMES.opponent ? "" : $("#games-level").value;
  $("#games-level").value = PGAMES.level;
  loadProfileGames(false);
});
$("#games-level").addEventListener("change", () => {
  if ($("#games-level").value) $("#games-opponent").value = "";
  $("#games-filter").requestSubmit();
});
$("#games-kind").addEventListener("change", () => $("#games-filter").requestSubmit());
$("#games-lexicon").addEventListener("change", () => $("#games-filter").requestSubmit());
$("#games-pace").addEventListener("change", () => $("#games-filter").requestSubmit());
$("#games-h2h").addEventListener("click", () => {
  $("#games-opponent").value = ME.name;
  $("#games-filter").requestSubmit();
});
$("#games-more").addEventListener("click", () => { if (PGAMES) loadProfileGames(true); });

// ---------- start ----------

$("#lang-select").addEventListener("change", () => {
  saveSettings({ language: $("#lang-select").value });
  LANG = $("#lang-select").value;
  relang();
});

// relang shows the page again in LANG.
function relang() {
  translatePage();
  if (G.st) {
    render(G.st);
    if (G.review) { renderReview(); loadAnalysis(G.review.k); }
  } else if (PROFILE) {
    renderProfile();
  } else if (TOURNEY) {
    renderTourney();
  } else if (!$("#finder").hidden) {
    document.title = t("finderTitle") + " · atril";
    fillFinder();
    showFound();
    showLeaves();
  } else if (!$("#study").hidden) {
    document.title = t("studyTitle") + " · atril";
    fillStudy();
    renderStudy();
    renderCardbox();
  } else if (INFO) { fillCreateForm(); fillQuick(); fillJudge(); fillImport(); showJudged(); fillLeadersLexicons(); showLeaders(); fillPuzzleCard(); loadOpen(); loadMine(); }
}

LANG = pickLang(null);
translatePage();
wireAccount();
wireSettings();
registerWorker();
// The account first: the pages show what a signed-in person may do.
loadMe().then(() => {
  const m = location.pathname.match(/^\/g\/([0-9a-f]{16})$/);
  const p = location.pathname.match(/^\/p\/([^/]+)$/);
  const pz = location.pathname.match(/^\/(puzzle|endgame)(?:\/([^/]+)\/(\d+|today))?$/);
  const tm = location.pathname.match(/^\/t\/([0-9a-f]{16})$/);
  const pr = location.pathname.match(/^\/g\/([0-9a-f]{16})\/practice(?:\/(\d+))?$/);
  if (m) showGame(m[1]);
  else if (pr) showPractice(pr[1], pr[2] === undefined ? null : pr[2], new URLSearchParams(location.search).get("seat"));
  else if (tm) showTourney(tm[1]);
  else if (location.pathname === "/analysis") showPosition();
  else if (location.pathname === "/words") showFinder();
  else if (location.pathname === "/study") showStudy();
  else if (location.pathname === "/rush") showRush();
  else if (location.pathname === "/messages" || location.pathname.startsWith("/messages/")) {
    const mm = location.pathname.match(/^\/messages\/([^/]+)$/);
    let name = mm ? mm[1] : null;
    try { name = name && decodeURIComponent(name); } catch (e) { /* as written */ }
    showMessages(name);
  }
  else if (pz) {
    let lex = pz[2] || localStorage.getItem("atril:puzzle") || "en-sowpods";
    try { lex = decodeURIComponent(lex); } catch (e) { /* as written */ }
    showPuzzle(lex, pz[3] || "today", pz[1] === "endgame" ? "endgame" : "score");
  }
  else if (p) {
    let name = p[1];
    try { name = decodeURIComponent(name); } catch (e) { /* shown as written */ }
    showProfile(name);
  } else showLobby().catch((e) => say(t("error", e.message), "error"));
});

// ---------- the analysis board ----------

// emptyCGP is an empty 15×15 board for two players, no racks.
function emptyCGP() { return Array(15).fill("15").join("/") + " / 0/0 0"; }
function positionURL(cgp) { return "/analysis?cgp=" + encodeURIComponent(cgp); }
function lexOp(cgp) { const m = cgp.match(/(?:^|\s)lex\s+([^;\s]+);/); return m ? m[1] : ""; }
// offeredLists are the word lists the server offers.
function offeredLists() { return INFO ? [...new Set(INFO.variants.flatMap((v) => v.lexicons))] : []; }
// knownLex reports whether the server reads the lex opcode of a line as
// one of its word lists (by full name, the part after the language, or a
// Collins list as SOWPODS).
function knownLex(cgp) {
  const op = lexOp(cgp).toLowerCase();
  if (!op) return false;
  return offeredLists().some((l) => l.toLowerCase() === op || l.toLowerCase().split("-").slice(1).join("-") === op ||
    (op.startsWith("csw") && l.endsWith("-sowpods")));
}

// showPosition opens the analysis board on the CGP line of the address,
// or on an empty board of the word list last used.
async function showPosition() {
  const q = new URLSearchParams(location.search);
  const saved = q.get("lexicon") || localStorage.getItem("atril:board") || "en-sowpods";
  const cgp = q.get("cgp") || "";
  G.position = { cgp: "", lexicon: saved, log: [], result: null };
  $("#game").hidden = false;
  $("#board-tools").hidden = false;
  wireGame();
  wirePosition();
  try { INFO = INFO || await api("GET", "/api/info"); } catch (e) { /* the list of word lists stays empty */ }
  let info = null;
  if (cgp) {
    try { info = await api("POST", "/api/position", { cgp, lexicon: knownLex(cgp) && !q.get("lexicon") ? undefined : saved }); }
    catch (e) { say(t("boardBad", localReason(e.message)), "error"); }
  }
  for (const lexicon of [saved, "en-sowpods", ...offeredLists()]) {
    if (info) break;
    try { info = await api("POST", "/api/position", { cgp: emptyCGP(), lexicon }); } catch (e) { /* the next list */ }
  }
  if (!info) { $("#main").textContent = t("error", "no word list"); return; }
  setPosition(info, null);
}

let positionWired = false;
function wirePosition() {
  if (positionWired) return;
  positionWired = true;
  const P = () => G.position;
  $("#board-rack-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    askPosition({ cgp: P().cgp, rack: $("#board-rack").value });
  });
  $("#board-draw").addEventListener("click", () => askPosition({ cgp: P().cgp, draw: true }));
  const edit = (field) => {
    const text = $("#board-put").value.trim();
    if (!text) return;
    askPosition({ cgp: P().cgp, [field]: text }, false, { kind: "edit", move: (field === "clear" ? "− " : "+ ") + text })
      .then((ok) => { if (ok) $("#board-put").value = ""; });
  };
  $("#board-edit-form").addEventListener("submit", (ev) => { ev.preventDefault(); edit("put"); });
  $("#board-clear-go").addEventListener("click", () => edit("clear"));
  $("#board-lexicon").addEventListener("change", () => askPosition({ cgp: P().cgp, lexicon: $("#board-lexicon").value }, true));
  $("#board-undo").addEventListener("click", () => {
    const log = P().log;
    if (log.length) askPosition({ cgp: log[log.length - 1].cgp }, false, null, () => log.pop());
  });
  $("#board-load").addEventListener("click", () => {
    const cgp = $("#board-cgp").value.trim();
    askPosition({ cgp, lexicon: knownLex(cgp) ? undefined : P().lexicon }, true);
  });
  $("#board-copy").addEventListener("click", async () => {
    if (await copyText(location.origin + positionURL(P().cgp), $("#board-cgp"))) say(t("copied"), "ok");
  });
  $("#board-analyze").addEventListener("click", () => analysePosition(false));
  $("#board-sim").addEventListener("click", () => analysePosition(true));
}

// askPosition sets up the position of a request (POST /api/position)
// and shows it, reporting whether it could; fresh starts the list of
// moves played again, entry (an edit of the board) goes on it, and ok
// runs first when it could.
async function askPosition(req, fresh, entry, ok) {
  const before = G.position.cgp;
  try {
    const info = await api("POST", "/api/position", req);
    if (ok) ok();
    if (fresh) G.position.log = [];
    if (entry) G.position.log.push({ cgp: before, score: 0, ...entry });
    say("");
    setPosition(info, null);
    return true;
  } catch (e) {
    say(t("boardBad", localReason(e.message)), "error");
    renderPositionSide();
    return false;
  }
}

// setPosition shows a position of the analysis board, the tiles of the
// move that made it (played) marked as the last move.
function setPosition(info, played) {
  const B = G.position;
  B.cgp = info.cgp;
  B.lexicon = info.lexicon;
  B.result = null;
  localStorage.setItem("atril:board", info.lexicon);
  history.replaceState(null, "", positionURL(info.cgp));
  const st = info.state;
  const at = new Set(((played && played.tiles) || []).map((x) => x.row * 100 + x.col));
  for (const x of st.board) if (at.has(x.row * 100 + x.col)) x.move = 0;
  st.seats.forEach((s, i) => { s.name = i === 0 ? t("boardOnTurn") : t("boardOther", i); });
  const lang = VARIANT_LANG[st.variant] || "en";
  if (!G.st || G.st.variant !== st.variant || G.gameLang !== lang) {
    G.gameLang = lang;
    LANG = pickLang(lang);
    translatePage();
    buildBoard(st);
  }
  G.pending = []; G.selected = -1; G.exchanging = false; G.marked.clear(); G.typed = []; G.preview = null;
  G.rack = st.you.rack.slice();
  render(st);
}

// positionPlay plays a move on the analysis board (POST
// /api/position/play) and shows the position after it.
async function positionPlay(mv) {
  const B = G.position;
  try {
    const info = await api("POST", "/api/position/play", { cgp: B.cgp, move: mv });
    const p = info.played;
    B.log.push({ cgp: B.cgp, move: p.move, kind: p.kind, score: p.score });
    if (p.kind === "place") say(msgNodes(t("accepted", "{0}", "{1}"), moveNode(p.move), p.score), "ok"); else say("");
    setPosition(info, p);
    if (info.over) say(t("boardOver", info.state.seats.map((s) => s.score).join(" – ")));
  } catch (e) {
    say(t("rejected", localReason(e.message)), "error");
  }
}

// analysePosition ranks the moves of the player on turn: by score and
// leave, or by a two-second simulation (an endgame search once the bag
// is empty).
async function analysePosition(sim) {
  const B = G.position;
  const cgp = B.cgp;
  const button = sim ? $("#board-sim") : $("#board-analyze");
  button.disabled = true;
  const label = button.textContent;
  button.textContent = t(sim ? "simRunning" : "rvLoading");
  try {
    const res = await api("POST", "/api/analyze", sim ? { cgp, sim: true, ms: 2000, top: 10 } : { cgp, top: 10 });
    if (G.position.cgp === cgp) B.result = res;
  } catch (e) {
    say(t("error", localReason(e.message)), "error");
  }
  button.textContent = label;
  renderPositionSide();
}

// renderPositionSide shows the analysis board's tools, its analysis and
// the moves played on it, and hides what only a game has.
function renderPositionSide() {
  const B = G.position;
  const st = G.st;
  $("#board-title").textContent = t("boardTitle") + " · " + lexiconName(B.lexicon);
  document.title = t("boardTitle") + " – atril";
  $("#game-title").textContent = t("boardTitle");
  $("#turn").textContent = "";
  $("#turn").hidden = true;
  for (const b of ["#resign", "#abort", "#hint", "#takeback", "#sound", "#notify", "#resume-box", "#share", "#chat-box", "#kibitz-box", "#rated-tag", "#imported-tag", "#result", "#keys-box"]) $(b).hidden = true;
  const sel = $("#board-lexicon");
  if (!sel.options.length && INFO) {
    for (const v of INFO.variants) for (const l of v.lexicons) {
      if ([...sel.options].some((o) => o.value === l)) continue;
      const o = el("option", "", lexiconName(l));
      o.value = l;
      sel.append(o);
    }
  }
  sel.value = B.lexicon;
  $("#board-rack").value = st.you ? st.you.rack.map((x) => (x.blank ? "?" : x.letter.length > 1 ? "[" + x.letter + "]" : x.letter)).join("") : "";
  if (document.activeElement !== $("#board-cgp")) $("#board-cgp").value = B.cgp;
  $("#board-undo").disabled = !B.log.length;
  const empty = !st.you || !st.you.rack.length || st.over;
  $("#board-analyze").disabled = empty;
  $("#board-sim").disabled = empty;
  // A rack short of tiles while the bag holds some: the player who just
  // moved kept its leave, and the next one's rack is not known.
  const held = st.you ? st.you.rack.length : 0;
  $("#board-short").hidden = st.over || held >= st.rack_size || st.bag === 0;
  $("#board-short").textContent = t("boardShort", held);
  // The moves played on the board, each a way back to the position
  // before it.
  const ml = $("#moves");
  ml.textContent = "";
  B.log.forEach((h, k) => {
    const li = el("li");
    const back = el("button", "small link");
    back.type = "button";
    if (h.kind === "edit") back.append(t("boardEdited", h.move));
    else back.append(reviewMoveNode(h.kind, h.move), " (" + (h.score >= 0 ? "+" : "") + h.score + ")");
    back.title = t("boardBack");
    back.addEventListener("click", () => askPosition({ cgp: h.cgp }, false, null, () => { B.log = B.log.slice(0, k); }));
    li.append(back);
    ml.append(li);
  });
  renderPositionResult();
}

function renderPositionResult() {
  const box = $("#board-result");
  box.textContent = "";
  box.tabIndex = -1;
  const res = G.position.result;
  if (!res) return;
  const num = (x) => (typeof x === "number" ? x.toFixed(1) : "–");
  if (res.line && res.line.length) {
    const line = el("span");
    res.line.forEach((m, i) => { if (i) line.append(", "); line.append(moveNode(m)); });
    const p = el("p");
    p.append(...msgNodes(t("simEndgame", res.spread, t(res.exact ? "simExact" : "simEstimate"), "{0}"), line));
    box.append(p);
  }
  const cands = res.candidates || [];
  if (!cands.length) return;
  const leave = (c) => (c.leave ? wordNode(units(c.leave)) : "–");
  if (res.phase === "static") {
    box.append(movesTable(t("rvBest"), ["rvScore", "rvLeave", "rvEquity"],
      cands.map((c) => ({ move: c.move, kind: c.kind, cells: [String(c.score), leave(c), num(c.static)], show: c }))));
  } else {
    box.append(movesTable(t("simTitle"), ["rvScore", "simStatic", "simMean", "simWin"],
      cands.map((c) => ({ move: c.move, kind: c.kind, cls: c.eliminated ? "hint" : "", cells: [String(c.score), num(c.static), num(c.mean), num(c.win)], show: c }))));
  }
}
