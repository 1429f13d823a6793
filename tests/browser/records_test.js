// records_test.js: records on hivebridge's page in headless Chromium
// (tests/integration/web_browser_records.sh).
//   node records_test.js BASE_URL OUTDIR RECORDS_DIR TMP_DIR
// Every wait has a deadline; any failure exits 1 with the reason.
"use strict";
const fs = require("fs");
const { log, launch, newPage, screenshot } = require("./lib");

const [base, outdir, recs, tmp] = process.argv.slice(2);
const name = "HV-Abbo69-WeakBot-2018-10-28-2007";

function fail(msg) { console.error("FAIL: " + msg); process.exitCode = 1; throw new Error(msg); }

async function get(path) {
  const r = await fetch(base + path);
  if (!r.ok) fail(`${path}: ${r.status}`);
  return r;
}

// The page shows ply n: its data attribute, the move list's current item, and a board
// whose pieces (the top of each cell) are the server's position at that ply.
async function shows(page, n, moves, gs) {
  await page.waitForFunction((n) => document.getElementById("view").dataset.ply === String(n) &&
    view.ply === n, {}, n);
  const got = await page.evaluate(() => ({
    cur: [...document.querySelectorAll("#moves .mv.cur")].map((li) => [li.dataset.ply, li.textContent]),
    label: document.getElementById("plylabel").textContent,
    tops: [...document.querySelectorAll("g.hex")].map((g) => `${g.dataset.piece}@${g.dataset.q},${g.dataset.r}`).sort(),
  }));
  const pos = await (await get(`/api/position?game=${encodeURIComponent(gs)}&ply=${n}`)).json();
  const cells = new Map();
  for (const p of pos.pieces) cells.set(`${p.q},${p.r}`, p);      // bottom up: the last is the top
  const want = [...cells.values()].map((p) => `${p.piece}@${p.q},${p.r}`).sort();
  if (JSON.stringify(got.tops) !== JSON.stringify(want)) fail(`ply ${n}: board ${got.tops} want ${want}`);
  const wantCur = n ? [[String(n), moves[n - 1]]] : [];
  if (JSON.stringify(got.cur) !== JSON.stringify(wantCur)) fail(`ply ${n}: move list ${JSON.stringify(got.cur)}`);
  if (got.label !== `ply ${n} / ${moves.length}`) fail(`ply ${n}: label ${got.label}`);
  log(`ply ${n}: ${got.tops.length} cells, as the server's position`);
}

async function key(page, k, times = 1) {
  for (let i = 0; i < times; i++) await page.keyboard.press(k);
}

(async () => {
  const browser = await launch();
  try {
    const page = await newPage(browser);
    await page.goto(base + "/", { waitUntil: "load" });
    // The archived game is listed.
    await page.waitForSelector("#archived li");
    if (await page.$eval("#archive", (e) => e.hidden)) fail("the archive section is hidden");

    // A BoardSpace SGF pasted: opened at its last ply.
    const sgf = fs.readFileSync(`${recs}/${name}.sgf`, "utf8");
    await page.$eval("#rectext", (e, v) => { e.value = v; }, sgf);
    await page.click("#recopen");
    await page.waitForFunction(() => view.game && view.game.moves.length === 31 && view.id === null);
    const { moves, gs } = await page.evaluate(() => ({ moves: view.game.moves, gs: view.game.gamestring }));
    await shows(page, 31, moves, gs);
    const title = await page.$eval("#title", (e) => e.textContent);
    if (!/Abbo69/.test(title) || !/WeakBot/.test(title)) fail("title: " + title);
    // Stepped with the keys (the focus off the text box).
    await page.$eval("#rectext", (e) => e.blur());
    await key(page, "Home");
    await shows(page, 0, moves, gs);
    await key(page, "ArrowRight", 20);
    await shows(page, 20, moves, gs);
    await key(page, "ArrowLeft", 3);
    await shows(page, 17, moves, gs);
    await screenshot(page, outdir, "record-ply17.png");
    await key(page, "End");
    await shows(page, 31, moves, gs);
    // The buttons too.
    await page.click("#first");
    await shows(page, 0, moves, gs);
    await page.click("#next");
    await shows(page, 1, moves, gs);

    // The same game's PGN uploaded as a file: the same moves.
    await page.$eval("#rectext", (e) => { e.value = ""; });
    const input = await page.$("#recfile");
    await input.uploadFile(`${recs}/${name}.pgn`);
    await page.click("#recopen");
    await page.waitForFunction(() => view.game && view.game.moves.length === 31 && view.ply === 31);
    const pm = await page.evaluate(() => view.game.moves);
    if (JSON.stringify(pm) !== JSON.stringify(moves)) fail("the PGN's moves differ from the SGF's");

    // An illegal 20th ply: the codec's error, naming the ply and the line.
    await page.$eval("#rectext", (e, v) => { e.value = v; }, fs.readFileSync(`${tmp}/illegal.pgn`, "utf8"));
    await page.click("#recopen");
    await page.waitForFunction(() => /ply 20 at line 32/.test(document.getElementById("recerr").textContent));
    log("refused: " + await page.$eval("#recerr", (e) => e.textContent));

    // The archived game: opened, stepped, downloaded as archived.
    await page.click("#archived li");
    await page.waitForFunction(() => view.game && view.id === null && view.pgn && view.game.moves.length === 88);
    const a = await page.evaluate(() => ({ moves: view.game.moves, gs: view.game.gamestring,
      href: document.getElementById("pgn").getAttribute("href"), hidden: document.getElementById("pgn").hidden }));
    if (a.hidden || a.href !== "/api/archive/0.pgn") fail("the PGN link: " + JSON.stringify(a.href));
    await key(page, "Home");
    await key(page, "ArrowRight", 7);
    await shows(page, 7, a.moves, a.gs);
    const body = await (await get(a.href)).text();
    if (body !== fs.readFileSync(`${tmp}/games.pgn`, "utf8")) fail("the archived download differs from the archive");
    await screenshot(page, outdir, "archived.png");
    log("records: ok");
  } finally {
    await browser.close();
  }
})().catch((e) => { console.error(e.stack || String(e)); process.exitCode = 1; });
