// board_test.js: the board of hivebridge's page in headless Chromium
// (tests/integration/web_browser_board.sh).
//   node board_test.js BASE_URL OUTDIR DAEMON_PID RECORDS_DIR CONF  ($HIVEBRIDGE set)
// A game by mouse at 1400x900 and one at 390x844 (real clicks), one by keyboard alone,
// the glyphs, hands, marks, view box, zoom and permalinks on the way; an evaluation of
// a position by the built-in engine; the time a 200-ply game takes to re-render
// (printed); the daemon killed: the banner, and no move offered; last, a daemon back
// on the same port: the banner gone, the game read again, a move played.
// Every wait has a deadline; any failure exits 1 with the reason.
"use strict";
const { log, launch, newPage, mouseClick, screenshot, runTest } = require("./lib");

const { spawn } = require("child_process");
const [base, outdir, daemonPid, records, conf] = process.argv.slice(2);
// Moves a game, then the page resigns: over either way, and short on a loaded machine.
const TURNS = { mouse: 16, phone: 10, keys: 12 };
let browser;

function fail(msg) { console.error("FAIL: " + msg); process.exitCode = 1; throw new Error(msg); }
const shot = (page, name) => screenshot(page, outdir, name);
let seed = 4242;
function rnd(n) { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; }

async function api(path, body) {
  const opt = body === undefined ? {} : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
  const r = await fetch(base + path, opt);
  const j = await r.json();
  if (!r.ok) fail(`${path}: ${r.status} ${j.error}`);
  return j;
}

// What the board shows, checked: a glyph on every cell, the hands grouped by bug (at
// most 8 buttons a side, counts that add up to the server's hand), every piece, the
// last move's source and destination inside the view box.
async function checkBoard(page) {
  const r = await page.evaluate(() => {
    const svg = document.getElementById("board");
    const [x, y, w, h] = svg.getAttribute("viewBox").split(" ").map(Number);
    const out = [];
    for (const e of svg.querySelectorAll("g.hex, .lastto, .from, g.dest")) {
      const b = e.getBBox();
      if (b.x < x - 0.5 || b.y < y - 0.5 || b.x + b.width > x + w + 0.5 || b.y + b.height > y + h + 0.5) out.push(e.getAttribute("class"));
    }
    const hands = {};
    for (const c of ["w", "b"]) {
      const bs = [...document.querySelectorAll(`#hand${c} button`)];
      hands[c] = { buttons: bs.length, pieces: bs.reduce((s, b) => s + Number(b.dataset.count), 0), want: view.pos.hand[c].length };
    }
    return { outside: out, cells: svg.querySelectorAll("g.hex").length,
      glyphs: svg.querySelectorAll("g.hex > .layer.top > .glyph").length, hands,
      unlabelled: [...document.querySelectorAll("g.hex, g.dest, .hand button")].filter((e) => !e.getAttribute("aria-label")).length };
  });
  if (r.outside.length) fail("outside the view box: " + r.outside.join(", "));
  if (r.glyphs !== r.cells) fail(`${r.cells} cells, ${r.glyphs} glyphs`);
  if (r.unlabelled) fail(`${r.unlabelled} board elements without a label`);
  for (const c of ["w", "b"])
    if (r.hands[c].buttons > 8 || r.hands[c].pieces !== r.hands[c].want) fail(`hand ${c}: ${JSON.stringify(r.hands[c])}`);
  return r;
}

// Text whose contrast with the background under it is below 4.5:1 (WCAG's relative
// luminance; disabled controls are exempt, as WCAG has them).
async function lowContrast(page) {
  return page.evaluate(() => {
    const rgba = (c) => (c.match(/[\d.]+/g) || []).map(Number);
    const lum = (c) => {
      const [r, g, b] = rgba(c).slice(0, 3).map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const under = (e) => {
      for (; e && e.nodeType === 1; e = e.parentElement) {
        const a = rgba(getComputedStyle(e).backgroundColor);
        if (a.length === 3 || (a.length === 4 && a[3] > 0.5)) return getComputedStyle(e).backgroundColor;
      }
      return "rgb(255, 255, 255)";
    };
    const bad = [];
    for (const e of document.querySelectorAll("body *")) {
      if (e.closest("svg") || e.disabled || !e.getClientRects().length) continue;
      if (![...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())) continue;
      const a = lum(getComputedStyle(e).color), b = lum(under(e));
      const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
      if (ratio < 4.5) bad.push(`${e.tagName.toLowerCase()}#${e.id} ${ratio.toFixed(2)}: ${e.textContent.trim().slice(0, 30)}`);
    }
    return bad;
  });
}

const yourTurn = () => document.getElementById("result").textContent !== "" ||
  (view.game && view.game.playable && document.querySelector(".hand button.movable, g.hex.movable, #pass:not([hidden])"));

// A game against the built-in engine: move(page) plays one of the person's moves.
async function playGame(page, name, move, turns) {
  await page.waitForFunction(() => view.game && view.game.human === "w");
  const id = await page.evaluate(() => view.id);
  const mine = [];
  for (let turn = 0; turn < turns; turn++) {
    await page.waitForFunction(yourTurn);
    if (await page.$eval("#result", (e) => e.textContent !== "")) break;
    const n0 = await page.$$eval("#moves .mv", (l) => l.length);
    if (await page.$("#pass:not([hidden])")) {
      await page.click("#pass");
      mine.push("pass");
    } else {
      mine.push(await move(page, turn));
    }
    await page.waitForFunction((n) => document.querySelectorAll("#moves .mv").length > n, {}, n0);
    await checkBoard(page);
  }
  if (!await page.$eval("#result", (e) => e.textContent !== "")) {
    await page.focus("#resign");
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => document.getElementById("result").textContent !== "");
  }
  const g = await api(`/api/games/${id}`);
  for (let i = 0; i < mine.length; i++)
    if (g.moves[2 * i] !== mine[i]) fail(`${name}: move ${i + 1} was ${mine[i]}, the game has ${g.moves[2 * i]}`);
  log(`${name}: ${mine.length} moves; game ${id}: ${g.result} (${g.reason}), ${g.plies} plies`);
  return g;
}

// By mouse: a piece (a hand button or a cell), then a destination.
async function mouseMove(page, turn, shotName) {
  const pieces = await page.$$eval(".hand button.movable, g.hex.movable", (l) => l.map((e) => e.dataset.piece));
  const p = pieces[rnd(pieces.length)];
  await mouseClick(page, `.hand button.movable[data-piece="${p}"], g.hex.movable[data-piece="${p}"]`);
  await page.waitForSelector("g.dest");
  if (await page.$$eval(".picked", (l) => l.length) !== 1) fail("the picked piece is not marked");
  if (turn === 3 && shotName) await shot(page, shotName);
  const moves = await page.$$eval("g.dest", (l) => l.map((e) => e.dataset.move));
  const mv = moves[rnd(moves.length)];
  await mouseClick(page, `g.dest[data-move="${mv.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"]`);
  return mv;
}

// By keyboard alone: Tab to a piece that can move, Enter (the focus goes to its first
// destination), Tab to another destination, Enter.
async function keyMove(page) {
  const active = () => page.evaluate(() => {
    const e = document.activeElement;
    return e ? { cls: e.getAttribute("class") || "", piece: e.dataset.piece, move: e.dataset.move, label: e.getAttribute("aria-label") } : {};
  });
  let a;
  for (let i = 0; ; i++) {
    if (i > 300) fail("no movable piece reached by Tab");
    await page.keyboard.press("Tab");
    a = await active();
    if (/\bmovable\b/.test(a.cls)) break;
  }
  if (!/^(white|black) [A-Za-z]+.*, \d+ moves?$/.test(a.label)) fail("a movable piece's label: " + a.label);
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => document.activeElement && document.activeElement.classList.contains("dest"));
  const n = await page.$$eval("g.dest", (l) => l.length);
  for (let k = rnd(n); k > 0; k--) await page.keyboard.press("Tab");
  a = await active();
  if (!/\bdest\b/.test(a.cls)) fail("Tab left the destinations: " + JSON.stringify(a));
  // A live update redraws everything: the focus stays on the same destination.
  await page.evaluate(() => render());
  const b = await active();
  if (b.move !== a.move) fail(`the focus moved in a redraw: ${a.move} -> ${JSON.stringify(b)}`);
  await page.keyboard.press("Enter");
  return a.move;
}

async function startGame(page) {
  await page.waitForFunction(() => document.getElementById("conn").textContent === "live");
  const old = await page.evaluate(() => { window.shownBeforeStart = view.game; return view.id; });
  if (!await page.$eval("#panel", (e) => e.open)) await mouseClick(page, "#panel > summary");
  await page.select("#depth", "1");
  await mouseClick(page, "#start");
  // The new game read and shown: until then the game before it (9. below: one the
  // daemon lost) is on the board, and a piece picked there is dropped when it comes.
  await page.waitForFunction((o) => view.id !== null && view.id !== o && view.game &&
    view.game !== window.shownBeforeStart && view.game.id === view.id, {}, old);
}

// A random walk of the server's legal moves: a GameString of up to `plies` plies (it
// stops short where a move would end the game).
async function longGame(plies) {
  const gsOf = (m) => m.length ? `Base;InProgress;${m.length % 2 ? "Black" : "White"}[${Math.floor(m.length / 2) + 1}];${m.join(";")}`
    : "Base;NotStarted;White[1]";
  const moves = [];
  while (moves.length < plies) {
    const r = await fetch(base + "/api/position?game=" + encodeURIComponent(gsOf(moves)));
    const pos = await r.json();
    if (!r.ok) { moves.pop(); break; }          // the last move ended the game
    moves.push(pos.legal[rnd(pos.legal.length)].move);
  }
  return gsOf(moves);
}

async function run() {
  browser = await launch();
  // 1. By mouse at 1400x900.
  const page = await newPage(browser);
  await page.setViewport({ width: 1400, height: 900 });
  await page.goto(base + "/", { waitUntil: "load" });
  await startGame(page);
  const g1 = await playGame(page, "mouse 1400x900", (p, t) => mouseMove(p, t, "board-1400.png"), TURNS.mouse);
  await shot(page, "finished-1400.png");
  const low = await lowContrast(page);
  if (low.length) fail("text below 4.5:1: " + low.join(" | "));

  // Zoom: in, then fit again.
  const vb = () => page.$eval("#board", (e) => e.getAttribute("viewBox"));
  const fit = await vb();
  await page.click("#zin");
  const zin = await vb();
  if (Number(zin.split(" ")[2]) >= Number(fit.split(" ")[2])) fail(`zoom in: ${fit} -> ${zin}`);
  await page.click("#zfit");
  if (await vb() !== fit) fail("zoom to fit: " + await vb());

  // A permalink to a ply of the finished game.
  await page.goto(`${base}/?game=${g1.id}&ply=5`, { waitUntil: "load" });
  await page.waitForFunction((n) => document.getElementById("plylabel").textContent === `ply 5 / ${n}`, {}, g1.plies);
  await page.waitForFunction(() => document.querySelector("#moves .mv.cur") && document.querySelector("#moves .mv.cur").dataset.ply === "5");
  const rows = await page.$$eval("#moves li", (l) => l.length);
  if (rows !== Math.ceil(g1.plies / 2)) fail(`${rows} numbered rows for ${g1.plies} plies`);
  log(`permalink ?game=${g1.id}&ply=5 opens ply 5; ${rows} numbered move pairs`);

  // 2. Analysis of the position shown, by the built-in engine.
  await page.select("#engine", "builtin");
  await page.click("#analyse");
  await page.waitForFunction(() => /depth \d+, score -?\d+/.test(document.getElementById("evaltext").textContent), { timeout: 60000 });
  const ev = await page.$eval("#evaltext", (e) => e.textContent);
  log("evaluation: " + ev);
  await shot(page, "analyse.png");

  // Explore from here: two free moves (one a side) from ply 5, kept as a variation.
  await page.click("#explore");
  await page.waitForFunction(() => view.game && view.game.variation && view.ply === 5);
  const free = [];
  for (let k = 0; k < 2; k++) {
    free.push(await mouseMove(page, 0, null));
    await page.waitForFunction((n) => view.game.moves.length === n && view.ply === n, {}, 6 + k);
  }
  const vars = await page.$$eval("#variations li", (l) => l.map((e) => e.textContent));
  if (vars.length !== 1 || !vars[0].includes(free.join(", "))) fail("the variation: " + JSON.stringify(vars));
  if ((await api(`/api/games/${g1.id}`)).plies !== g1.plies) fail("exploring changed the game");
  log("explored from ply 5: " + vars[0]);
  await shot(page, "variation.png");

  // 3. By mouse at 390x844: the board in view once the game starts.
  const phone = await newPage(browser);
  await phone.setViewport({ width: 390, height: 844 });
  await phone.goto(base + "/", { waitUntil: "load" });
  await startGame(phone);
  await phone.waitForFunction(() => view.game && view.game.playable);
  const top = await phone.$eval("#board", (e) => e.getBoundingClientRect().top);
  if (top < -1 || top > 844 / 3) fail(`the board starts ${top} px down the phone's screen`);
  await playGame(phone, "mouse 390x844", (p, t) => mouseMove(p, t, "board-390.png"), TURNS.phone);
  await shot(phone, "finished-390.png");
  await phone.close();

  // 4. By keyboard alone, at 1400x900.
  await page.goto(base + "/", { waitUntil: "load" });
  await page.waitForFunction(() => document.getElementById("conn").textContent === "live");
  await page.select("#depth", "1");
  await page.focus("#start");
  await page.keyboard.press("Enter");
  await playGame(page, "keyboard", keyMove, TURNS.keys);
  await shot(page, "keyboard.png");

  // 5. A 200-ply game re-rendered (printed, not asserted).
  const gs = await longGame(200);
  await page.$eval("#rectext", (e, v) => { e.value = v; }, gs);
  if (!await page.$eval("#panel", (e) => e.open)) await page.click("#panel > summary");
  await page.click("#recopen");
  await page.waitForFunction((gs) => view.game && view.game.gamestring === gs, {}, gs);
  const ms = await page.evaluate(() => {
    const t0 = performance.now();
    for (let i = 0; i < 20; i++) render();
    return (performance.now() - t0) / 20;
  });
  const plies = await page.evaluate(() => view.game.moves.length);
  log(`re-rendering a ${plies}-ply game: ${ms.toFixed(2)} ms (mean of 20)`);
  await shot(page, "long-game.png");

  // 6. Real records uploaded, a .pgn and an .sgf: on the board with their players.
  for (const ext of ["pgn", "sgf"]) {
    const file = `${records}/HV-Quodlibet-Jewdoka-2018-10-10-0140.${ext}`;
    await page.$eval("#rectext", (e) => { e.value = ""; });
    const input = await page.$("#recfile");
    await input.uploadFile(file);
    await page.click("#recopen");
    await page.waitForFunction(() => view.game && view.id === null && /Quodlibet/.test(document.getElementById("title").textContent) &&
      view.game.moves.length > 0 && view.ply === view.game.moves.length);
    const r = await checkBoard(page);
    const who = await page.evaluate(() => [document.getElementById("pw").textContent, document.getElementById("pb").textContent, view.game.moves.length]);
    if (!who[0] || !who[1]) fail(`${ext}: no players`);
    log(`${file}: ${who[0]} – ${who[1]}, ${who[2]} plies, ${r.cells} cells with glyphs`);
    await shot(page, `record-${ext}.png`);
  }

  // 7. A stack: a white Beetle on its Queen, the whole stack in its title and label,
  // and on a tap under the board.
  const stackGs = "Base;InProgress;Black[4];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wB1 -wQ;bA1 bQ-;wB1 wQ";
  await page.$eval("#rectext", (e, v) => { e.value = v; }, stackGs);
  await page.click("#recopen");
  await page.waitForFunction((gs) => view.game && view.game.gamestring === gs && document.querySelector('g.hex[data-height="2"]'), {}, stackGs);
  const stack = await page.$eval('g.hex[data-height="2"]', (e) => [e.dataset.piece, e.querySelector("title").textContent,
    e.getAttribute("aria-label"), e.querySelectorAll(".layer").length]);
  if (stack[0] !== "wB1" || !/white Queen < white Beetle 1/.test(stack[1]) || !/on top of white Queen/.test(stack[2]) || stack[3] !== 2)
    fail("the stack: " + JSON.stringify(stack));
  await mouseClick(page, 'g.hex[data-height="2"]');
  await page.waitForFunction(() => /bottom to top: white Queen, white Beetle 1/.test(document.getElementById("stackinfo").textContent));
  log("a stack: " + stack[1] + " | " + stack[2]);
  await shot(page, "stack.png");

  // 8. The daemon killed while a piece is picked: the banner, nothing picked or offered.
  await page.goto(base + "/", { waitUntil: "load" });
  await startGame(page);
  await page.waitForFunction(yourTurn);
  await mouseClick(page, ".hand button.movable");
  await page.waitForSelector("g.dest");
  process.kill(Number(daemonPid), "SIGKILL");
  await page.waitForSelector("#banner:not([hidden])");
  await page.waitForFunction(() => !document.querySelector("g.dest, .picked, .movable") && !view.online);
  const st = await page.$eval("#status", (e) => e.textContent);
  if (/your move/.test(st)) fail("the status offers a move offline: " + st);
  if (!await page.$eval("#analyse", (e) => e.disabled)) fail("Analyse offered offline");
  log("the daemon killed: " + await page.$eval("#banner", (e) => e.textContent) + " | " + st);
  await shot(page, "offline.png");

  // 9. A daemon back on the same port: the stream reconnects, the banner goes, the
  // game is read again (this new daemon has no such game), and a new game plays.
  const port = new URL(base).port;
  const back = spawn(process.env.HIVEBRIDGE, ["serve", "--config", conf, "--http", `127.0.0.1:${port}`],
    { stdio: ["ignore", "ignore", "inherit"] });
  try {
    await page.waitForSelector("#banner", { hidden: true, timeout: 60000 });
    await page.waitForFunction(() => view.online && /no such game/.test(document.getElementById("status").textContent), { timeout: 60000 });
    log("reconnected: " + await page.$eval("#status", (e) => e.textContent));
    await startGame(page);
    await page.waitForFunction(yourTurn);
    const mv = await mouseMove(page, 0, null);
    await page.waitForFunction((m) => view.game.moves[0] === m, {}, mv);
    log("and played " + mv + " on the daemon that came back");
    await shot(page, "reconnected.png");
  } finally {
    back.kill("SIGTERM");
    await new Promise((resolve) => back.exitCode !== null ? resolve() : back.on("exit", resolve));
  }
}

runTest(run, () => browser, outdir, "board");
