// @ts-check
// A game's share link: the address of its table, which anyone can open to
// take a free seat (or watch), with a button that copies it. Nobody needs a
// game's id out of band.
import { h } from "./dom.js";

/** @param {string} id @returns {string} */
export function linkOf(id) {
  return `${location.origin}${location.pathname}#/games/${id}`;
}

// A game id from what a reader pastes: the id itself, or a share link.
/** @param {string} text @returns {string} */
export function gameIdOf(text) {
  const found = text.trim().match(/#\/(?:games|watch|replay)\/([^/?#\s]+)/);
  return found ? decodeURIComponent(found[1]) : text.trim();
}

/** @param {string} id */
export function shareLink(id) {
  const field = h("input", { type: "text", readonly: true, value: linkOf(id), class: "share-link", id: `share-${id}`, "aria-label": "The game's link, to give to the players you invite" });
  const said = h("span", { class: "muted", role: "status" });
  const copy = h("button", {
    type: "button", class: "copy-link", onclick: async () => {
      try {
        await navigator.clipboard.writeText(field.value);
        said.textContent = " Copied: paste it in a message.";
      } catch {
        // No clipboard for this page (an insecure origin, or refused): the link is selected for the reader to copy.
        field.select();
        said.textContent = " Selected: copy it with Ctrl+C.";
      }
    },
  }, "Copy link");
  return h("span", { class: "share" }, field, " ", copy, said);
}
