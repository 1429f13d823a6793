// lib.js: what the browser tests share (web_test.js, lobby_test.js; puppeteer-core
// comes from NODE_PATH, set by tests/lib/web.sh).
//   T                        the default timeout of every wait, in ms.
//   log(msg)                 a line on stdout.
//   clickNow(page, sel)      clicks what sel names as it is now (see below).
//   clickPieceMove(page, rnd)  a move by clicking a piece, then a destination.
//   mouseClick(page, sel)    a real mouse click at the centre of what sel names
//                            (scrolled into view), again if a live update replaced it.
//   launch(opts)             headless Chromium ($CHROMIUM) in a fresh profile; opts.args
//                            adds flags, opts.protocolTimeout sets puppeteer's.
//                            Waits up to $BROWSER_LAUNCH_MS (180 s) for a cold start.
//   newPage(browser)         a page with timeout T, page errors failing the test and
//                            a desktop viewport.
//   screenshot(page, outdir, name)  a full-page PNG outdir/name, logged.
//   runTest(run, browserOf, outdir, prefix)  awaits run(); a failure is printed (exit
//                            status 1) with a screenshot PREFIX-failure-N.png of every
//                            page of browserOf(); the browser is closed either way.
"use strict";
const fs = require("fs");
const os = require("os");
const path = require("path");
const puppeteer = require("puppeteer-core");

const T = 30000;

function log(msg) { console.log(msg); }

// Clicks the element sel names as it is now, in one step inside the page: the board
// re-renders on every live update, so a handle taken earlier may be gone by the click.
async function clickNow(page, sel) {
  for (let i = 0; ; i++) {
    await page.waitForSelector(sel);
    const ok = await page.$eval(sel, (e) => {
      e.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true }));
      return true;
    }).catch(() => false);
    if (ok) return;
    if (i >= 4) throw new Error(`cannot click ${sel}`);
  }
}

// One move by clicking: a piece the page offers, then one of its destinations, each
// picked by rnd(n) (0 to n-1); returns the move.
async function clickPieceMove(page, rnd) {
  const pieces = await page.$$eval(".hand button.movable, g.hex.movable", (l) => l.map((e) => e.dataset.piece));
  const piece = pieces[rnd(pieces.length)];
  await clickNow(page, `.hand button.movable[data-piece="${piece}"], g.hex.movable[data-piece="${piece}"]`);
  await page.waitForSelector("g.dest");
  const moves = await page.$$eval("g.dest", (l) => l.map((e) => e.dataset.move));
  const mv = moves[rnd(moves.length)];
  await clickNow(page, `g.dest[data-move="${mv.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"]`);
  return mv;
}

async function mouseClick(page, sel) {
  for (let i = 0; ; i++) {
    try {
      const h = await page.waitForSelector(sel);
      await h.click();
      return;
    } catch (e) {
      if (i >= 4) throw e;
    }
  }
}

const LAUNCH_T = Number(process.env.BROWSER_LAUNCH_MS || 180000);

async function launch(opts = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hb-chromium-"));
  const o = {
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true,
    userDataDir: dir,
    // A cold first start reads ~300 MB from disk: 10 s on an idle machine here, over 30 s
    // (puppeteer's default) on a loaded CI machine.
    timeout: LAUNCH_T,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync",
      "--disable-dev-shm-usage", ...(opts.args || [])],
  };
  if (opts.protocolTimeout) o.protocolTimeout = opts.protocolTimeout;
  return puppeteer.launch(o);
}

async function newPage(browser) {
  const page = await browser.newPage();
  page.setDefaultTimeout(T);
  page.on("pageerror", (e) => { console.error("page error: " + e.message); process.exitCode = 1; });
  await page.setViewport({ width: 1280, height: 900 });
  return page;
}

async function screenshot(page, outdir, name) {
  await page.screenshot({ path: path.join(outdir, name), fullPage: true });
  log("screenshot " + name);
}

async function runTest(run, browserOf, outdir, prefix) {
  try {
    await run();
  } catch (e) {
    console.error("FAIL: " + e.message);
    process.exitCode = 1;
    try {
      const pages = await browserOf().pages();
      for (let i = 0; i < pages.length; i++) await screenshot(pages[i], outdir, `${prefix}-failure-${i}.png`);
    } catch (e2) { /* the browser is gone */ }
  } finally {
    if (browserOf()) await browserOf().close();
  }
}

module.exports = { T, log, clickNow, clickPieceMove, mouseClick, launch, newPage, screenshot, runTest };
