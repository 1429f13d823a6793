// board.js: the Hive board of hivebridge's page (loaded before app.js): the bug glyphs
// (our own drawings), the hexes with their stacks, the marks (picked piece,
// destinations, last move), the hands grouped by bug, the view box with zoom and pan,
// and the legend. It draws what app.js hands it; it decides nothing about legality.
"use strict";

const SVGNS = "http://www.w3.org/2000/svg";
const SIZE = 20;                 // hex radius in board units
const BUGS = "QABGSMLP";
const BUG_NAME = { Q: "Queen", A: "Ant", B: "Beetle", G: "Grasshopper", S: "Spider", M: "Mosquito", L: "Ladybug", P: "Pillbug" };
const SIDE_NAME = { w: "white", b: "black" };

function el(tag, attrs, text) {
  const e = tag.startsWith("svg:") ? document.createElementNS(SVGNS, tag.slice(4)) : document.createElement(tag);
  for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
  if (text !== undefined) e.textContent = text;
  return e;
}

// Each glyph in a box of about ±12 units around 0,0: filled parts ("b"), lines ("l"),
// wings ("w", pale) and cuts in the piece's own colour ("c"), so that a bug reads by
// its outline alone (the colours only help).
const GLYPH = {
  Q: [["w", "ellipse", { cx: -5, cy: -2, rx: 5, ry: 2.6, transform: "rotate(-25 -5 -2)" }],
    ["w", "ellipse", { cx: 5, cy: -2, rx: 5, ry: 2.6, transform: "rotate(25 5 -2)" }],
    ["b", "circle", { cx: 0, cy: -6, r: 2.6 }], ["b", "ellipse", { cx: 0, cy: 2.5, rx: 4.2, ry: 6.5 }],
    ["c", "path", { d: "M-4 0.5H4M-3.8 4H3.8M-2.6 7.2H2.6" }],
    ["b", "path", { d: "M-3 -9L-3.4 -12.4L-1.4 -10.6L0 -13L1.4 -10.6L3.4 -12.4L3 -9Z" }]],
  A: [["l", "path", { d: "M-1 -2L-6 -5.5M1 -2L6 -5.5M-1 -0.5L-7 0M1 -0.5L7 0M-1 1L-5.5 5.5M1 1L5.5 5.5M-1 -9L-3.5 -12.5M1 -9L3.5 -12.5" }],
    ["b", "circle", { cx: 0, cy: -7, r: 2.4 }], ["b", "ellipse", { cx: 0, cy: -1.5, rx: 1.8, ry: 2.6 }],
    ["b", "ellipse", { cx: 0, cy: 5.5, rx: 3.4, ry: 4.6 }]],
  B: [["l", "path", { d: "M-1.5 -8Q-4.5 -10.5 -2.5 -12.8M1.5 -8Q4.5 -10.5 2.5 -12.8M-5.5 -1L-9 -3M5.5 -1L9 -3M-5.5 3L-9 4M5.5 3L9 4M-4.5 7L-7.5 10M4.5 7L7.5 10" }],
    ["b", "ellipse", { cx: 0, cy: -6.5, rx: 3.2, ry: 2.2 }], ["b", "ellipse", { cx: 0, cy: 2, rx: 6.2, ry: 7.6 }],
    ["c", "path", { d: "M0 -4.6V9.4" }]],
  G: [["l", "path", { d: "M-1 -10Q-3 -13.5 -7 -12.5M1 -10Q3 -13.5 7 -12.5M-2 1L-7.5 -4.5L-5.5 10M2 1L7.5 -4.5L5.5 10M-1.5 -4L-5 -1M1.5 -4L5 -1" }],
    ["b", "circle", { cx: 0, cy: -8.5, r: 2.3 }], ["b", "ellipse", { cx: 0, cy: 1, rx: 2.6, ry: 8 }]],
  S: [["l", "path", { d: "M-2 -4L-7 -8.5L-10 -5M2 -4L7 -8.5L10 -5M-2.5 -2.5L-8.5 -3L-11 1M2.5 -2.5L8.5 -3L11 1M-2.5 -1L-7.5 2.5L-9.5 7M2.5 -1L7.5 2.5L9.5 7M-2 0L-5 5L-6 10.5M2 0L5 5L6 10.5" }],
    ["b", "circle", { cx: 0, cy: -3.5, r: 3 }], ["b", "circle", { cx: 0, cy: 4, r: 4.8 }]],
  M: [["w", "ellipse", { cx: -4.5, cy: -0.5, rx: 6.5, ry: 1.7, transform: "rotate(-35 -4.5 -0.5)" }],
    ["w", "ellipse", { cx: 4.5, cy: -0.5, rx: 6.5, ry: 1.7, transform: "rotate(35 4.5 -0.5)" }],
    ["l", "path", { d: "M0 -7V-13M-1 2L-9 8M1 2L9 8M-1 0.5L-10 2M1 0.5L10 2M-1 4L-6 11M1 4L6 11" }],
    ["b", "circle", { cx: 0, cy: -5, r: 2.2 }], ["b", "ellipse", { cx: 0, cy: 3, rx: 1.9, ry: 6.2 }]],
  L: [["l", "path", { d: "M-1.5 -7L-4 -11M1.5 -7L4 -11" }],
    ["b", "path", { d: "M-4.2 -4.6A4.2 3.4 0 0 1 4.2 -4.6Z" }], ["b", "circle", { cx: 0, cy: 2, r: 7.6 }],
    ["c", "path", { d: "M0 -5.6V9.6" }],
    ["c", "circle", { cx: -3.6, cy: 0, r: 1.6, class: "spot" }], ["c", "circle", { cx: 3.6, cy: 0, r: 1.6, class: "spot" }],
    ["c", "circle", { cx: -3.2, cy: 5, r: 1.4, class: "spot" }], ["c", "circle", { cx: 3.2, cy: 5, r: 1.4, class: "spot" }]],
  P: [["l", "path", { d: "M-2 -8L-4.5 -12M2 -8L4.5 -12M-6 -2L-9 -3M6 -2L9 -3M-6 2.5L-9 3M6 2.5L9 3" }],
    ["b", "ellipse", { cx: 0, cy: 0.5, rx: 6.3, ry: 9 }],
    ["c", "path", { d: "M-5.8 -4.5Q0 -2.5 5.8 -4.5M-6.3 0Q0 2 6.3 0M-5.8 4.5Q0 6.5 5.8 4.5" }]],
};

// A bug's glyph as an SVG group at x,y, scaled by k.
function glyph(bug, x, y, k) {
  const g = el("svg:g", { class: `glyph bug-${bug}`, transform: `translate(${x} ${y}) scale(${k})` });
  for (const [kind, tag, attrs] of GLYPH[bug] || []) {
    const a = Object.assign({}, attrs);
    a.class = `g${kind}` + (a.class ? " " + a.class : "");
    g.appendChild(el("svg:" + tag, a));
  }
  return g;
}

// A small standalone SVG of one piece (hands, legend).
function pieceIcon(color, bug, size) {
  const s = el("svg:svg", { viewBox: "-22 -22 44 44", width: size, height: size, class: `icon ${color}`, "aria-hidden": "true" });
  s.appendChild(el("svg:polygon", { points: hexPoints(0, 0, SIZE), class: "tile" }));
  s.appendChild(glyph(bug, 0, 0, 1.15));
  return s;
}

function xy(c) { return [SIZE * Math.sqrt(3) * (c.q + c.r / 2), SIZE * 1.5 * c.r]; }
function hexPoints(x, y, s) {
  const p = [];
  for (let i = 0; i < 6; i++) {
    const a = Math.PI / 180 * (60 * i - 30);
    p.push(`${(x + s * Math.cos(a)).toFixed(1)},${(y + s * Math.sin(a)).toFixed(1)}`);
  }
  return p.join(" ");
}
const cellKey = (c) => `${c.q},${c.r}`;
function pieceName(p) {
  const n = p.length > 2 ? " " + p.slice(2) : "";
  return `${SIDE_NAME[p[0]]} ${BUG_NAME[p[1]] || p[1]}${n}`;
}
const plural = (n, w) => `${n} ${w}${n === 1 ? "" : "s"}`;

// The zoom and pan of the board: a factor over the box that fits the game, and a
// shift of its centre in board units; reset for every new game shown.
const zoom = { k: 1, dx: 0, dy: 0, fit: null };
function zoomReset() { zoom.k = 1; zoom.dx = 0; zoom.dy = 0; }
function zoomApply(svg) {
  const f = zoom.fit;
  if (!f) return;
  const s = f.s / zoom.k;
  svg.setAttribute("viewBox", `${(f.cx + zoom.dx - s / 2).toFixed(1)} ${(f.cy + zoom.dy - s / 2).toFixed(1)} ${s.toFixed(1)} ${s.toFixed(1)}`);
}
function zoomBy(svg, f) {
  zoom.k = Math.max(0.5, Math.min(5, zoom.k * f));
  zoomApply(svg);
}

// Wheel to zoom, a drag to pan, two fingers to pinch. A press that moves less than
// a few pixels stays a click (a pick, a destination).
function zoomWire(svg) {
  const pts = new Map();
  let pinch = null, moved = false;
  svg.addEventListener("wheel", (ev) => {
    ev.preventDefault();
    zoomBy(svg, ev.deltaY < 0 ? 1.15 : 1 / 1.15);
  }, { passive: false });
  svg.addEventListener("pointerdown", (ev) => {
    pts.set(ev.pointerId, [ev.clientX, ev.clientY]);
    moved = false;
    if (pts.size === 2) {
      const [a, b] = [...pts.values()];
      pinch = { d: Math.hypot(a[0] - b[0], a[1] - b[1]), k: zoom.k };
    }
  });
  svg.addEventListener("pointermove", (ev) => {
    const p = pts.get(ev.pointerId);
    if (!p || !zoom.fit) return;
    if (pts.size === 2 && pinch) {
      pts.set(ev.pointerId, [ev.clientX, ev.clientY]);
      const [a, b] = [...pts.values()];
      zoom.k = Math.max(0.5, Math.min(5, pinch.k * Math.hypot(a[0] - b[0], a[1] - b[1]) / (pinch.d || 1)));
      moved = true;
      zoomApply(svg);
      return;
    }
    const ddx = ev.clientX - p[0], ddy = ev.clientY - p[1];
    if (!moved && Math.hypot(ddx, ddy) < 5) return;
    moved = true;
    const unit = zoom.fit.s / zoom.k / (svg.clientWidth || 1);
    zoom.dx -= ddx * unit; zoom.dy -= ddy * unit;
    pts.set(ev.pointerId, [ev.clientX, ev.clientY]);
    zoomApply(svg);
  });
  const up = (ev) => { pts.delete(ev.pointerId); if (pts.size < 2) pinch = null; };
  svg.addEventListener("pointerup", up);
  svg.addEventListener("pointercancel", up);
  // A drag ends in a click on whatever lies under it: swallowed.
  svg.addEventListener("click", (ev) => { if (moved) { ev.stopPropagation(); ev.preventDefault(); moved = false; } }, true);
}

// Draws pos on svg. o: {picked, legal(piece) -> moves, movable(piece) -> bool,
// onPick(piece), onPlay(move), onStack(text)}.
function boardDraw(svg, pos, o) {
  svg.replaceChildren();
  if (!pos) return;
  const cells = new Map();          // key -> pieces bottom up
  for (const p of [...pos.pieces].sort((a, b) => a.level - b.level)) {
    const k = cellKey(p);
    if (!cells.has(k)) cells.set(k, []);
    cells.get(k).push(p);
  }
  const pts = [];
  const lm = pos.last_move;
  const layer = { tiles: el("svg:g"), marks: el("svg:g", { class: "marks" }), dests: el("svg:g") };
  for (const [k, stack] of cells) {
    const top = stack[stack.length - 1];
    const [x, y] = xy(top);
    pts.push([x, y]);
    const moves = o.movable(top.piece) ? o.legal(top.piece) : [];
    const g = el("svg:g", { class: `hex ${top.color}`, "data-q": top.q, "data-r": top.r,
      "data-piece": top.piece, "data-height": stack.length, "data-key": "hex:" + k, tabindex: "0", role: "button" });
    // Lower pieces as layers offset down and left, the top one over them.
    const n = stack.length;
    for (let i = 0; i < n; i++) {
      const p = stack[i], off = (n - 1 - i) * 3.2;
      const lg = el("svg:g", { class: `layer ${p.color}${i === n - 1 ? " top" : ""}`, transform: off ? `translate(${-off} ${off})` : "" });
      lg.appendChild(el("svg:polygon", { points: hexPoints(x, y, SIZE - 1.5), class: "tile" }));
      if (i === n - 1) lg.appendChild(glyph(p.bug, x, y - 1, 1.05));
      g.appendChild(lg);
    }
    if (top.piece.length > 2) g.appendChild(el("svg:text", { x: x + 10.5, y: y + 9, class: "num" }, top.piece.slice(2)));
    const names = stack.map((p) => pieceName(p.piece));
    let label = pieceName(top.piece);
    if (n > 1) {
      // What lies right beneath, small at the top left: a covered Queen is found at a glance.
      const under = stack[n - 2];
      const ug = el("svg:g", { class: `under ${under.color}` });
      ug.appendChild(el("svg:circle", { cx: x - 11, cy: y - 10, r: 6, class: "tile" }));
      ug.appendChild(glyph(under.bug, x - 11, y - 10, 0.4));
      g.appendChild(ug);
      g.appendChild(el("svg:circle", { cx: x + 11, cy: y - 10, r: 5.2, class: "badge" }));
      g.appendChild(el("svg:text", { x: x + 11, y: y - 10, class: "badgen" }, String(n)));
      label += `, on top of ${names.slice(0, -1).reverse().join(", ")}`;
    }
    if (moves.length) label += `, ${plural(moves.length, "move")}`;
    g.setAttribute("aria-label", label);
    g.appendChild(el("svg:title", {}, n > 1 ? `stack, bottom to top: ${names.join(" < ")}` : names[0]));
    const act = () => {
      if (n > 1 && o.onStack) o.onStack(`Stack at ${k}, bottom to top: ${names.join(", ")}`);
      if (moves.length) o.onPick(top.piece);
    };
    g.addEventListener("click", act);
    g.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); act(); } });
    if (moves.length) g.classList.add("movable");
    if (o.picked === top.piece) g.classList.add("picked");
    if (lm && lm.to && cellKey(lm.to) === k) g.classList.add("last");
    layer.tiles.appendChild(g);
  }
  if (lm && lm.to) {
    const [x, y] = xy(lm.to);
    pts.push([x, y]);
    layer.marks.appendChild(el("svg:polygon", { points: hexPoints(x, y, SIZE + 0.5), class: "lastto" }));
  }
  if (lm && lm.from) {
    const [x, y] = xy(lm.from);
    pts.push([x, y]);
    const g = el("svg:g", { class: "from" });
    g.appendChild(el("svg:polygon", { points: hexPoints(x, y, SIZE - 3) }));
    g.appendChild(el("svg:circle", { cx: x, cy: y, r: 2.5 }));
    layer.marks.appendChild(g);
  }
  if (o.picked) {
    for (const m of o.legal(o.picked)) {
      const [x, y] = xy(m.to);
      pts.push([x, y]);
      const g = el("svg:g", { class: "dest", "data-move": m.move, "data-q": m.to.q, "data-r": m.to.r,
        "data-key": "dest:" + m.move, tabindex: "0", role: "button", "aria-label": `move ${pieceName(o.picked)} to ${m.move}` });
      g.appendChild(el("svg:polygon", { points: hexPoints(x, y, SIZE - 3) }));
      g.appendChild(el("svg:circle", { cx: x, cy: y, r: 4 }));
      g.addEventListener("click", () => o.onPlay(m.move));
      g.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); o.onPlay(m.move); } });
      layer.dests.appendChild(g);
    }
  }
  svg.append(layer.tiles, layer.marks, layer.dests);
  if (!pts.length) pts.push([0, 0]);
  const xs = pts.map((p) => p[0]), ys = pts.map((p) => p[1]);
  const pad = SIZE * 1.6;
  const w = Math.max(Math.max(...xs) - Math.min(...xs) + 2 * pad, 7 * SIZE);
  const h = Math.max(Math.max(...ys) - Math.min(...ys) + 2 * pad, 7 * SIZE);
  zoom.fit = { cx: (Math.max(...xs) + Math.min(...xs)) / 2, cy: (Math.max(...ys) + Math.min(...ys)) / 2, s: Math.max(w, h) };
  zoomApply(svg);
}

// One side's hand, grouped by bug: a button per bug with its count; it picks the
// piece the rules place next (the lowest number left).
function handDraw(div, color, pieces, o) {
  const byBug = new Map();
  for (const p of pieces) {
    if (!byBug.has(p[1])) byBug.set(p[1], []);
    byBug.get(p[1]).push(p);
  }
  div.replaceChildren(...[...BUGS].filter((b) => byBug.has(b)).map((bug) => {
    const list = byBug.get(bug).sort((a, b) => Number(a.slice(2) || 0) - Number(b.slice(2) || 0));
    const p = list[0];
    const moves = o.movable(p) ? o.legal(p) : [];
    const label = `${SIDE_NAME[color]} ${BUG_NAME[bug]}, ${list.length} in hand` + (moves.length ? `, ${plural(moves.length, "move")}` : "");
    const b = el("button", { class: color, "data-piece": p, "data-bug": bug, "data-count": list.length,
      "data-key": `hand:${color}:${bug}`, "aria-label": label, title: label });
    b.appendChild(pieceIcon(color, bug, 30));
    b.appendChild(el("span", { class: "count" }, "×" + list.length));
    if (moves.length) {
      b.classList.add("movable");
      b.onclick = () => o.onPick(p);
    } else {
      b.setAttribute("aria-disabled", "true");
    }
    if (o.picked === p) { b.classList.add("picked"); b.setAttribute("aria-pressed", "true"); }
    return b;
  }));
}

function legendDraw(div) {
  const ul = el("ul");
  for (const bug of BUGS) {
    const li = el("li");
    li.append(pieceIcon("w", bug, 26), pieceIcon("b", bug, 26), el("span", {}, ` ${bug} ${BUG_NAME[bug]}`));
    ul.appendChild(li);
  }
  const marks = el("ul", { class: "marks" });
  for (const [cls, text] of [["picked", "picked piece"], ["dest", "a destination"], ["lastto", "last move: to"], ["from", "last move: from"], ["badge", "stack height (hover or tap: the stack)"]]) {
    const li = el("li");
    const s = el("svg:svg", { viewBox: "-22 -22 44 44", width: 22, height: 22, class: "mark-" + cls, "aria-hidden": "true" });
    s.appendChild(el("svg:polygon", { points: hexPoints(0, 0, SIZE - 2) }));
    li.append(s, el("span", {}, " " + text));
    marks.appendChild(li);
  }
  div.append(ul, marks);
}
