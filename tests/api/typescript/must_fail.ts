// A Cronberg command where a Coronation command is expected: tsc must refuse it.
import type { components } from "./api";
import { commands, sendCoronation } from "./program";

type Schemas = components["schemas"];

const cronberg: Schemas["CronbergCommand"] = commands.cronberg;
sendCoronation(cronberg);
