// web_test.js: drives hivebridge's page in headless Chromium (tests/integration/web_browser.sh).
//   node web_test.js serve BASE_URL OUTDIR UHP_PORT
//   node web_test.js match BASE_URL OUTDIR GATE_FILE
//   node web_test.js queue BASE_URL OUTDIR WORKER,WORKER...
// Every wait has a deadline; any failure exits 1 with the reason.
"use strict";
const fs = require("fs");
const http = require("http");
const net = require("net");
const { T, log, clickPieceMove, launch, newPage, screenshot } = require("./lib");

const [mode, base, outdir, arg] = process.argv.slice(2);
let browser;

function fail(msg) { console.error("FAIL: " + msg); process.exitCode = 1; throw new Error(msg); }
const shot = (page, name) => screenshot(page, outdir, name);

// A UHP client over TCP: one command, its answer lines up to "ok".
function uhpClient(port) {
  const sock = net.createConnection({ host: "127.0.0.1", port: Number(port) });
  let buf = "", waiting = null;
  sock.setEncoding("utf8");
  sock.on("data", (d) => { buf += d; if (waiting) waiting(); });
  const cmd = (line) => new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("uhp: no ok for " + line)), T);
    const check = () => {
      const i = buf.indexOf("\nok\n");
      if (i < 0) return;
      const ans = buf.slice(0, i).split("\n");
      buf = buf.slice(i + 4);
      waiting = null;
      clearTimeout(timer);
      resolve(ans);
    };
    waiting = check;
    if (line !== null) sock.write(line + "\n");
    check();
  });
  return { cmd, close: () => sock.destroy() };
}

let seed = 12345;
function rnd(n) { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; }

// An event stream from this process (the browser's address): its response, kept
// open, or null once refused (503) and closed.
function hogStream() {
  return new Promise((resolve, reject) => {
    const req = http.get(base + "/api/events", { agent: false, headers: { Connection: "close" } }, (res) => {
      if (res.statusCode === 200) { resolve(res); return; }
      res.resume();
      res.on("end", () => resolve(null));
    });
    req.setTimeout(T, () => req.destroy(new Error("no answer to a stream")));
    req.on("error", reject);
  });
}

// Another person (a second browser context: no storage shared) opens game id by its
// link: the board is there, read-only: nothing movable, no Resign, no "your move".
async function strangerSees(id) {
  const ctx = await browser.createBrowserContext();
  try {
    const p2 = await newPage(ctx);
    await p2.goto(`${base}/?game=${id}`, { waitUntil: "load" });
    await p2.waitForFunction((id) => view.id === id && view.game && view.pos &&
      document.getElementById("status").textContent.includes("to move"), {}, id);
    const s = await p2.evaluate(() => ({
      status: document.getElementById("status").textContent,
      movable: document.querySelectorAll(".hand button.movable, g.hex.movable").length,
      resign: !document.getElementById("resign").hidden,
      playable: view.game.playable,
    }));
    log(`a stranger's view of game ${id}: ${s.status}`);
    await shot(p2, "stranger.png");
    if (s.movable || s.resign || s.playable || /your move/.test(s.status) || !/watching/.test(s.status))
      fail("a stranger is offered someone else's game: " + JSON.stringify(s));
  } finally {
    await ctx.close();
  }
}

async function serveTests(page, uhpPort) {
  // 0. The streams taken (by one peer: ours, the browser's too): the page's is refused
  // (503) and it tries again, with a back-off, until one frees.
  const hogs = [];
  for (let i = 0; i < 32; i++) hogs.push(await hogStream());
  const held = hogs.filter((r) => r);
  log(`held ${held.length} of 32 event streams from one address`);
  await page.goto(base + "/", { waitUntil: "load" });
  await page.waitForFunction(() => document.getElementById("conn").textContent === "reconnecting…");
  for (const r of held) r.destroy();
  await page.waitForFunction(() => document.getElementById("conn").textContent === "live");
  log("the page's refused stream came back once the streams freed");

  // 1. A daemon session's game, watched move by move: each move is played only once
  // the page shows the previous one.
  const uhp = uhpClient(uhpPort);
  await uhp.cmd(null);              // the greeting: the info block
  await uhp.cmd("newgame Base");
  await page.goto(base + "/", { waitUntil: "load" });
  await page.waitForSelector('#live li[data-kind="uhp"]');
  await page.$eval('#live li[data-kind="uhp"]', (e) => e.click());   // atomic: the list re-renders
  await page.waitForFunction(() => document.getElementById("title").textContent.startsWith("Game #"));
  const played = [];
  for (let k = 1; k <= 10; k++) {
    const ans = await uhp.cmd("bestmove depth 1");
    const mv = ans[ans.length - 1];
    await uhp.cmd("play " + mv);
    played.push(mv);
    await page.waitForFunction((n, m) => {
      const li = document.querySelectorAll("#moves .mv");
      return li.length === n && li[n - 1].textContent === m;
    }, { timeout: T }, k, mv);
  }
  log("watched 10 moves of a UHP session, each shown: " + played.join(", "));
  await shot(page, "watch.png");
  uhp.close();

  // 2. A full game against the built-in engine, played by clicking.
  await page.select("#depth", "1");
  await page.click("#start");
  await page.waitForFunction(() => typeof view !== "undefined" && view.game && view.game.human === "w");
  const id = await page.evaluate(() => view.id);
  const mine = [];
  let finished = false;
  for (let turn = 0; turn < 120 && !finished; turn++) {
    await page.waitForFunction(() => document.getElementById("result").textContent !== "" ||
      (view.game && view.game.playable && document.querySelector(".hand button.movable, g.hex.movable, #pass:not([hidden])")));
    if (await page.$eval("#result", (e) => e.textContent !== "")) { finished = true; break; }
    if (turn === 2) {
      await strangerSees(id);
      // A reload keeps the game: its owner token is in this tab's sessionStorage.
      await page.goto(`${base}/?game=${id}`, { waitUntil: "load" });
      await page.waitForFunction(() => view.game && view.game.playable &&
        document.querySelector(".hand button.movable, g.hex.movable, #pass:not([hidden])"));
      if (await page.$eval("#resign", (e) => e.hidden)) fail("no Resign for the owner after a reload");
      log("reloaded: the game is still this page's to play");
    }
    const n0 = await page.$$eval("#moves .mv", (l) => l.length);
    if (await page.$("#pass:not([hidden])")) {
      await page.click("#pass");
      mine.push("pass");
    } else {
      mine.push(await clickPieceMove(page, rnd));
    }
    await page.waitForFunction((n) => document.querySelectorAll("#moves .mv").length > n, {}, n0);
    if (turn === 6) await shot(page, "play.png");
  }
  if (!finished) {
    log("no result after 120 moves: resigning");
    await page.click("#resign");
    await page.waitForFunction(() => document.getElementById("result").textContent !== "");
  }
  const g = await (await fetch(`${base}/api/games/${id}`)).json();
  for (let i = 0; i < mine.length; i++)
    if (g.moves[2 * i] !== mine[i]) fail(`move ${i + 1}: clicked ${mine[i]}, the game has ${g.moves[2 * i]}`);
  if (!g.finished || !g.result) fail("the game has no result: " + JSON.stringify(g.result));
  log(`played ${mine.length} moves by clicking; game ${id}: ${g.result} (${g.reason}), ${g.plies} plies`);
  await shot(page, "finished.png");

  // 3. Step through the finished game.
  await page.click("#first");
  await page.waitForFunction(() => document.getElementById("plylabel").textContent.startsWith("ply 0 /"));
  if ((await page.$$("g.hex")).length !== 0) fail("pieces on the board at ply 0");
  for (let k = 1; k <= 3; k++) {
    await page.click("#next");
    await page.waitForFunction((k) => document.getElementById("plylabel").textContent.startsWith(`ply ${k} /`), {}, k);
  }
  const pieces3 = await page.$$eval("g.hex", (l) => l.length);
  if (pieces3 < 1 || pieces3 > 3) fail(`${pieces3} cells at ply 3`);
  await page.click("#last");
  await page.waitForFunction((n) => document.getElementById("plylabel").textContent === `ply ${n} / ${n}`, {}, g.plies);
  await page.click("#prev");
  await page.waitForFunction((n) => document.getElementById("plylabel").textContent === `ply ${n - 1} / ${n}`, {}, g.plies);
  await shot(page, "step.png");
  log("stepped through the finished game");

  // 4. A phone-sized screen.
  // (isMobile would reload the page and lose the game on show)
  await page.setViewport({ width: 390, height: 844 });
  await page.waitForSelector("g.hex");
  await shot(page, "phone.png");
}

async function matchTests(page, gate) {
  await page.goto(base + "/", { waitUntil: "load" });
  await page.waitForSelector("#match:not([hidden])");
  fs.writeFileSync(gate, "");      // the match may move on now
  // A game in play, or, where a loaded machine let the short match games end before
  // the page drew one, a finished one: either is watched move by move the same way.
  const game = '#live li[data-kind="match"], #done li[data-kind="match"]';
  await page.waitForSelector(game);
  await page.$eval(game, (e) => e.click());
  await page.waitForFunction(() => document.querySelectorAll("#moves .mv").length >= 2);
  await page.waitForFunction(() => document.querySelectorAll("#mgames tbody tr").length >= 3 &&
    document.getElementById("llrline") && Number(document.getElementById("llrline").dataset.points) >= 3, { timeout: 90000 });
  // The head and the table in one read: the page redraws both at once.
  const [head, stats] = await page.evaluate(() => [document.getElementById("mhead").textContent,
    [...document.querySelectorAll("#mstats td")].map((e) => e.textContent)]);
  log("dashboard: " + head + " | " + stats.join(" | "));
  if (!/±/.test(stats[1]) && !/inf/.test(stats[1])) fail("no Elo: " + stats[1]);
  if (!/LLR/.test(stats[4] || "")) fail("no SPRT line");
  // The match runs with --sprt-min-games 6 of 6 games: held until the end.
  const played = Number((/: (\d+) of 6 games/.exec(head) || [])[1]);
  if (!(played >= 3)) fail("no games played in the head: " + head);
  if ((played < 6) !== /no verdict before 6 games/.test(stats[4])) fail(`SPRT line after ${played} games: ${stats[4]}`);
  await shot(page, "match.png");
  // The chart labels its axes; no table wider than the screen, at 1400 and at 390.
  const chart = await page.$eval("#llr", (e) => e.textContent);
  if (!/LLR/.test(chart) || !/games/.test(chart)) fail("the SPRT chart's axes: " + chart);
  for (const [w, h] of [[1400, 900], [390, 844]]) {
    await page.setViewport({ width: w, height: h });
    const sw = await page.evaluate(() => document.documentElement.scrollWidth);
    if (sw > w) fail(`the dashboard is ${sw} px wide at ${w}`);
    await shot(page, `match-${w}.png`);
  }
  await page.setViewport({ width: 1400, height: 900 });
  // A finished game: its players, result and reason, and every ply of it.
  const row = await page.$eval("#mgames tbody tr", (e) => [...e.children].map((td) => td.textContent));
  await page.$eval("#mgames tbody tr", (e) => e.click());
  await page.waitForFunction(() => document.getElementById("title").textContent.startsWith("Match game"));
  await page.waitForFunction((n) => document.getElementById("plylabel").textContent === `ply ${n} / ${n}`, {}, Number(row[5]));
  const seen = await page.evaluate(() => ["pw", "pb", "result", "status"].map((id) => document.getElementById(id).textContent));
  if (seen[0] !== row[1] || seen[1] !== row[2]) fail(`players ${seen[0]} – ${seen[1]}, the table has ${row[1]} – ${row[2]}`);
  if (!seen[2].includes(row[3]) || !seen[2].includes(row[4])) fail(`result "${seen[2]}", the table has ${row[3]} ${row[4]}`);
  if (/InProgress ·|to move/.test(seen[3])) fail("a finished game reads: " + seen[3]);
  await shot(page, "match-game.png");
  await page.click("#first");
  await page.waitForFunction(() => document.getElementById("plylabel").textContent.startsWith("ply 0 /"));
  for (let k = 1; k <= Number(row[5]); k++) {
    await page.keyboard.press("ArrowRight");
    await page.waitForFunction((k) => document.getElementById("view").dataset.ply === String(k) && view.ply === k &&
      document.querySelector("#moves .mv.cur").dataset.ply === String(k), {}, k);
  }
  log(`match game ${row[0]}: ${seen[0]} – ${seen[1]}, ${seen[2]}; stepped through all ${row[5]} plies`);
}

// match --queue: the workers table lists every worker, each with a game in flight.
async function queueTests(page, names) {
  await page.goto(base + "/", { waitUntil: "load" });
  await page.waitForSelector("#mworkers:not([hidden])");
  const want = names.split(",");
  await page.waitForFunction((want) => want.every((n) => {
    const tr = document.querySelector(`#mwork tr[data-worker="${n}"]`);
    return tr && Number(tr.children[1].textContent) > 0;
  }), { timeout: 60000 }, want);
  const rows = await page.$$eval("#mwork tbody tr", (l) => l.map((e) => e.textContent));
  log("workers: " + rows.join(" | "));
  await shot(page, "queue.png");
}

(async () => {
  browser = await launch();
  const page = await newPage(browser);
  try {
    if (mode === "serve") await serveTests(page, arg);
    else if (mode === "match") await matchTests(page, arg);
    else if (mode === "queue") await queueTests(page, arg);
    else fail("mode?");
  } catch (e) {
    console.error("FAIL: " + e.message);
    try { await shot(page, `failure-${mode}.png`); } catch (e2) { /* the page is gone */ }
    process.exitCode = 1;
  } finally {
    await browser.close();
  }
})();
