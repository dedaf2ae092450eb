// @ts-check
// A board's labels kept apart, once the board is in the page (only then do
// texts have a size): a place's own label (data-label="fixed": a number or
// an id inside it) stays; any other (data-label="free": a name below a place,
// a piece's mark above it) moves to the nearest spot around where it was
// drawn that overlaps no label already placed, or is hidden when none is
// free (what it says stays in its place's title, the accessible name).

/** @typedef {{ x: number, y: number, width: number, height: number }} Box */

/** @param {Box} a @param {Box} b */
const overlap = (a, b) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** @param {SVGTextElement} text @param {number} pad @returns {Box} */
function boxOf(text, pad) {
  const box = text.getBBox();
  return { x: box.x - pad, y: box.y - pad, width: box.width + 2 * pad, height: box.height + 2 * pad };
}

/** @param {SVGSVGElement} svg */
export function untangle(svg) {
  if (!svg.isConnected) return;
  const texts = /** @type {SVGTextElement[]} */ ([...svg.querySelectorAll("text[data-label]")]);
  const fixed = texts.filter((t) => t.dataset.label === "fixed"), free = texts.filter((t) => t.dataset.label !== "fixed");
  /** @type {Box[]} */
  const placed = [];
  for (const text of fixed) {
    const box = boxOf(text, 0);
    if (box.width) placed.push(box);
  }
  for (const text of free) {
    const box = boxOf(text, 0);
    if (!box.width) continue;
    const pad = box.height * 0.08;
    const x = Number(text.getAttribute("x")), y = Number(text.getAttribute("y"));
    const moves = [[0, 0]];
    for (let ring = 1; ring <= 3; ring += 1) {
      const dy = box.height * 0.9 * ring, dx = box.width * 0.55 * ring;
      moves.push([0, dy], [0, -dy], [dx, 0], [-dx, 0], [dx, dy], [-dx, dy], [dx, -dy], [-dx, -dy]);
    }
    const spot = moves.find(([dx, dy]) => {
      const moved = { x: box.x + dx - pad, y: box.y + dy - pad, width: box.width + 2 * pad, height: box.height + 2 * pad };
      return !placed.some((other) => overlap(moved, other));
    });
    if (!spot) { text.setAttribute("visibility", "hidden"); continue; }
    text.setAttribute("x", String(x + spot[0]));
    text.setAttribute("y", String(y + spot[1]));
    placed.push({ x: box.x + spot[0] - pad, y: box.y + spot[1] - pad, width: box.width + 2 * pad, height: box.height + 2 * pad });
  }
}

// The place under the pointer or the keyboard, said in full below the board
// (its title: a Coronation location's number and name, a crossing's worth),
// for a board too dense to write every name on.
/** @param {HTMLElement} board @param {HTMLElement} caption */
export function captionPlaces(board, caption) {
  /** @param {Event} event */
  const show = (event) => {
    const place = event.target instanceof Element ? event.target.closest("[data-place]") : null;
    const title = place && place.querySelector("title");
    if (title && title.textContent) caption.textContent = title.textContent;
  };
  board.addEventListener("pointerover", show);
  board.addEventListener("focusin", show);
}
