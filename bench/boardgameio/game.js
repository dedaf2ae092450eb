// boardlog's example game (domain/games/example: rules.py, decide.py,
// state.py, views.py) on boardgame.io 0.50, same rules: twelve cards, 1-6
// twice, shuffled; four dealt to each seat, the rest stay face down. For
// three rounds every seat at once puts one card face down
// (setActivePlayers: all, one move each); when all have, the cards turn up
// and the single highest takes the round (a tie at the top takes nothing).
// Most rounds won wins. playerView hides what boardlog's views hide (the
// other hands, the undealt deck, the others' face-down cards), and the
// move is redacted in the log, as boardlog's CardChosen is for the others.
"use strict";
const { INVALID_MOVE } = require("boardgame.io/core");

const ROUNDS = 3;
const HAND_SIZE = 4;
const DECK = [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6];
const FACE_DOWN = "face-down";

function setup({ ctx, random }) {
  const cards = random.Shuffle(DECK);
  const hands = {};
  ctx.playOrder.forEach((seat, n) => {
    hands[seat] = cards.slice(n * HAND_SIZE, (n + 1) * HAND_SIZE).sort((a, b) => a - b);
  });
  const zero = Object.fromEntries(ctx.playOrder.map((seat) => [seat, 0]));
  return { hands, deck: cards.slice(ctx.playOrder.length * HAND_SIZE), round: 1, chosen: { ...zero },
           roundsWon: { ...zero }, lastReveal: null, over: false };
}

function choose({ G, ctx, playerID, events }, card) {
  const hand = G.hands[playerID];
  if (!Number.isInteger(card) || !hand.includes(card) || G.chosen[playerID]) return INVALID_MOVE;
  hand.splice(hand.indexOf(card), 1);
  G.chosen[playerID] = card;
  if (ctx.playOrder.some((seat) => !G.chosen[seat])) {
    events.endStage(); // this seat has chosen: it waits for the others
    return;
  }
  const best = Math.max(...ctx.playOrder.map((seat) => G.chosen[seat]));
  const top = ctx.playOrder.filter((seat) => G.chosen[seat] === best);
  if (top.length === 1) G.roundsWon[top[0]] += 1;
  G.lastReveal = { ...G.chosen };
  G.chosen = Object.fromEntries(ctx.playOrder.map((seat) => [seat, 0]));
  G.round += 1;
  if (G.round > ROUNDS) {
    const most = Math.max(...Object.values(G.roundsWon));
    G.over = true;
    events.endGame({ winners: ctx.playOrder.filter((seat) => G.roundsWon[seat] === most), roundsWon: most });
  } else {
    events.setActivePlayers({ all: "choose" }); // the next round: every seat at once again
  }
}

function playerView({ G, ctx, playerID }) {
  const table = {};
  for (const seat of ctx.playOrder) {
    if (G.chosen[seat]) table[seat] = seat === playerID ? G.chosen[seat] : FACE_DOWN;
  }
  const view = { round: Math.min(G.round, ROUNDS), rounds: ROUNDS, over: G.over,
                 handSizes: Object.fromEntries(ctx.playOrder.map((seat) => [seat, G.hands[seat].length])),
                 table, lastReveal: G.lastReveal, roundsWon: G.roundsWon };
  if (playerID !== null && playerID !== undefined && G.hands[playerID]) view.hand = G.hands[playerID];
  return view;
}

const Example = {
  name: "example",
  minPlayers: 2,
  maxPlayers: 3,
  setup,
  playerView,
  turn: {
    activePlayers: { all: "choose" },
    // client: false: a client holds only its playerView, so the server alone runs the move.
    stages: { choose: { moves: { choose: { move: choose, redact: true, client: false } } } },
  },
};

module.exports = { Example, ROUNDS, HAND_SIZE };
