// The atril page: plain JavaScript, no library. Every text shown to the
// player comes from STRINGS, keyed by language, so adding a language is
// adding one table.
"use strict";

const STRINGS = {
  en: {
    subtitle: "word game against people and the computer",
    newGame: "New game", yourName: "Your name", variant: "Game", opponent: "Opponent", start: "Start",
    homeHint: "Play against the computer at the level you choose, or against a friend: you will get a link to send.",
    person: "a person (share a link)", computer: "computer: {0}",
    joinTitle: "Join this game", join: "Join",
    shareLink: "Send this link to your opponent:", copy: "Copy", copied: "Link copied.",
    waiting: "Waiting for players to join…",
    submit: "Submit", recall: "Recall", shuffle: "Shuffle", exchange: "Exchange", pass: "Pass", cancel: "Cancel",
    exchangeHint: "Tap the tiles to exchange, then:", exchangeGo: "Exchange these", exchangeNone: "Choose the tiles to exchange first.",
    confirmPass: "Pass your turn?", placeFirst: "Place tiles on the board first.",
    moves: "Moves", unseen: "Unseen tiles", bag: "Tiles in the bag: {0}",
    yourTurn: "Your turn.", theirTurn: "{0} to play.", thinking: "{0} is thinking…", spectator: "You are watching this game.",
    blankPrompt: "Which letter is the blank?",
    you: "you", played: "{0}", exchanged: "exchanged {0}", passed: "passed", outBonus: "out: + {0}", rackPenalty: "left on rack: {0}",
    over: "Game over.", won: "You won!", lost: "You lost.", tie: "A tie.", winner: "{0} won.",
    finalScores: "Final scores: {0}", download: "Download the game (GCG)", newGameLink: "Play again",
    accepted: "{0} for {1} points.", rejected: "Not accepted: {0}",
    notFound: "This game does not exist.", error: "Something went wrong: {0}", connLost: "Connection lost; retrying…",
    seatsFull: "Every seat of this game is taken; you can watch it.",
  },
};
const LANG = (navigator.language || "en").slice(0, 2) in STRINGS ? (navigator.language || "en").slice(0, 2) : "en";

function t(key, ...args) {
  const s = (STRINGS[LANG] && STRINGS[LANG][key]) || STRINGS.en[key] || key;
  return s.replace(/\{(\d)\}/g, (_, i) => String(args[+i]));
}

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

function translatePage() {
  document.querySelectorAll("[data-t]").forEach((e) => { e.textContent = t(e.dataset.t); });
  document.documentElement.lang = LANG;
}

// ---------- home ----------

async function showHome() {
  $("#home").hidden = false;
  $("#name").value = localStorage.getItem("atril:name") || "";
  const info = await api("GET", "/api/info");
  const vs = $("#variant");
  for (const v of info.variants) {
    const o = el("option", "", v.name.charAt(0).toUpperCase() + v.name.slice(1) + " (" + v.default_lexicon + ")");
    o.value = v.name;
    vs.append(o);
  }
  const os = $("#opponent");
  const order = ["amateur", "adept", "experienced", "professional", "inhuman", "godlike"];
  const levels = info.levels.slice().sort((a, b) => (order.indexOf(a) + 1 || 99) - (order.indexOf(b) + 1 || 99) || a.localeCompare(b));
  for (const l of levels) {
    const o = el("option", "", t("computer", l));
    o.value = "computer:" + l;
    if (l === "professional") o.selected = true;
    os.append(o);
  }
  const p = el("option", "", t("person"));
  p.value = "human";
  os.append(p);
  $("#create-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    $("#create").disabled = true;
    try {
      const name = $("#name").value.trim();
      localStorage.setItem("atril:name", name);
      const opp = $("#opponent").value;
      const seats = [{ kind: "human", name }];
      seats.push(opp === "human" ? { kind: "human" } : { kind: "computer", level: opp.slice("computer:".length) });
      const g = await api("POST", "/api/games", { variant: $("#variant").value, seats });
      const j = await api("POST", "/api/games/" + g.id + "/join", { name, seat: 0 });
      localStorage.setItem("atril:token:" + g.id, j.token);
      location.href = "/g/" + g.id;
    } catch (e) {
      alert(t("error", e.message));
      $("#create").disabled = false;
    }
  });
}

// ---------- game ----------

const G = {
  id: "", token: "", st: null,
  rack: [],        // local order: {letter, score, blank}
  pending: [],     // {i (rack index), row, col, letter (chosen), blank}
  selected: -1,    // rack index chosen by a click
  exchanging: false, marked: new Set(),
  lastMove: [],    // squares of the last placement
  ws: null,
};

function keyOfRack(rack) { return rack.map((x) => x.letter).sort().join(","); }

async function showGame(id) {
  G.id = id;
  G.token = localStorage.getItem("atril:token:" + id) || "";
  let st;
  try {
    st = await api("GET", "/api/games/" + id, undefined, G.token);
  } catch (e) {
    if (e.status === 403) { localStorage.removeItem("atril:token:" + id); G.token = ""; return showGame(id); }
    document.body.querySelector("main").textContent = e.status === 404 ? t("notFound") : t("error", e.message);
    return;
  }
  if (!G.token && st.seats.some((s) => s.kind === "human" && !s.taken)) {
    $("#join").hidden = false;
    $("#join-name").value = localStorage.getItem("atril:name") || "";
    $("#join-form").addEventListener("submit", async (ev) => {
      ev.preventDefault();
      try {
        const name = $("#join-name").value.trim();
        localStorage.setItem("atril:name", name);
        const j = await api("POST", "/api/games/" + id + "/join", { name });
        localStorage.setItem("atril:token:" + id, j.token);
        $("#join").hidden = true;
        showGame(id);
      } catch (e) { alert(t("error", e.message)); }
    });
    return;
  }
  $("#game").hidden = false;
  buildBoard(st);
  wireButtons();
  render(st);
  listen();
}

function buildBoard(st) {
  const b = $("#board");
  b.style.gridTemplateColumns = `repeat(${st.size}, 1fr)`;
  b.textContent = "";
  for (let r = 0; r < st.size; r++) {
    const row = st.premiums[r];
    for (let c = 0; c < st.size; c++) {
      const code = row.slice(2 * c, 2 * c + 2);
      const sq = el("div", "sq" + (code !== ".." ? " " + code : ""));
      sq.dataset.r = r; sq.dataset.c = c;
      sq.setAttribute("role", "gridcell");
      if (r === st.start[0] && c === st.start[1]) sq.classList.add("start");
      else if (code !== "..") sq.textContent = code.toUpperCase();
      sq.addEventListener("click", () => clickSquare(r, c));
      b.append(sq);
    }
  }
}

function square(r, c) { return $(`#board .sq[data-r="${r}"][data-c="${c}"]`); }

function tileEl(letter, score, blank) {
  const d = el("div", "tile" + (blank ? " blank" : ""), letter === "?" ? "" : letter);
  if (!blank && score) d.append(el("span", "pts", String(score)));
  return d;
}

function seatName(i) {
  const s = G.st.seats[i];
  return G.st.you && G.st.you.seat === i ? s.name + " (" + t("you") + ")" : s.name;
}

function render(st) {
  const prev = G.st;
  G.st = st;
  const me = st.you ? st.you.seat : -1;
  // Keep the local rack order and pending tiles while the rack is the same.
  if (st.you) {
    if (keyOfRack(st.you.rack) !== keyOfRack(G.rack)) {
      G.rack = st.you.rack.slice();
      G.pending = []; G.selected = -1; G.marked.clear();
    }
  }
  const occupied = new Set(st.board.map((x) => x.row + "," + x.col));
  G.pending = G.pending.filter((p) => !occupied.has(p.row + "," + p.col));
  if (!prev || prev.moves !== st.moves) {
    const before = new Set(prev ? prev.board.map((x) => x.row + "," + x.col) : []);
    G.lastMove = prev ? st.board.filter((x) => !before.has(x.row + "," + x.col)).map((x) => x.row + "," + x.col) : [];
  }
  // Board.
  document.querySelectorAll("#board .tile").forEach((x) => x.remove());
  for (const x of st.board) {
    const d = tileEl(x.letter, x.score, x.blank);
    if (G.lastMove.includes(x.row + "," + x.col)) d.classList.add("last");
    square(x.row, x.col).append(d);
  }
  for (const p of G.pending) {
    const rt = G.rack[p.i];
    const d = tileEl(p.letter, rt.score, p.blank);
    d.classList.add("pending");
    d.dataset.i = p.i;
    d.addEventListener("pointerdown", (ev) => startDrag(ev, p.i));
    square(p.row, p.col).append(d);
  }
  // Rack.
  const rack = $("#rack");
  rack.textContent = "";
  $("#rack-area").hidden = !st.you || st.over;
  G.rack.forEach((x, i) => {
    const d = tileEl(x.letter, x.score, x.blank);
    d.dataset.i = i;
    if (G.pending.some((p) => p.i === i)) d.classList.add("used");
    if (i === G.selected) d.classList.add("selected");
    if (G.marked.has(i)) d.classList.add("marked");
    d.addEventListener("pointerdown", (ev) => startDrag(ev, i));
    rack.append(d);
  });
  // Scores and turn.
  const sc = $("#scores");
  sc.textContent = "";
  st.seats.forEach((s, i) => {
    const d = el("div", "score" + (st.started && !st.over && st.turn === i ? " on-turn" : ""));
    d.append(el("span", "", seatName(i)), el("span", "", String(s.score)));
    sc.append(d);
  });
  const myTurn = st.started && !st.over && st.turn === me;
  let turn = "";
  if (!st.started) turn = t("waiting");
  else if (st.over) turn = t("over");
  else if (myTurn) turn = t("yourTurn");
  else if (st.seats[st.turn].kind === "computer") turn = t("thinking", st.seats[st.turn].name);
  else turn = t("theirTurn", st.seats[st.turn].name);
  if (me < 0 && !st.over) turn += " " + t("spectator");
  $("#turn").textContent = turn;
  const waitingForPerson = !st.started && me >= 0;
  $("#share").hidden = !waitingForPerson;
  if (waitingForPerson) $("#share-url").value = location.origin + "/g/" + st.id;
  for (const b of ["#submit", "#recall", "#shuffle", "#exchange", "#pass", "#exchange-go"]) $(b).disabled = !st.started || st.over;
  for (const b of ["#submit", "#exchange", "#pass", "#exchange-go"]) if (!myTurn) $(b).disabled = true;
  $("#exchange").disabled = $("#exchange").disabled || st.bag < 7;
  $("#exchange-bar").hidden = !G.exchanging;
  // Moves.
  const ml = $("#moves");
  ml.textContent = "";
  for (const h of st.history) {
    let what;
    switch (h.kind) {
      case "place": what = t("played", h.move); break;
      case "exchange": what = t("exchanged", h.count); break;
      case "pass": what = t("passed"); break;
      case "out_bonus": what = t("outBonus", h.rack); break;
      default: what = t("rackPenalty", h.rack);
    }
    const li = el("li");
    const row = el("div", "row");
    row.append(el("span", "", seatName(h.seat) + ": " + what), el("span", "pts", (h.points >= 0 ? "+" : "") + h.points + " = " + h.total));
    li.append(row);
    ml.append(li);
  }
  ml.scrollTop = ml.scrollHeight;
  // Bag and unseen tiles.
  $("#bag").textContent = t("bag", st.bag);
  const un = $("#unseen");
  un.textContent = "";
  let n = 0;
  if (st.you) {
    for (const u of st.you.unseen) { un.append(el("span", "", u.letter.repeat(1) + (u.count > 1 ? "×" + u.count : ""))); n += u.count; }
  }
  $("#unseen-count").textContent = String(n);
  $("#unseen-box").hidden = !st.you;
  // Result.
  const res = $("#result");
  res.hidden = !st.over;
  if (st.over) {
    res.textContent = "";
    let line;
    if (st.winners.length > 1) line = t("tie");
    else if (me >= 0) line = st.winners[0] === me ? t("won") : t("lost");
    else line = t("winner", st.seats[st.winners[0]].name);
    res.append(el("strong", "", t("over") + " " + line));
    res.append(el("p", "", t("finalScores", st.seats.map((s, i) => seatName(i) + " " + s.score).join(", "))));
    const a = el("a", "", t("download"));
    a.href = "/api/games/" + st.id + "/gcg";
    a.id = "gcg-link";
    const again = el("a", "", t("newGameLink"));
    again.href = "/";
    res.append(a, document.createTextNode(" · "), again);
  }
}

function say(text, kind) {
  const m = $("#message");
  m.textContent = text;
  m.className = kind || "";
}

async function refresh() {
  try {
    const st = await api("GET", "/api/games/" + G.id, undefined, G.token);
    render(st);
  } catch (e) { say(t("error", e.message), "error"); }
}

// listen follows the game: notifications over a WebSocket for a seat
// (any notification means "look again"), polling for a spectator.
function listen() {
  if (!G.token) {
    setInterval(refresh, 3000);
    return;
  }
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${proto}//${location.host}/api/games/${G.id}/ws?token=${encodeURIComponent(G.token)}`);
  G.ws = ws;
  let timer = null;
  ws.onmessage = (ev) => {
    const n = JSON.parse(ev.data);
    if (n.type === "rejected") say(t("rejected", n.reason), "error");
    clearTimeout(timer);
    timer = setTimeout(refresh, 30);
  };
  ws.onclose = () => {
    say(t("connLost"), "error");
    setTimeout(() => { refresh(); listen(); }, 2000);
  };
  ws.onopen = () => { if ($("#message").textContent === t("connLost")) say(""); refresh(); };
}

// ---------- placing tiles ----------

function placeAt(i, r, c) {
  if (!G.st.you || G.st.over || G.exchanging) return;
  if (G.st.board.some((x) => x.row === r && x.col === c)) return;
  if (G.pending.some((p) => p.row === r && p.col === c && p.i !== i)) return;
  const rt = G.rack[i];
  const put = (letter) => {
    G.pending = G.pending.filter((p) => p.i !== i);
    G.pending.push({ i, row: r, col: c, letter, blank: rt.blank });
    G.selected = -1;
    render(G.st);
  };
  if (rt.blank) {
    const old = G.pending.find((p) => p.i === i);
    if (old) put(old.letter); else chooseBlank(put);
  } else put(rt.letter);
}

function unplace(i) {
  G.pending = G.pending.filter((p) => p.i !== i);
  render(G.st);
}

function clickSquare(r, c) {
  const p = G.pending.find((x) => x.row === r && x.col === c);
  if (p) { unplace(p.i); return; }
  if (G.selected >= 0) placeAt(G.selected, r, c);
}

function clickRack(i) {
  if (G.exchanging) {
    if (G.marked.has(i)) G.marked.delete(i); else G.marked.add(i);
  } else if (G.pending.some((p) => p.i === i)) {
    return;
  } else {
    G.selected = G.selected === i ? -1 : i;
  }
  render(G.st);
}

function chooseBlank(done) {
  const d = $("#blank-dialog");
  const box = $("#blank-letters");
  box.textContent = "";
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
  if (!G.st.you || G.st.over) return;
  ev.preventDefault();
  const x0 = ev.clientX, y0 = ev.clientY;
  let ghost = null, over = null;
  const fromBoard = G.pending.some((p) => p.i === i);
  const move = (e) => {
    if (!ghost && Math.hypot(e.clientX - x0, e.clientY - y0) < 6) return;
    if (!ghost) {
      if (G.exchanging) return;
      const rt = G.rack[i];
      ghost = tileEl(rt.letter === "?" ? "" : rt.letter, rt.score, rt.blank);
      ghost.classList.add("ghost");
      document.body.append(ghost);
    }
    ghost.style.left = e.clientX - 22 + "px";
    ghost.style.top = e.clientY - 22 + "px";
    const target = document.elementFromPoint(e.clientX, e.clientY);
    const sq = target && target.closest("#board .sq");
    if (over && over !== sq) over.classList.remove("drop");
    over = sq;
    if (over) over.classList.add("drop");
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
    if (over) {
      over.classList.remove("drop");
      placeAt(i, +over.dataset.r, +over.dataset.c);
    } else {
      const target = document.elementFromPoint(e.clientX, e.clientY);
      if (target && target.closest("#rack") && fromBoard) unplace(i);
    }
  };
  window.addEventListener("pointermove", move);
  window.addEventListener("pointerup", up);
  window.addEventListener("pointercancel", up);
}

async function sendMove(body, what) {
  try {
    const r = await api("POST", "/api/games/" + G.id + "/move", body, G.token);
    if (body.kind === "place") say(t("accepted", r.move, r.score), "ok"); else say("");
    G.pending = []; G.exchanging = false; G.marked.clear();
    await refresh();
  } catch (e) {
    say(t("rejected", e.message), "error");
  }
}

function wireButtons() {
  $("#submit").addEventListener("click", () => {
    if (!G.pending.length) { say(t("placeFirst"), "error"); return; }
    sendMove({ kind: "place", tiles: G.pending.map((p) => ({ row: p.row, col: p.col, letter: p.letter, blank: p.blank })) });
  });
  $("#recall").addEventListener("click", () => { G.pending = []; G.selected = -1; render(G.st); });
  $("#shuffle").addEventListener("click", () => {
    G.pending = []; G.selected = -1; G.marked.clear();
    for (let i = G.rack.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [G.rack[i], G.rack[j]] = [G.rack[j], G.rack[i]];
    }
    render(G.st);
  });
  $("#exchange").addEventListener("click", () => {
    G.exchanging = !G.exchanging; G.pending = []; G.selected = -1; G.marked.clear();
    render(G.st);
  });
  $("#exchange-cancel").addEventListener("click", () => { G.exchanging = false; G.marked.clear(); render(G.st); });
  $("#exchange-go").addEventListener("click", () => {
    if (!G.marked.size) { say(t("exchangeNone"), "error"); return; }
    sendMove({ kind: "exchange", exchange: [...G.marked].map((i) => G.rack[i].letter) });
  });
  $("#pass").addEventListener("click", () => { if (confirm(t("confirmPass"))) sendMove({ kind: "pass" }); });
  $("#copy").addEventListener("click", async () => {
    try { await navigator.clipboard.writeText($("#share-url").value); say(t("copied"), "ok"); }
    catch (e) { $("#share-url").select(); }
  });
}

// ---------- start ----------

translatePage();
const m = location.pathname.match(/^\/g\/([0-9a-f]{16})$/);
if (m) showGame(m[1]); else showHome().catch((e) => say(t("error", e.message), "error"));
