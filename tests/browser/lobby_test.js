// lobby_test.js: two persons play each other through the page's remote-play lobby in
// headless Chromium (tests/integration/web_browser_lobby.sh).
//   node lobby_test.js BASE_URL OUTDIR
// Every wait has a deadline; any failure exits 1 with the reason.
"use strict";
const { log, clickPieceMove, launch, newPage: blankPage, screenshot, runTest } = require("./lib");

const [base, outdir] = process.argv.slice(2);
// Two pages, one of them in the background: wait by polling, not on animation frames.
const POLL = { polling: 100 };
let browser;

function fail(msg) { throw new Error(msg); }
const rnd = (n) => Math.floor(Math.random() * n);

async function newPage() {
  const page = await blankPage(browser);
  await page.goto(base + "/", { waitUntil: "load" });
  await page.waitForSelector("#lobby option");
  return page;
}

async function shot(page, name) {
  await page.bringToFront();
  await screenshot(page, outdir, name);
}

async function join(page, name) {
  await page.bringToFront();
  await page.$eval("#lname", (e, n) => { e.value = n; }, name);
  await page.click("#ljoin");
}

// One move by clicking on page: a piece it offers, then one of its destinations.
async function clickMove(page) {
  await page.bringToFront();
  await page.waitForFunction(() => view.game && view.game.playable &&
    document.querySelector(".hand button.movable, g.hex.movable, #pass:not([hidden])"), POLL);
  if (await page.$("#pass:not([hidden])")) {
    await page.click("#pass");
    return "pass";
  }
  return clickPieceMove(page, rnd);
}

const moveCount = (page, n) => page.waitForFunction((n) => document.querySelectorAll("#moves .mv").length === n, POLL, n);

async function run() {
  browser = await launch({
    protocolTimeout: 60000,
    // Two pages, one in the background at a time: neither slowed down.
    args: ["--disable-background-timer-throttling", "--disable-renderer-backgrounding",
      "--disable-backgrounding-occluded-windows"],
  });
  const a = await newPage(), b = await newPage();

  // Waiting, visibly, and Cancel.
  await join(a, "alice");
  await a.waitForSelector("#lwait:not([hidden])");
  await shot(a, "lobby-waiting.png");
  await a.click("#lcancel");
  await a.waitForSelector("#lwait", { hidden: true });
  log("waited and cancelled");

  // Alice waits first (White), Bob comes (Black).
  await join(a, "alice");
  await a.waitForSelector("#lwait:not([hidden])");
  await join(b, "bob");
  await a.waitForFunction(() => view.game && view.game.human === "w" && seat && seat.state === "playing", POLL);
  await b.waitForFunction(() => view.game && view.game.human === "b" && seat && seat.state === "playing", POLL);
  await a.waitForSelector("#lwait", { hidden: true });
  const id = await a.evaluate(() => view.id);
  if (id !== await b.evaluate(() => view.id)) fail("the pages watch different games");
  const clicked = [];
  for (let ply = 0; ply < 10; ply++) {
    const [me, other] = ply % 2 === 0 ? [a, b] : [b, a];
    clicked.push(await clickMove(me));
    // Both pages show it: the other one through the event stream.
    await moveCount(me, ply + 1);
    await moveCount(other, ply + 1);
    if (ply === 3) {
      // A reload takes the seat back (its token in sessionStorage).
      await a.bringToFront();
      await a.reload({ waitUntil: "load" });
      await a.waitForFunction((id) => view.id === id && view.game && view.game.human === "w" &&
        seat && seat.state === "playing", POLL, id);
      const nm = await a.$eval("#lname", e => e.value);
      if (nm !== "alice") fail("the name after a reload: " + nm);
      log("alice reloaded and is back in her seat");
    }
    if (ply === 6) {
      await shot(b, "lobby-play.png");
      // The clock of the side to move ticks in the page between the server's answers.
      const clk = async (p) => p.evaluate(() => { const e = document.querySelector(".clock.run"); return e ? [e.id, Number(e.dataset.ms), e.textContent] : null; });
      const c0 = await clk(b);
      if (!c0) fail("no running clock on the page");
      await b.waitForFunction((id, ms) => Number(document.getElementById(id).dataset.ms) < ms - 1200, POLL, c0[0], c0[1]);
      log(`the running clock ticks in the page: ${c0[2]} then ${(await clk(b))[2]}`);
    }
  }
  let g = await (await fetch(`${base}/api/games/${id}`)).json();
  for (let i = 0; i < clicked.length; i++)
    if (g.moves[i] !== clicked[i]) fail(`ply ${i + 1}: clicked ${clicked[i]}, the game has ${g.moves[i]}`);
  log(`clicked ${clicked.length} moves, every one in game ${id}: ${clicked.join(", ")}`);

  // Bob resigns: both pages show White's win.
  await b.bringToFront();
  await b.waitForSelector("#resign:not([hidden])");
  await b.click("#resign");
  for (const p of [a, b])
    await p.waitForFunction(() => document.getElementById("result").textContent.startsWith("1-0"), POLL);
  g = await (await fetch(`${base}/api/games/${id}`)).json();
  if (g.result !== "1-0" || g.reason !== "black resigned") fail("result " + g.result + " " + g.reason);
  await a.waitForFunction(() => document.getElementById("lseat").textContent.includes("resigned"), POLL);
  // Over, not "white to move": the moves alone still read InProgress after a resignation.
  for (const p of [a, b]) {
    const st = await p.$eval("#status", e => e.textContent);
    if (!st.startsWith("Game over") || st.includes("to move")) fail("status after resigning: " + st);
  }
  await shot(a, "lobby-result-white.png");
  await shot(b, "lobby-result-black.png");
  log(`game ${id}: ${g.result} (${g.reason}) on both pages`);
}

runTest(run, () => browser, outdir, "lobby");
