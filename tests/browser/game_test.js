// game_test.js: whole games on hivebridge's page in headless Chromium
// (tests/integration/web_browser_game.sh).
//   node game_test.js BASE_URL OUTDIR [LOBBY_URL]
// Four games against the built-in engine at depth 1, each played to its end (a Queen
// surrounded, or a draw the server declares), never resigned: by keyboard alone (Tab
// to the piece, Enter, Tab to the destination, Enter) and by mouse (real clicks), each
// at 1400x900 and at 390x844. The person's moves close in on the engine's Queen so that
// the games end soon. At the end the page's result and reason are the server's, every
// move the page made is in the server's game, and a screenshot of each end is kept.
// Every wait has a deadline; any failure exits 1 with the reason.
"use strict";
const { log, launch, newPage, mouseClick, screenshot, runTest } = require("./lib");

const [base, outdir, lobbyBase] = process.argv.slice(2);
// The person's moves in one game at most: past this the game has not ended and fails.
const MAX_MOVES = 60;
let browser;

function fail(msg) { console.error("FAIL: " + msg); process.exitCode = 1; throw new Error(msg); }
let seed;
function rnd(n) { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; }

async function api(path, from = base) {
  const r = await fetch(from + path);
  const j = await r.json();
  if (!r.ok) fail(`${path}: ${r.status} ${j.error}`);
  return j;
}

// The move the person wants, from the page's position (the server's, with its legal
// moves): the one that leaves the most cells around the engine's Queen occupied and
// the fewest around the person's own; the person's Queen placed as soon as it may be,
// then Ants (they reach any cell around the hive); none of the person's last moves
// again (recent), so that it does not shuffle a piece to and fro. Ties are broken by
// r, a number.
function choose(pos, me, r, recent) {
  const them = me === "w" ? "b" : "w";
  const key = (c) => `${c.q},${c.r}`;
  const height = new Map();
  let myQ = null, theirQ = null;
  for (const p of pos.pieces) {
    height.set(key(p), (height.get(key(p)) || 0) + 1);
    if (p.piece === me + "Q") myQ = p;
    if (p.piece === them + "Q") theirQ = p;
  }
  const around = (c, occ) => [[1, 0], [1, -1], [0, -1], [-1, 0], [-1, 1], [0, 1]]
    .filter(([dq, dr]) => occ.has(`${c.q + dq},${c.r + dr}`)).length;
  const onBoard = new Map(pos.pieces.map((p) => [p.piece, p]));
  const ants = pos.pieces.filter((p) => p.piece[0] === me && p.piece[1] === "A").length;
  let best = null, bestScore = -Infinity;
  for (const m of pos.legal) {
    if (m.move === "pass") return m;
    const occ = new Set([...height.keys()]);
    const from = onBoard.get(m.piece);
    if (from && height.get(key(from)) === 1) occ.delete(key(from));
    occ.add(key(m.to));
    let s = 0;
    if (theirQ) s += 10 * around(theirQ, occ);
    const q = m.piece === me + "Q" ? m.to : myQ;
    if (q) s -= 4 * around(q, occ);
    if (!from && m.piece === me + "Q") s += 100;
    if (!from && m.piece[1] === "A" && ants < 3) s += 3;
    if (recent.includes(m.move)) s -= 15;
    s += ((r + pos.legal.indexOf(m) * 7919) % 1000) / 10000;
    if (s > bestScore) { bestScore = s; best = m; }
  }
  return best;
}

const yourTurn = () => document.getElementById("result").textContent !== "" ||
  (view.game && view.game.playable && document.querySelector(".hand button.movable, g.hex.movable, #pass:not([hidden])"));

async function startGame(page) {
  await page.waitForFunction(() => document.getElementById("conn").textContent === "live");
  if (!await page.$eval("#panel", (e) => e.open)) await page.click("#panel > summary");
  await page.select("#depth", "1");
  await page.click("#start");
  await page.waitForFunction(() => view.game && view.game.human === "w" && view.id !== null);
}

// A game to its end: move(page, m) plays the chosen move m (a legal move of the
// server's position) and returns the move as the page sent it.
async function playToEnd(page, name, move) {
  const t0 = Date.now();
  const id = await page.evaluate(() => view.id);
  const mine = [];
  for (;;) {
    await page.waitForFunction(yourTurn);
    if (await page.$eval("#result", (e) => e.textContent !== "")) break;
    if (mine.length >= MAX_MOVES) fail(`${name}: game ${id} has not ended after ${MAX_MOVES} of the person's moves`);
    const n0 = await page.$$eval("#moves .mv", (l) => l.length);
    const [pos, me] = await page.evaluate(() => [view.pos, view.game.human]);
    const m = choose(pos, me, rnd(1000), mine.slice(-6));
    if (!m) fail(`${name}: no legal move offered`);
    mine.push(await move(page, m));
    await page.waitForFunction((n) => document.querySelectorAll("#moves .mv").length > n, {}, n0);
  }
  const g = await api(`/api/games/${id}`);
  if (!g.finished || !g.result) fail(`${name}: the page shows an end, the server's game ${id} is ${g.state}`);
  for (let i = 0; i < mine.length; i++)
    if (g.moves[2 * i] !== mine[i]) fail(`${name}: move ${i + 1} was ${mine[i]}, the game has ${g.moves[2 * i]}`);
  // The page's last view of the game is the server's final one.
  await page.waitForFunction((p) => view.game.plies === p && !view.game.playable, {}, g.plies);
  const shown = await page.$eval("#result", (e) => e.textContent);
  const want = `${g.result}${g.reason ? " — " + g.reason : ""}`;
  if (shown !== want) fail(`${name}: the page shows "${shown}", the server says "${want}"`);
  if (await page.$(".hand button.movable, g.hex.movable, g.dest, #pass:not([hidden])")) fail(`${name}: moves offered after the end`);
  log(`${name}: game ${id} ended after ${g.plies} plies (${mine.length} of the person's moves): ${shown}; ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  return g;
}

// By keyboard alone: Tab (forward) to the piece, Enter, Tab to the destination, Enter.
async function keyMove(page, m) {
  const reach = async (test, what) => {
    for (let i = 0; i < 400; i++) {
      await page.keyboard.press("Tab");
      if (await page.evaluate(test, m)) return;
    }
    fail(`Tab did not reach ${what}`);
  };
  if (m.move === "pass") {
    await reach(() => document.activeElement && document.activeElement.id === "pass", "Pass");
  } else {
    await reach((m) => {
      const e = document.activeElement;
      return !!e && e.classList.contains("movable") && e.dataset.piece === m.piece;
    }, m.piece);
    const label = await page.evaluate(() => document.activeElement.getAttribute("aria-label"));
    if (!/^(white|black) [A-Za-z]+.*, \d+ moves?$/.test(label)) fail("a movable piece's label: " + label);
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => document.activeElement && document.activeElement.classList.contains("dest"));
    // The first destination has the focus already.
    if (!await page.evaluate((m) => document.activeElement.dataset.move === m.move, m))
      await reach((m) => document.activeElement && document.activeElement.dataset.move === m.move, m.move);
  }
  await page.keyboard.press("Enter");
  return m.move;
}

// By mouse: real clicks at the centre of the piece, then of the destination.
const quote = (s) => s.replace(/\\/g, "\\\\").replace(/"/g, '\\"');

async function mouseMove(page, m) {
  if (m.move === "pass") {
    await mouseClick(page, "#pass");
    return "pass";
  }
  await mouseClick(page, `.hand button.movable[data-piece="${m.piece}"], g.hex.movable[data-piece="${m.piece}"]`);
  await page.waitForSelector("g.dest");
  await mouseClick(page, `g.dest[data-move="${quote(m.move)}"]`);
  return m.move;
}

// seed: the tie-breaks' first number; with the engine at depth 1 (deterministic) the
// game of seed 13 is won in 33 plies, that of seed 7 lost in 30.
async function game(name, width, height, move, seed0) {
  seed = seed0;
  const page = await newPage(browser);
  await page.setViewport({ width, height });
  await page.goto(base + "/", { waitUntil: "load" });
  await startGame(page);
  const g = await playToEnd(page, name, move);
  await screenshot(page, outdir, `game-end-${name.replace(/ /g, "-")}.png`);
  await page.close();
  return g;
}

// The flag: two persons paired in the lobby of LOBBY_BASE (a clock of a few seconds),
// and White does not move: White's clock shows the flag at 0:00 on both pages, and
// both show the server's result and reason.
async function flag() {
  const pages = [];
  for (const name of ["alice", "bob"]) {
    const p = await newPage(browser);
    await p.setViewport({ width: 1400, height: 900 });
    await p.goto(lobbyBase + "/", { waitUntil: "load" });
    await p.waitForSelector("#lobby option");
    await p.$eval("#lname", (e, n) => { e.value = n; }, name);
    await p.click("#ljoin");
    if (name === "alice") await p.waitForSelector("#lwait:not([hidden])");
    pages.push(p);
  }
  const poll = { polling: 100, timeout: 60000 };
  for (const p of pages) {
    await p.waitForFunction(() => document.getElementById("result").textContent !== "", poll);
    await p.waitForFunction(() => document.getElementById("clockw").textContent === "⚑ 0:00", poll);
  }
  const id = await pages[0].evaluate(() => view.id);
  if (id === null || id !== await pages[1].evaluate(() => view.id)) fail("the flag: the pages watch different games");
  const g = await api(`/api/games/${id}`, lobbyBase);
  const want = `${g.result}${g.reason ? " — " + g.reason : ""}`;
  if (g.plies !== 0 || g.result !== "0-1" || g.reason !== "white lost on time") fail(`the flag: the server's game ${id}: ${JSON.stringify([g.plies, g.result, g.reason])}`);
  for (const p of pages) {
    const shown = await p.evaluate(() => [document.getElementById("result").textContent, document.getElementById("clockw").className]);
    if (shown[0] !== want) fail(`the flag: the page shows "${shown[0]}", the server says "${want}"`);
    if (!/\bflag\b/.test(shown[1])) fail("white's clock is not marked as flagged: " + shown[1]);
  }
  log(`the flag: game ${id}, White did not move: "⚑ 0:00" and "${want}" on both pages`);
  await screenshot(pages[0], outdir, "flag.png");
  for (const p of pages) await p.close();
}

async function run() {
  browser = await launch();
  if (lobbyBase) await flag();
  await game("keyboard 1400x900", 1400, 900, keyMove, 13);
  await game("mouse 390x844", 390, 844, mouseMove, 7);
  // And the other way round: each way at each size.
  await game("keyboard 390x844", 390, 844, keyMove, 7);
  await game("mouse 1400x900", 1400, 900, mouseMove, 13);
}

runTest(run, () => browser, outdir, "game");
