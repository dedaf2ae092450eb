// A frontend's use of the generated types: one command of each game built
// from its own union, one typed field of each game's view, legal commands
// passed on as commands. tsc --strict must accept it.
import type { components } from "./api";

type Schemas = components["schemas"];

export const commands = {
  cronberg: { type: "DrawBuilding" } satisfies Schemas["CronbergCommand"],
  coronation: { type: "HideLind", decoy: 3 } satisfies Schemas["CoronationCommand"],
  court: { type: "EndTurn" } satisfies Schemas["CourtOfMiraclesCommand"],
  coil: { type: "Deploy", value: 4, region: "celestos-1" } satisfies Schemas["TheCoilCommand"],
  runebound: { type: "MoveTo", place: "Tamalir" } satisfies Schemas["RuneboundCommand"],
};

// What a client may leave out it leaves out: the server fills in defaults.
export const requests = {
  create: { game: "cronberg" } satisfies Schemas["CreateGame"],
  options: { players: 3 } satisfies Schemas["CoronationOptions"],
  lindMoves: { type: "MoveLind", by: "cab", to: 42 } satisfies Schemas["CoronationMoveLind"],
  join: {} satisfies Schemas["Join"],
};

export function sendCoronation(command: Schemas["CoronationCommand"]): string {
  return command.type;
}

export function actOnLegalCommands(legal: Schemas["CoronationLegalCommandsResponse"]): string[] {
  return legal.commands.map(sendCoronation);
}

export function describe(answer: Schemas["ViewResponse"]): string {
  switch (answer.game) {
    case "cronberg":
      return answer.view === null ? "lobby" : `round ${answer.view.round}`;
    case "coronation":
      return answer.view === null ? "lobby" : `turn ${answer.view.turn} of ${answer.view.last_turn}, `
        + `Lind ${answer.view.lind === null ? "hidden" : `at ${answer.view.lind.location}`}`;
    case "court-of-miracles":
      return answer.view === null ? "lobby" : `phase ${answer.view.phase}`;
    case "the-coil":
      return answer.view === null ? "lobby" : `northern die ${answer.view.northern_die}`;
    case "runebound":
      return answer.view === null ? "lobby" : `step ${answer.view.step}`;
  }
}

export function lastEventType(feed: Schemas["RuneboundFeedResponse"]): string | undefined {
  return feed.events.at(-1)?.data.type;
}
