// hivebridge's page: watch every game, play against an engine, follow a match.
// Everything it shows comes from the JSON endpoints (docs/web.md); it never decides
// legality: the destinations it offers are the server's legal moves.
"use strict";

const $ = (id) => document.getElementById(id);
const view = {
  id: null,        // the watched live game, or null
  gs: null,        // a GameString watched without a live game (a match's finished game)
  game: null,      // the last /api/games/ID answer
  ply: null,       // the position shown, null = follow the latest
  pos: null,       // the position shown
  picked: null,    // the piece picked to move
  pgn: null,       // the PGN download of a game shown without a live id (an archived one)
  seq: 0,          // the latest position asked for: an older answer is dropped
  want: null,      // the ply asked for and not shown yet (keys repeat faster than answers)
  online: false,   // the event stream is up: moves are offered only then
  clockAt: 0,      // performance.now() when view.game's clocks were read
  evals: null,     // the analysis asked for on demand: {ply, gamestring, answer}
};
// The ply shown, or the one on its way.
const curPly = () => view.want !== null ? view.want : view.ply === null ? view.game.moves.length : view.ply;
// This page's seat in a remote-play lobby: {token, lobby, state, color, game, ...}; its
// token is kept in sessionStorage so that a reload takes the seat back.
let seat = null;
// The games this tab started against an engine: their owner tokens (moves and
// resigning need them), kept in sessionStorage ("hbgame:ID") so a reload keeps the
// game; anyone else's game is shown read-only.
const gameToken = (id) => sessionStorage.getItem("hbgame:" + id);

// The access token of a daemon reachable beyond loopback (docs/web.md): asked for once,
// when a change is refused with 401, and kept in localStorage.
async function api(path, body, again) {
  const headers = {};
  const opt = { headers };
  if (body !== undefined) {
    opt.method = "POST";
    headers["Content-Type"] = "application/json";
    opt.body = JSON.stringify(body);
  }
  const m = path.match(/^\/api\/games\/(\d+)/);
  if (m && gameToken(m[1])) headers["X-Game-Token"] = gameToken(m[1]);
  const access = localStorage.getItem("hbaccess");
  if (access) headers["Authorization"] = "Bearer " + access;
  const r = await fetch(path, opt);
  const j = await r.json().catch(() => ({ error: "bad answer" }));
  if (r.status === 401 && !again) {
    const t = prompt("This server wants its access token to change anything:");
    if (t) {
      localStorage.setItem("hbaccess", t.trim());
      return api(path, body, true);
    }
  }
  if (!r.ok) throw new Error(j.error || r.statusText);
  return j;
}

// --- the games lists --------------------------------------------------------------
function gameLabel(g) {
  const res = g.result ? ` ${g.result}` : "";
  return `#${g.id} ${g.kind}: ${g.white} – ${g.black}, ${g.plies} plies${res}`;
}

async function loadGames() {
  const j = await api("/api/games");
  for (const [ul, list] of [[$("live"), j.games], [$("done"), j.finished]]) {
    ul.replaceChildren(...list.map((g) => {
      const li = el("li", { "data-id": g.id, "data-kind": g.kind }, gameLabel(g));
      if (g.id === view.id) li.classList.add("sel");
      li.tabIndex = 0;
      li.onclick = () => watch(g.id);
      li.onkeydown = (ev) => { if (ev.key === "Enter") watch(g.id); };
      return li;
    }));
  }
}

// --- watching ---------------------------------------------------------------------
// On a phone the board is below the fold of nothing but starts off-screen after a
// click in the lists: brought into view when a game opens.
function boardIntoView() {
  if (window.innerWidth <= 700) $("view").scrollIntoView({ block: "start" });
}

function newView() {
  view.ply = null; view.picked = null; view.pgn = null; view.want = null; view.evals = null; view.seq++;
  zoomReset();
  $("stackinfo").textContent = "";
}

async function watch(id, ply) {
  view.id = id; view.gs = null;
  newView();
  boardIntoView();
  await refresh();
  if (ply !== undefined && ply !== null && view.game && ply < view.game.plies) await showPly(ply);
  loadGames().catch(() => {});
}

// A game known by its GameString alone (a match's finished game): meta gives its
// players, result and reason.
async function watchGameString(gs, title, meta) {
  view.id = null; view.gs = gs;
  newView();
  const pos = await api("/api/position?game=" + encodeURIComponent(gs));
  const m = meta || {};
  view.game = { title, moves: pos.moves, gamestring: gs, playable: false, plies: pos.moves.length,
    result: m.result || null, reason: m.reason || "", white: m.white || "", black: m.black || "", clocks: null,
    analysis: null, finished: !!m.result };
  view.title = title;
  boardIntoView();
  await showPly(pos.moves.length);
}

async function refresh() {
  if (view.id === null) return;
  const g = await api(`/api/games/${view.id}`);
  // A token this tab holds for a game that is over, or for a game of an earlier run of
  // the daemon that had the same id, is no owner's: forgotten.
  if (!g.owned && gameToken(g.id)) sessionStorage.removeItem("hbgame:" + g.id);
  seatOverlay(g);
  view.game = g;
  view.clockAt = performance.now();
  if (view.ply === null || view.ply >= g.plies) {
    view.ply = null;
    view.pos = g.position;
    render();
  } else {
    renderInfo();
  }
}

async function showPly(n) {
  const g = view.game;
  if (!g) return;
  n = Math.max(0, Math.min(n, g.moves.length));
  view.picked = null;
  const seq = ++view.seq;
  if (view.id !== null && n === g.plies) {
    view.ply = null;
    view.want = null;
    view.pos = g.position;
  } else {
    // Keys repeat faster than answers come: only the latest request is shown.
    view.want = n;
    let pos;
    try {
      pos = n === g.plies && g.position ? g.position
        : await api(`/api/position?game=${encodeURIComponent(g.gamestring)}&ply=${n}`);
    } finally {
      if (seq === view.seq) view.want = null;
    }
    if (seq !== view.seq) return;
    view.ply = n;
    view.pos = pos;
  }
  render();
}

// --- drawing ----------------------------------------------------------------------
function myTurn() {
  const g = view.game;
  return g && g.playable && view.ply === null && view.id !== null && view.online;
}

function legalFor(piece) {
  return (view.pos.legal || []).filter((m) => m.piece === piece);
}

function render() {
  // The focus is kept across the redraw: the element with the same data-key.
  const fk = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.key : null;
  renderBoard();
  renderHands();
  renderInfo();
  if (fk) {
    const e = document.querySelector(`[data-key="${CSS.escape(fk)}"]`);
    if (e) e.focus({ preventScroll: true });
  }
}

function boardOpts() {
  const mine = myTurn() ? view.game.human : null;
  const free = view.game && view.game.variation;       // exploring: both sides move
  return { picked: view.picked, legal: legalFor, movable: (p) => free || (mine !== null && p[0] === mine),
    onPick: pick, onPlay: play, onStack: (t) => { $("stackinfo").textContent = t; } };
}

function renderBoard() { boardDraw($("board"), view.pos, boardOpts()); }

function renderHands() {
  const o = boardOpts();
  for (const c of ["w", "b"]) handDraw($("hand" + c), c, view.pos ? view.pos.hand[c] : [], o);
}

function fmtClock(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

// The clocks tick here between the server's answers: its values are read at the answer
// (GET /api/games/ID gives the running clock as of then), counted down from the moment
// the answer came. At zero the clock shows the flag; the server decides the game.
function renderClocks() {
  const g = view.game;
  for (const c of ["w", "b"]) {
    const e = $("clock" + c);
    if (!g || !g.clocks || view.id === null) { e.textContent = ""; e.className = "clock"; continue; }
    let ms = c === "w" ? g.clocks.white_ms : g.clocks.black_ms;
    const run = g.clocks.running === c && !g.finished;
    if (run) ms -= performance.now() - view.clockAt;
    e.textContent = (ms <= 0 ? "⚑ " : "") + fmtClock(ms);
    e.classList.toggle("run", run);
    e.classList.toggle("flag", ms <= 0);
    e.dataset.ms = Math.max(0, Math.round(ms));
  }
}
setInterval(renderClocks, 200);

// The move list as numbered move pairs, the ply shown marked and kept in view.
function renderMoves(g, n) {
  const ol = $("moves");
  const rows = [];
  for (let i = 0; i < g.moves.length; i += 2) {
    const li = el("li", { value: i / 2 + 1 });
    for (let j = i; j < Math.min(i + 2, g.moves.length); j++) {
      const sp = el("span", { class: "mv", "data-ply": j + 1, tabindex: "-1" }, g.moves[j]);
      if (j + 1 === n) sp.classList.add("cur");
      sp.onclick = () => showPly(j + 1);
      li.appendChild(sp);
    }
    rows.push(li);
  }
  ol.replaceChildren(...rows);
  const cur = ol.querySelector(".mv.cur");
  // Scrolled inside the list only: the page stays where it is.
  if (cur) ol.scrollTop = Math.max(0, cur.parentNode.offsetTop - ol.offsetTop - ol.clientHeight / 2);
}

function renderInfo() {
  const g = view.game, pos = view.pos;
  if (!g) return;
  $("title").textContent = view.id !== null ? `Game #${view.id} (${g.kind}, ${g.type})` : (view.title || "Game");
  $("pw").textContent = g.white || ""; $("pb").textContent = g.black || "";
  // The server's games download as PGN, live or finished (GET /api/games/ID.pgn), and
  // an archived one as archived (GET /api/archive/ID.pgn).
  const pgn = view.id !== null ? `/api/games/${view.id}.pgn` : view.pgn;
  $("pgn").hidden = !pgn;
  if (pgn) $("pgn").href = pgn;
  $("copygs").hidden = !g.gamestring;
  renderClocks();
  const n = view.ply === null ? g.moves.length : view.ply;
  $("plylabel").textContent = `ply ${n} / ${g.moves.length}`;
  $("view").dataset.ply = n;
  // A permalink per ply of a server's game: ?game=ID&ply=N.
  const link = view.id !== null ? `?game=${view.id}` + (view.ply === null ? "" : `&ply=${n}`) : null;
  $("permalink").hidden = !link;
  if (link) {
    $("permalink").href = link;
    if (location.search !== link) history.replaceState(null, "", link);
  }
  const turn = pos ? pos.turn : "";
  // A game decided off the board (resigned, on time) still reads InProgress from its
  // moves: its last position says it is over, not whose move it is.
  const over = g.finished && n === g.moves.length;
  const res = g.result ? `${g.result}${g.reason ? " (" + g.reason + ")" : ""}` : "";
  let status = !pos ? "" : over ? `${pos.state === "InProgress" ? "Game over" : pos.state} after ${n} plies${res ? ": " + res : ""}`
    : `${pos.state} · ${turn.startsWith("White") ? "white" : "black"} to move (${turn})`;
  const own = g.owned || seatGame(view.id);
  if (myTurn()) status += " · your move";
  else if (own && !g.finished && view.ply === null && !view.online) status += " · moves wait for the connection";
  else if (own && !g.finished && view.ply === null) status += seatGame(view.id) ? " · opponent's move" : " · engine thinking";
  else if (g.human && !g.finished && view.ply === null) status += " · watching (not your game)";
  if (g.substitutions) status += ` · ${g.substitutions} move${g.substitutions === 1 ? "" : "s"} by the bridge, not the engine (last: ${g.substitution || "?"})`;
  $("status").textContent = status;
  $("result").textContent = g.result ? `${g.result}${g.reason ? " — " + g.reason : ""}` : (g.finished && g.reason ? g.reason : "");
  renderMoves(g, n);
  renderAnalysis();
  const onlyPass = myTurn() && pos && pos.legal.length === 1 && pos.legal[0].move === "pass";
  $("pass").hidden = !onlyPass;
  $("resign").hidden = !(own && g.human && !g.finished && view.id !== null);
  $("resign").disabled = !view.online;
  $("analyse").hidden = !pos || !g.gamestring;
  $("explore").hidden = !pos || !g.gamestring || !pos.legal.length || myTurn() || !!g.variation;
  // Both ask the server: not while it is out of reach.
  $("analyse").disabled = $("explore").disabled = !view.online;
  document.querySelectorAll("#live li, #done li").forEach((li) =>
    li.classList.toggle("sel", Number(li.dataset.id) === view.id));
  document.querySelectorAll("#archived li").forEach((li) =>
    li.classList.toggle("sel", view.id === null && rec !== null && rec.archive === Number(li.dataset.id)));
}

// --- analysis: the engine of a game's own reports, and an evaluation on demand ---------
// A score from the side to move's view, in the engine's units (the built-in engine's
// centipawn-like ones; a win is far beyond 10000): drawn for white on a bar.
function evalShare(score, whiteToMove) {
  const w = whiteToMove ? score : -score;
  return 1 / (1 + Math.exp(-w / 400));
}

function renderAnalysis() {
  const g = view.game;
  const a = g && g.analysis;
  const n = view.ply === null ? (g ? g.moves.length : 0) : view.ply;
  $("analysis").textContent = a ? `engine (ply ${a.ply}): depth ${a.depth}, score ${a.score}, ${a.pv.join(" ")}` : "";
  const e = view.evals;
  const show = e && e.ply === n && g && e.gamestring === g.gamestring;
  $("evalrow").hidden = !show;
  if (!show) return;
  if (e.error) { $("evaltext").textContent = e.error; return; }
  const r = e.answer;
  const white = r.to_move === "w";
  const share = evalShare(r.score, white);
  $("evalfill").style.height = `${(100 * share).toFixed(1)}%`;
  $("evalbar").setAttribute("aria-valuenow", (100 * share).toFixed(0));
  $("evaltext").textContent = `${r.engine}: depth ${r.depth}, score ${r.score} for ${white ? "white" : "black"} to move` +
    (r.pv.length ? `; best line ${r.pv.join(" ")}` : "") + (r.bestmove ? ` (best ${r.bestmove})` : "");
}

$("analyse").onclick = async () => {
  const g = view.game;
  if (!g) return;
  const n = view.ply === null ? g.moves.length : view.ply;
  const gs = g.gamestring;
  view.evals = { ply: n, gamestring: gs, answer: null, error: "thinking…" };
  renderAnalysis();
  try {
    const r = await api("/api/analyse", { game: gs, ply: n, engine: $("engine").value || "builtin", ms: 1000, depth: 4 });
    if (view.evals && view.evals.gamestring === gs && view.evals.ply === n) view.evals = { ply: n, gamestring: gs, answer: r, error: null };
  } catch (e) {
    view.evals = { ply: n, gamestring: gs, answer: null, error: "no evaluation: " + e.message };
  }
  renderAnalysis();
};

// --- exploring: free moves from any position (the server's legal moves), kept as
// this tab's variations; nothing of it reaches a game ------------------------------
const variations = [];

// The position after moves (UHP) in a game of type: the GameString's header must say
// the state the moves give, so a move that ends the game is asked again with the
// state the server's sentence names.
async function positionOf(type, moves) {
  const n = moves.length;
  let head = n ? `${type};InProgress;${n % 2 ? "Black" : "White"}[${Math.floor(n / 2) + 1}]` : `${type};NotStarted;White[1]`;
  for (let i = 0; ; i++) {
    const gs = [head, ...moves].join(";");
    try {
      return { gs, pos: await api("/api/position?game=" + encodeURIComponent(gs)) };
    } catch (e) {
      const m = /the moves give ([A-Za-z]+);([A-Za-z]+\[\d+\])/.exec(e.message);
      if (!m || i) throw e;
      head = `${type};${m[1]};${m[2]}`;
    }
  }
}

async function exploreTo(v) {
  const { gs, pos } = await positionOf(v.type, v.moves);
  view.id = null; view.gs = gs; view.picked = null; view.pgn = null; view.want = null; view.seq++;
  view.game = { moves: pos.moves, gamestring: gs, playable: false, plies: pos.moves.length, result: null, reason: "",
    white: v.white, black: v.black, clocks: null, analysis: null, finished: false, type: v.type, variation: v };
  view.title = `Variation ${variations.indexOf(v) + 1}: from ply ${v.from} of ${v.of}`;
  view.ply = pos.moves.length;
  view.pos = pos;
  render();
  renderVariations();
}

function renderVariations() {
  $("variations").replaceChildren(...variations.map((v, i) => {
    const li = el("li", { tabindex: "0", "data-variation": i + 1 },
      `from ply ${v.from} of ${v.of}: ${v.moves.slice(v.from).join(", ") || "(no move yet)"}`);
    if (view.game && view.game.variation === v) li.classList.add("sel");
    li.onclick = () => exploreTo(v).catch((e) => { $("status").textContent = e.message; });
    li.onkeydown = (ev) => { if (ev.key === "Enter") li.onclick(); };
    return li;
  }));
}

$("explore").onclick = () => {
  const g = view.game;
  const n = curPly();
  const v = { type: g.gamestring.split(";")[0], moves: g.moves.slice(0, n), from: n,
    of: $("title").textContent, white: g.white, black: g.black };
  variations.push(v);
  exploreTo(v).catch((e) => { $("status").textContent = e.message; });
};

// --- playing ----------------------------------------------------------------------
function pick(piece) {
  view.picked = view.picked === piece ? null : piece;
  render();
  // The keyboard goes on to the first destination.
  const d = view.picked && document.querySelector("g.dest");
  if (d) d.focus({ preventScroll: true });
}

// A move that fails redraws the position as the server has it: nothing stays picked.
// A network failure is the connection's, not the move's.
function refused(e) {
  const net = e instanceof TypeError;
  if (net) offline();
  $("status").textContent = net ? "not sent: the server cannot be reached" : "refused: " + e.message;
}

async function play(move) {
  view.picked = null;
  if (view.game && view.game.variation) {
    const v = view.game.variation;
    v.moves = view.game.moves.slice(0, curPly()).concat([move]);
    await exploreTo(v).catch((e) => { render(); refused(e); });
    return;
  }
  if (!view.online) { render(); return; }
  if (seatGame(view.id)) {
    try {
      seatShow(await api("/api/lobby/move", { token: seat.token, move }));
    } catch (e) {
      render();
      refused(e);
    }
    await refresh().catch(() => {});
    return;
  }
  try {
    view.game = await api(`/api/games/${view.id}/move`, { move });
    view.clockAt = performance.now();
    view.ply = null;
    view.pos = view.game.position;
    render();
  } catch (e) {
    render();
    refused(e);
  }
}

$("pass").onclick = () => play("pass");
$("copygs").onclick = async () => {
  try { await navigator.clipboard.writeText(view.game.gamestring); $("stackinfo").textContent = "GameString copied"; }
  catch (e) { $("stackinfo").textContent = view.game.gamestring; }
};
$("resign").onclick = async () => {
  if (seatGame(view.id)) {
    try { seatShow(await api("/api/lobby/resign", { token: seat.token })); } catch (e) { $("status").textContent = e.message; }
    await refresh();
    return;
  }
  try { await api(`/api/games/${view.id}/resign`, {}); } catch (e) { $("status").textContent = e.message; }
  await refresh();
};
$("first").onclick = () => showPly(0);
// Stepping with the keys, unless typing somewhere.
document.addEventListener("keydown", (ev) => {
  if (!view.game || ev.altKey || ev.ctrlKey || ev.metaKey || /^(INPUT|TEXTAREA|SELECT)$/.test(ev.target.tagName)) return;
  const at = curPly();
  const to = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: view.game.moves.length }[ev.key];
  if (to === undefined) return;
  ev.preventDefault();
  showPly(to).catch((e) => { $("status").textContent = e.message; });
});
$("prev").onclick = () => showPly(curPly() - 1);
$("next").onclick = () => showPly(curPly() + 1);
$("last").onclick = () => showPly(view.game ? view.game.moves.length : 0);

$("newform").onsubmit = async (ev) => {
  ev.preventDefault();
  $("newerr").textContent = "";
  try {
    const g = await api("/api/games", { engine: $("engine").value, color: $("color").value,
      type: $("type").value, depth: Number($("depth").value) });
    sessionStorage.setItem("hbgame:" + g.id, g.token);
    await watch(g.id);
    boardIntoView();
  } catch (e) {
    $("newerr").textContent = e.message;
  }
};

// --- records: a paste or a file, read by the server's codec; the daemon's archive ---
// The record shown: its games (POST /api/records or GET /api/archive/ID), which one,
// and the archived game's id (null for a paste). Reading it changes nothing on the server.
let rec = null;

function showRecord(j, archive) {
  rec = { games: j.games, archive };
  const sel = $("recgame");
  sel.hidden = archive !== null || j.games.length < 2;
  sel.replaceChildren(...j.games.map((g, i) => el("option", { value: i },
    `${g.index}. ${g.white || "?"} – ${g.black || "?"} ${g.result || ""} (${g.plies} plies)`)));
  $("recerr").textContent = j.count > j.games.length ? `the first ${j.games.length} of ${j.count} games` : "";
  showRecordGame(0);
}

function showRecordGame(i) {
  const g = rec.games[i];
  zoomReset();
  view.id = null; view.gs = g.gamestring; view.picked = null;
  view.pgn = rec.archive !== null ? `/api/archive/${rec.archive}.pgn` : null;
  view.game = { moves: g.moves, gamestring: g.gamestring, playable: false, plies: g.plies, position: g.position,
    result: g.result, reason: g.termination || g.tags.SgfResult || "", white: g.white || "", black: g.black || "", clocks: null,
    analysis: null, finished: g.result !== null, type: g.type };
  const what = [g.event, g.site, g.date].filter((x) => x).join(", ");
  view.title = `${rec.archive !== null ? "Archived game" : "Record"}: ${g.white || "?"} – ${g.black || "?"} (${g.type}${what ? ", " + what : ""})`;
  view.ply = g.plies;
  view.pos = g.position;
  view.want = null;
  view.seq++;
  render();
}

$("recgame").onchange = () => showRecordGame(Number($("recgame").value));
$("recform").onsubmit = async (ev) => {
  ev.preventDefault();
  $("recerr").textContent = "";
  try {
    const f = $("recfile").files[0];
    const text = f ? await f.text() : $("rectext").value;
    if (!text.trim()) throw new Error("paste a record or choose a file");
    showRecord(await api("/api/records", { text }), null);
    $("recfile").value = "";
  } catch (e) {
    $("recerr").textContent = e.message;
  }
};

async function loadArchive() {
  const j = await api("/api/archive");
  $("archive").hidden = !j.configured;
  $("archived").replaceChildren(...j.games.map((g) => {
    const li = el("li", { "data-id": g.id }, `${g.date || ""} ${g.white || "?"} – ${g.black || "?"}, ${g.plies} plies ${g.result || ""}`);
    if (view.id === null && rec && rec.archive === g.id) li.classList.add("sel");
    li.onclick = async () => {
      try { showRecord(await api(`/api/archive/${g.id}`), g.id); } catch (e) { $("status").textContent = e.message; }
    };
    return li;
  }));
}

// --- playing a person through a remote-play lobby ----------------------------------
const seatGame = (id) => seat && seat.game !== null && seat.game === id && id !== null;

// The lobby game's JSON names no person: this page's seat says which side it plays.
function seatOverlay(g) {
  if (!seatGame(g.id)) return;
  g.human = seat.color;
  const turn = g.position && g.position.turn ? g.position.turn : "";
  g.playable = seat.state === "playing" && !g.finished && turn.startsWith(seat.color === "w" ? "White" : "Black");
}

function seatShow(s) {
  const was = seat ? seat.game : null;
  if (!seat || !s || s.state === "unknown") {
    if (s && s.state === "unknown") { sessionStorage.removeItem("hbseat"); seat = null; connect(); }
    $("lwait").hidden = true; $("ljoin").disabled = false; $("lseat").textContent = "";
    return;
  }
  Object.assign(seat, s);
  const waiting = seat.state === "waiting";
  $("lwait").hidden = !waiting;
  $("ljoin").disabled = waiting || seat.state === "playing" || seat.state === "away";
  const side = seat.color === "w" ? "white" : "black";
  $("lseat").textContent = seat.state === "playing" ? `You play ${side} against ${seat.opponent} (game #${seat.game}).`
    : seat.state === "over" ? `Your game: ${seat.reason}` : seat.state === "away" ? "Reconnecting…" : "";
  $("lseat").dataset.state = seat.state;
  if (seat.state === "over") sessionStorage.removeItem("hbseat");
  if (seat.game !== null && seat.game !== was) watch(seat.game).catch(() => {});
  else if (seatGame(view.id)) refresh().catch(() => {});
}

async function loadLobbies() {
  const j = await api("/api/lobbies");
  $("people").hidden = !j.lobbies.length;
  $("lobby").replaceChildren(...j.lobbies.map((l) => el("option", { value: l.name }, `${l.name} (${l.time_control})`)));
  const types = j.lobbies.length ? j.lobbies[0].types : [];
  $("ltype").replaceChildren(...types.map((t) => el("option", { value: t }, t)));
}

$("lobbyform").onsubmit = async (ev) => {
  ev.preventDefault();
  $("lerr").textContent = "";
  try {
    const s = await api("/api/lobby/join", { lobby: $("lobby").value, type: $("ltype").value, name: $("lname").value });
    seat = { token: s.token, game: null };
    sessionStorage.setItem("hbseat", s.token);
    sessionStorage.setItem("hbname", $("lname").value);
    seatShow(s);
    connect();
  } catch (e) {
    $("lerr").textContent = e.message;
  }
};
$("lcancel").onclick = async () => {
  try { seatShow(await api("/api/lobby/cancel", { token: seat.token })); } catch (e) { $("lerr").textContent = e.message; }
};

// --- the match dashboard -----------------------------------------------------------
const fmt = (v, d = 1) => (v === null || v === undefined ? "–" : Number(v).toFixed(d));

async function loadMatch() {
  let m;
  try { m = await api("/api/match"); } catch (e) { $("match").hidden = true; return; }
  $("match").hidden = false;
  $("mhead").textContent = `${m.engine_a} vs ${m.engine_b}: ${m.played} of ${m.games} games`;
  const rows = [
    ["Score (W-L-D)", `${m.wins} - ${m.losses} - ${m.draws}  [${fmt(m.score, 3)}]`],
    ["Elo", m.elo === null && m.played ? (m.wins > m.losses ? "+inf" : "-inf")
      : `${fmt(m.elo)} ± ${m.elo_margin === null ? "∞ (no margin from these results yet)" : fmt(m.elo_margin)} (95 %)`],
    ["LOS", `${fmt(m.los * 100)} %`],
    ["Draw ratio", `${fmt(m.draw_ratio === null ? null : m.draw_ratio * 100)} %`],
  ];
  if (m.sprt) {
    // --sprt-min-games holds the verdict back even with the LLR past a bound.
    const held = m.sprt.verdict === "continue" && m.sprt.min_games > m.played ? `, no verdict before ${m.sprt.min_games} games` : "";
    rows.push(["SPRT", `LLR ${fmt(m.sprt.llr, 3)} (${fmt(m.sprt.lower, 2)}, ${fmt(m.sprt.upper, 2)}), elo0 ${m.sprt.elo0}, elo1 ${m.sprt.elo1}: ${m.sprt.verdict}${held}`]);
  }
  rows.push(["Pairs (LL LD WL+DD WD WW)", `[${m.pentanomial.join(", ")}], Elo ${fmt(m.penta_elo)} ± ${fmt(m.penta_elo_margin)}`]);
  $("mstats").replaceChildren(...rows.map(([k, v]) => {
    const tr = el("tr"); tr.appendChild(el("th", {}, k)); tr.appendChild(el("td", { "data-stat": k }, v)); return tr;
  }));
  if (m.tournament) showTournament(m);
  $("llr").style.display = m.tournament && !m.sprt ? "none" : "";
  drawLLR(m.sprt);
  // match --queue: the workers as the coordinator hears them.
  $("mworkers").hidden = !m.workers;
  $("mwork").tBodies[0].replaceChildren(...(m.workers || []).map((w) => {
    const tr = el("tr", { "data-worker": w.name });
    for (const v of [w.name, w.in_flight, w.games, fmt(w.games_per_min), fmt(w.idle_s, 0)]) tr.appendChild(el("td", {}, String(v)));
    return tr;
  }));
  $("mgames").tBodies[0].replaceChildren(...m.finished.map((g) => {
    const tr = el("tr", { "data-game": g.game });
    for (const v of [g.game, g.white, g.black, g.result, g.reason, g.plies]) tr.appendChild(el("td", {}, String(v)));
    tr.tabIndex = 0;
    tr.onclick = () => watchGameString(g.gamestring, `Match game ${g.game}: ${g.white} – ${g.black}, ${g.result}`, g)
      .catch((e) => { $("status").textContent = e.message; });
    tr.onkeydown = (ev) => { if (ev.key === "Enter") tr.onclick(); };
    return tr;
  }));
}

// hivebridge tournament: the rating list, best first, each Elo with its 95 % interval
// as a bar on one scale; the score rows above are the first pairing's, so they go.
function showTournament(m) {
  const t = m.tournament, list = t.ratings ? t.ratings.engines : [];
  const names = new Set(t.pairings.flatMap((p) => [p.a, p.b]));
  $("mhead").textContent = `${t.kind === "gauntlet" ? "Gauntlet" : "Round-robin"} of ${names.size} engines: ${m.played} of ${m.games} games`;
  const fin = list.filter((e) => e.elo !== null && e.margin !== null);
  const lo = Math.min(-50, ...fin.map((e) => e.elo - e.margin)), hi = Math.max(50, ...fin.map((e) => e.elo + e.margin));
  const X = (v) => ((v - lo) / (hi - lo)) * 200;
  $("mstats").replaceChildren(...list.map((e) => {
    const tr = el("tr", { "data-engine": e.engine });
    const elo = e.elo === null ? e.elo_bound || "–" : `${e.elo >= 0 ? "+" : ""}${fmt(e.elo)} ± ${fmt(e.margin)}`;
    tr.appendChild(el("th", {}, `${e.rank}. ${e.engine}`));
    const td = el("td", { "data-stat": "elo" });
    td.appendChild(el("div", { style: "white-space: nowrap" }, elo));
    td.appendChild(el("div", { style: "font-size: smaller" }, `${e.games} games, ${fmt(e.score)} %`));
    const svg = el("svg:svg", { viewBox: "0 0 200 12", preserveAspectRatio: "none", style: "width: 100%; height: 12px; display: block" });
    svg.appendChild(el("svg:line", { x1: X(0), x2: X(0), y1: 0, y2: 12, stroke: "#999" }));
    if (e.elo !== null && e.margin !== null) {
      svg.appendChild(el("svg:line", { x1: X(e.elo - e.margin), x2: X(e.elo + e.margin), y1: 6, y2: 6, stroke: "#2a62c9", "stroke-width": 2 }));
      svg.appendChild(el("svg:circle", { cx: X(e.elo), cy: 6, r: 3, fill: "#2a62c9" }));
    }
    td.appendChild(svg);
    tr.appendChild(td);
    return tr;
  }));
}

// The LLR after each game against the SPRT's bounds. Until the model is defined (no
// draws and one side only: the score 0 or 1) the LLR is not a number: the server sends
// llr and model null (and 0 in the history), and the chart says "no model yet"
// instead of drawing a flat 0; once defined, the leading zeros of the undefined games
// are left out.
function drawLLR(s) {
  const svg = $("llr");
  svg.replaceChildren();
  if (!s) { svg.appendChild(el("svg:text", { x: 10, y: 60 }, "no SPRT (match --sprt)")); return; }
  const h = s.history, W = 300, H = 120, L = 34, B = 16;
  const undefinedModel = s.llr === null || s.model === null;
  let first = 0;
  while (!undefinedModel && s.llr !== 0 && first < h.length && h[first] === 0) first++;
  if (undefinedModel) first = h.length;
  const top = Math.max(s.upper, ...h) * 1.1, bot = Math.min(s.lower, ...h) * 1.1;
  const Y = (v) => (H - B) - (v - bot) / (top - bot) * (H - B);
  const X = (i) => L + (h.length > 1 ? i / (h.length - 1) : 0.5) * (W - L - 4);
  for (const [v, c, name] of [[s.upper, "#2b7a3d", "H1"], [s.lower, "#b02020", "H0"], [0, "#767676", "0"]]) {
    svg.appendChild(el("svg:line", { x1: L, x2: W, y1: Y(v), y2: Y(v), stroke: c, "stroke-dasharray": "4 3" }));
    svg.appendChild(el("svg:text", { x: L - 3, y: Y(v), class: "axis", "text-anchor": "end", fill: c }, `${name} ${v === 0 ? "" : fmt(v, 2)}`));
  }
  svg.appendChild(el("svg:text", { x: L, y: H - 3, class: "axis" }, `games → (${h.length})`));
  svg.appendChild(el("svg:text", { x: 9, y: (H - B) / 2, class: "axis", transform: `rotate(-90 9 ${(H - B) / 2})`, "text-anchor": "middle" }, "LLR"));
  const pts = h.map((v, i) => i < first ? null : `${X(i).toFixed(1)},${Y(v).toFixed(1)}`).filter((x) => x).join(" ");
  svg.appendChild(el("svg:polyline", { points: pts || "0,0", fill: "none", stroke: "#2a62c9", "stroke-width": 2, id: "llrline",
    "data-points": h.length, visibility: pts ? "visible" : "hidden" }));
  if (undefinedModel)
    svg.appendChild(el("svg:text", { x: L + 8, y: 20, class: "nomodel", id: "nomodel" }, "no model yet (no draws, one side only)"));
}

// --- live updates -----------------------------------------------------------------
let listTimer = null;
function scheduleList() {
  if (listTimer) return;
  listTimer = setTimeout(() => { listTimer = null; loadGames().catch(() => {}); loadArchive().catch(() => {}); }, 150);
}

let events = null, backoff = 1000, retry = null;

// The stream is the page's link to the server: while it is down a banner says so and
// no move is offered; when it is back (hello) the game is read again.
function online() {
  view.online = true;
  $("conn").textContent = "live";
  $("banner").hidden = true;
  document.body.classList.remove("offline");
  if (view.game) render();
}
function offline() {
  $("conn").textContent = "reconnecting…";
  if (!view.online && !$("banner").hidden) return;
  view.online = false;
  view.picked = null;
  $("banner").hidden = false;
  document.body.classList.add("offline");
  if (view.game) render();
}
function connect() {
  // A seat's page names it: the stream is its presence (docs/web.md).
  clearTimeout(retry);
  retry = null;
  if (events) events.close();
  const es = events = new EventSource(seat ? "/api/events?seat=" + encodeURIComponent(seat.token) : "/api/events");
  es.addEventListener("seat", (ev) => seatShow(JSON.parse(ev.data)));
  es.addEventListener("hello", () => {
    backoff = 1000;
    online();
    loadGames().catch(() => {}); loadArchive().catch(() => {}); loadMatch();
    // The game read again: a daemon that restarted may not have it any more.
    if (view.id !== null) refresh().catch((e) => { $("status").textContent = `game #${view.id}: ${e.message}`; });
  });
  es.addEventListener("game", (ev) => {
    const d = JSON.parse(ev.data);
    scheduleList();
    if (d.id === view.id) refresh().catch(() => {});
  });
  es.addEventListener("match", () => loadMatch());
  es.onerror = () => {
    offline();
    // EventSource retries a dropped stream itself but gives up on a refused one
    // (503, the server full): open it again, 1 s doubling to 15 s.
    if (es !== events || es.readyState !== EventSource.CLOSED || retry) return;
    retry = setTimeout(connect, backoff);
    backoff = Math.min(backoff * 2, 15000);
  };
}

async function init() {
  try {
    const e = await api("/api/engines");
    $("engine").replaceChildren(...e.engines.map((x) => el("option", { value: x.name }, `${x.name} (${x.kind})`)));
  } catch (err) { $("newerr").textContent = err.message; }
  loadLobbies().catch(() => { $("people").hidden = true; });
  const name = sessionStorage.getItem("hbname");   // this tab's player, back after a reload
  if (name) $("lname").value = name;
  const tok = sessionStorage.getItem("hbseat");
  if (tok) seat = { token: tok, game: null };
  const q = new URLSearchParams(location.search);
  const want = q.get("game"), ply = q.get("ply");
  if (want) watch(Number(want), ply === null ? null : Number(ply)).catch(() => {});
  legendDraw($("legend"));
  zoomWire($("board"));
  $("zin").onclick = () => zoomBy($("board"), 1.25);
  $("zout").onclick = () => zoomBy($("board"), 1 / 1.25);
  $("zfit").onclick = () => { zoomReset(); zoomApply($("board")); };
  // Starting with the forms folded on a phone: the board comes first.
  if (window.innerWidth <= 700 && !want) $("panel").open = false;
  connect();
}
init();
