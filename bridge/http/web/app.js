// hivebridge's page: watch every game, play against an engine, follow a match.
// Everything it shows comes from the JSON endpoints (docs/web.md); it never decides
// legality: the destinations it offers are the server's legal moves.
"use strict";

const $ = (id) => document.getElementById(id);
const SVGNS = "http://www.w3.org/2000/svg";
const SIZE = 20;                 // hex radius in board units
const view = {
  id: null,        // the watched live game, or null
  gs: null,        // a GameString watched without a live game (a match's finished game)
  game: null,      // the last /api/games/ID answer
  ply: null,       // the position shown, null = follow the latest
  pos: null,       // the position shown
  picked: null,    // the piece picked to move
};
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

function el(tag, attrs, text) {
  const e = tag.startsWith("svg:") ? document.createElementNS(SVGNS, tag.slice(4)) : document.createElement(tag);
  for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
  if (text !== undefined) e.textContent = text;
  return e;
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
      li.onclick = () => watch(g.id);
      return li;
    }));
  }
}

// --- watching ---------------------------------------------------------------------
async function watch(id) {
  view.id = id; view.gs = null; view.ply = null; view.picked = null;
  await refresh();
  loadGames().catch(() => {});
}

async function watchGameString(gs, title) {
  view.id = null; view.gs = gs; view.ply = null; view.picked = null;
  const pos = await api("/api/position?game=" + encodeURIComponent(gs));
  view.game = { title, moves: pos.moves, gamestring: gs, playable: false, plies: pos.moves.length,
    result: null, reason: "", white: "", black: "", clocks: null, analysis: null };
  view.title = title;
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
  if (view.id !== null && n === g.plies) {
    view.ply = null;
    view.pos = g.position;
  } else {
    view.ply = n;
    view.pos = await api(`/api/position?game=${encodeURIComponent(g.gamestring)}&ply=${n}`);
  }
  render();
}

// --- drawing ----------------------------------------------------------------------
function xy(c) { return [SIZE * Math.sqrt(3) * (c.q + c.r / 2), SIZE * 1.5 * c.r]; }
function hexPoints(x, y, s) {
  const p = [];
  for (let i = 0; i < 6; i++) {
    const a = Math.PI / 180 * (60 * i - 30);
    p.push(`${(x + s * Math.cos(a)).toFixed(1)},${(y + s * Math.sin(a)).toFixed(1)}`);
  }
  return p.join(" ");
}
const key = (c) => `${c.q},${c.r}`;

function myTurn() {
  const g = view.game;
  return g && g.playable && view.ply === null && view.id !== null;
}

function legalFor(piece) {
  return (view.pos.legal || []).filter((m) => m.piece === piece);
}

function render() {
  renderBoard();
  renderHands();
  renderInfo();
}

function renderBoard() {
  const svg = $("board");
  const pos = view.pos;
  svg.replaceChildren();
  if (!pos) return;
  const cells = new Map();          // key -> pieces bottom up
  for (const p of pos.pieces) {
    const k = key(p);
    if (!cells.has(k)) cells.set(k, []);
    cells.get(k).push(p);
  }
  const pts = [];
  const lm = pos.last_move;
  const mine = myTurn() ? view.game.human : null;
  for (const [k, stack] of cells) {
    const top = stack[stack.length - 1];
    const [x, y] = xy(top);
    pts.push([x, y]);
    const g = el("svg:g", { class: `hex ${top.color}`, "data-q": top.q, "data-r": top.r,
      "data-piece": top.piece, "data-height": stack.length });
    const poly = el("svg:polygon", { points: hexPoints(x, y, SIZE - 1) });
    g.appendChild(poly);
    g.appendChild(el("svg:circle", { cx: x, cy: y - 1, r: 6.5, class: `bug-${top.bug}` }));
    g.appendChild(el("svg:text", { x, y: y + 10 }, top.piece.slice(1)));
    if (stack.length > 1) {
      // The height and what lies beneath, bottom first.
      g.appendChild(el("svg:text", { x: x + 9, y: y - 10, class: "under" }, `×${stack.length}`));
      g.appendChild(el("svg:text", { x, y: y - 13, class: "under" },
        stack.slice(0, -1).map((p) => p.piece).join(" ")));
      g.appendChild(el("svg:title", {}, `stack: ${stack.map((p) => p.piece).join(" < ")}`));
    }
    if (lm && lm.to && key(lm.to) === k) g.classList.add("last");
    if (mine && top.color === mine && legalFor(top.piece).length) {
      g.classList.add("movable");
      g.onclick = () => pick(top.piece);
    }
    if (view.picked === top.piece) g.classList.add("picked");
    svg.appendChild(g);
  }
  if (lm && lm.from && !cells.has(key(lm.from))) {
    const [x, y] = xy(lm.from);
    svg.appendChild(el("svg:g", { class: "from" })).appendChild(el("svg:polygon", { points: hexPoints(x, y, SIZE - 2) }));
  }
  if (view.picked) {
    for (const m of legalFor(view.picked)) {
      const [x, y] = xy(m.to);
      pts.push([x, y]);
      const g = el("svg:g", { class: "dest", "data-move": m.move, "data-q": m.to.q, "data-r": m.to.r });
      g.appendChild(el("svg:polygon", { points: hexPoints(x, y, SIZE - 3) }));
      g.onclick = () => play(m.move);
      svg.appendChild(g);
    }
  }
  if (!pts.length) pts.push([0, 0]);
  const xs = pts.map((p) => p[0]), ys = pts.map((p) => p[1]);
  const pad = SIZE * 2;
  const x0 = Math.min(...xs) - pad, y0 = Math.min(...ys) - pad;
  const w = Math.max(Math.max(...xs) - Math.min(...xs) + 2 * pad, 8 * SIZE);
  const h = Math.max(Math.max(...ys) - Math.min(...ys) + 2 * pad, 8 * SIZE);
  const s = Math.max(w, h);
  svg.setAttribute("viewBox", `${x0 - (s - w) / 2} ${y0 - (s - h) / 2} ${s} ${s}`);
}

function renderHands() {
  const pos = view.pos;
  const mine = myTurn() ? view.game.human : null;
  for (const c of ["w", "b"]) {
    const div = $("hand" + c);
    div.replaceChildren(...(pos ? pos.hand[c] : []).map((p) => {
      const b = el("button", { class: `${c}`, "data-piece": p, title: p }, p.slice(1));
      if (mine === c && legalFor(p).length) {
        b.classList.add("movable");
        b.onclick = () => pick(p);
      } else {
        b.disabled = true;
      }
      if (view.picked === p) b.classList.add("picked");
      return b;
    }));
  }
}

function fmtClock(ms) {
  const s = Math.max(0, Math.round(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function renderInfo() {
  const g = view.game, pos = view.pos;
  if (!g) return;
  $("title").textContent = view.id !== null ? `Game #${view.id} (${g.kind}, ${g.type})` : (view.title || "Game");
  $("pw").textContent = g.white || ""; $("pb").textContent = g.black || "";
  // The server's games download as PGN, live or finished (GET /api/games/ID.pgn).
  $("pgn").hidden = view.id === null;
  if (view.id !== null) $("pgn").href = `/api/games/${view.id}.pgn`;
  for (const c of ["w", "b"]) {
    const e = $("clock" + c);
    if (g.clocks) {
      e.textContent = fmtClock(c === "w" ? g.clocks.white_ms : g.clocks.black_ms);
      e.classList.toggle("run", g.clocks.running === c);
    } else e.textContent = "";
  }
  const n = view.ply === null ? g.moves.length : view.ply;
  $("plylabel").textContent = `ply ${n} / ${g.moves.length}`;
  const turn = pos ? pos.turn : "";
  // A game decided off the board (resigned, on time) still reads InProgress from its
  // moves: its last position says it is over, not whose move it is.
  const over = g.finished && n === g.moves.length;
  let status = !pos ? "" : over ? `${pos.state === "InProgress" ? "Game over" : pos.state} after ${n} plies`
    : `${pos.state} · ${turn.startsWith("White") ? "white" : "black"} to move (${turn})`;
  const own = g.owned || seatGame(view.id);
  if (myTurn()) status += " · your move";
  else if (own && !g.finished && view.ply === null) status += seatGame(view.id) ? " · opponent's move" : " · engine thinking";
  else if (g.human && !g.finished && view.ply === null) status += " · watching (not your game)";
  if (g.substitutions) status += ` · ${g.substitutions} move${g.substitutions === 1 ? "" : "s"} by the bridge, not the engine (last: ${g.substitution || "?"})`;
  $("status").textContent = status;
  $("result").textContent = g.result ? `${g.result} — ${g.reason}` : (g.finished && g.reason ? g.reason : "");
  const ol = $("moves");
  ol.replaceChildren(...g.moves.map((m, i) => {
    const li = el("li", { "data-ply": i + 1 }, m);
    if (i + 1 === n) li.classList.add("cur");
    li.onclick = () => showPly(i + 1);
    return li;
  }));
  const a = g.analysis;
  $("analysis").textContent = a ? `analysis (ply ${a.ply}): depth ${a.depth}, score ${a.score}, ${a.pv.join(" ")}` : "";
  const onlyPass = myTurn() && pos && pos.legal.length === 1 && pos.legal[0].move === "pass";
  $("pass").hidden = !onlyPass;
  $("resign").hidden = !(own && g.human && !g.finished && view.id !== null);
  document.querySelectorAll("#live li, #done li").forEach((li) =>
    li.classList.toggle("sel", Number(li.dataset.id) === view.id));
}

// --- playing ----------------------------------------------------------------------
function pick(piece) {
  view.picked = view.picked === piece ? null : piece;
  renderBoard();
  renderHands();
}

async function play(move) {
  view.picked = null;
  if (seatGame(view.id)) {
    try {
      seatShow(await api("/api/lobby/move", { token: seat.token, move }));
    } catch (e) {
      $("status").textContent = "refused: " + e.message;
    }
    await refresh();
    return;
  }
  try {
    view.game = await api(`/api/games/${view.id}/move`, { move });
    view.ply = null;
    view.pos = view.game.position;
    render();
  } catch (e) {
    $("status").textContent = "refused: " + e.message;
  }
}

$("pass").onclick = () => play("pass");
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
$("prev").onclick = () => showPly((view.ply === null ? view.game.moves.length : view.ply) - 1);
$("next").onclick = () => showPly((view.ply === null ? view.game.moves.length : view.ply) + 1);
$("last").onclick = () => showPly(view.game ? view.game.moves.length : 0);

$("newform").onsubmit = async (ev) => {
  ev.preventDefault();
  $("newerr").textContent = "";
  try {
    const g = await api("/api/games", { engine: $("engine").value, color: $("color").value,
      type: $("type").value, depth: Number($("depth").value) });
    sessionStorage.setItem("hbgame:" + g.id, g.token);
    await watch(g.id);
  } catch (e) {
    $("newerr").textContent = e.message;
  }
};

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
    ["Elo", m.elo === null && m.played ? (m.wins > m.losses ? "+inf" : "-inf") : `${fmt(m.elo)} ± ${fmt(m.elo_margin)}`],
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
    tr.onclick = () => watchGameString(g.gamestring, `Match game ${g.game}: ${g.white} – ${g.black}, ${g.result}`);
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

function drawLLR(s) {
  const svg = $("llr");
  svg.replaceChildren();
  if (!s) { svg.appendChild(el("svg:text", { x: 10, y: 60 }, "no SPRT (match --sprt)")); return; }
  const h = s.history, W = 300, H = 120;
  const top = Math.max(s.upper, ...h) * 1.1, bot = Math.min(s.lower, ...h) * 1.1;
  const Y = (v) => H - (v - bot) / (top - bot) * H;
  const X = (i) => (h.length > 1 ? i / (h.length - 1) : 0.5) * W;
  for (const [v, c] of [[s.upper, "#2b9a3d"], [s.lower, "#c62828"], [0, "#999"]])
    svg.appendChild(el("svg:line", { x1: 0, x2: W, y1: Y(v), y2: Y(v), stroke: c, "stroke-dasharray": "4 3" }));
  const pts = h.map((v, i) => `${X(i).toFixed(1)},${Y(v).toFixed(1)}`).join(" ");
  svg.appendChild(el("svg:polyline", { points: pts || "0,0", fill: "none", stroke: "#2a62c9", "stroke-width": 2, id: "llrline", "data-points": h.length }));
}

// --- live updates -----------------------------------------------------------------
let listTimer = null;
function scheduleList() {
  if (listTimer) return;
  listTimer = setTimeout(() => { listTimer = null; loadGames().catch(() => {}); }, 150);
}

let events = null, backoff = 1000, retry = null;
function connect() {
  // A seat's page names it: the stream is its presence (docs/web.md).
  clearTimeout(retry);
  retry = null;
  if (events) events.close();
  const es = events = new EventSource(seat ? "/api/events?seat=" + encodeURIComponent(seat.token) : "/api/events");
  es.addEventListener("seat", (ev) => seatShow(JSON.parse(ev.data)));
  es.addEventListener("hello", () => { backoff = 1000; $("conn").textContent = "live"; loadGames().catch(() => {}); loadMatch(); if (view.id !== null) refresh().catch(() => {}); });
  es.addEventListener("game", (ev) => {
    const d = JSON.parse(ev.data);
    scheduleList();
    if (d.id === view.id) refresh().catch(() => {});
  });
  es.addEventListener("match", () => loadMatch());
  es.onerror = () => {
    $("conn").textContent = "reconnecting…";
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
  const want = new URLSearchParams(location.search).get("game");
  if (want) watch(Number(want)).catch(() => {});
  connect();
}
init();
