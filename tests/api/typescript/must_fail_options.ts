// Options checked by tsc --strict: each line below must be refused, and
// nothing else in this file (test_generated_typescript.py lists the errors).
import type { components } from "./api";

type Schemas = components["schemas"];

export const misspelled: Schemas["CreateGame"] = { game: "cronberg", options: { player: 2 } };
export const wrongType: Schemas["CreateGame"] = { game: "cronberg", options: { players: "two" } };
export const anotherGames: Schemas["CreateGame"] = { game: "cronberg", options: { last_turn: 21 } };
export const wrongBot: Schemas["CronbergOptions"] = { bots: { p2: "genius" } };
export const fine: Schemas["CreateGame"] = {
  game: "cronberg",
  options: { players: 2, visibility: "private", bots: { p2: "random" }, time_bank_seconds: 3600 },
};
