#!/usr/bin/env node
// Checks the second verifier's primitives (imported from verify.mjs)
// against the test vectors of "Verifying a game":
//
//   node tests/verifier/check_vectors.mjs [vectors.json ...]
//
// (by default vectors/randomness.json and vectors/chain.json beside this
// file, those that exist). Prints one line per section and exits 1 on any
// mismatch, 2 when no vector file was found.

import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import * as v from "./verify.mjs";
import { CHAIN_SECTIONS } from "./check_chain_vectors.mjs";

const HERE = dirname(fileURLToPath(import.meta.url));
const DEFAULT_FILES = [join(HERE, "vectors", "randomness.json"), join(HERE, "vectors", "chain.json")];

const big = (x) => (x instanceof v.JNum ? x.int() : BigInt(x));
const plain = (x) => {
  // A vector value as plain JS (numbers as doubles), for comparing results.
  if (x instanceof v.JNum) return x.float();
  if (Array.isArray(x)) return x.map(plain);
  if (x !== null && typeof x === "object") return Object.fromEntries(Object.entries(x).map(([k, y]) => [k, plain(y)]));
  return x;
};
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

// Each section checker returns a list of mismatch descriptions.
const RANDOMNESS_SECTIONS = {
  commitment(section) {
    return section.cases.flatMap((c, i) => (v.commitmentOf(v.fromHex(c.seed)) === c.sha256 ? [] : [`case ${i}: SHA256(seed) differs`]));
  },

  key(section) {
    const bad = [];
    section.cases.forEach((c, i) => {
      const doc = { contributions: c.contributions, purpose: "boardlog randomness key" };
      if ("message" in c && v.canonicalJSON(doc) !== c.message) bad.push(`case ${i}: the key document's bytes differ`);
      if (v.randomnessKey(v.fromHex(c.seed), c.contributions).toString("hex") !== c.key) bad.push(`case ${i}: K differs`);
    });
    return bad;
  },

  generator(section) {
    const bad = [];
    section.cases.forEach((c, i) => {
      const key = v.fromHex(c.key);
      const stream = new v.DrawStream(key, c.label);
      const words = c.words.map(() => stream.nextWord().toString(16).padStart(16, "0"));
      if (!same(words, c.words)) bad.push(`case ${i} (${c.label}): the words differ`);
      for (const b of c.below ?? []) {
        const fresh = new v.DrawStream(key, c.label);
        const got = b.values.map(() => fresh.below(big(b.n)).toString());
        if (!same(got, b.values.map((x) => big(x).toString()))) bad.push(`case ${i} (${c.label}): below(${b.n}) differs`);
      }
    });
    return bad;
  },

  rejection(section) {
    const bad = [];
    section.cases.forEach((c, i) => {
      const key = v.fromHex(c.key);
      const n = big(c.n);
      const fresh = new v.DrawStream(key, c.label);
      const got = c.values.map(() => fresh.below(n).toString());
      if (!same(got, c.values.map((x) => big(x).toString()))) bad.push(`case ${i}: below(${n}) differs`);
      // The rejected words are at least the limit, and are where they say.
      const limit = (1n << 64n) - ((1n << 64n) % n);
      const words = new v.DrawStream(key, c.label);
      const all = [];
      const last = Math.max(...c.rejected.map((r) => Number(big(r.word_index))), 0);
      for (let k = 0; k <= last; k++) all.push(words.nextWord());
      for (const r of c.rejected) {
        const w = all[Number(big(r.word_index))];
        if (w.toString(16).padStart(16, "0") !== r.word || w < limit) bad.push(`case ${i}: word ${r.word_index} is not the rejected one`);
      }
    });
    return bad;
  },

  // The kinds of draw of the table in 4.3; a case names its kind in words
  // ("randint(1, 6), five dice"), which is read here (see SPEC_GAPS.md).
  draws(section) {
    const bad = [];
    const key = v.fromHex(section.key);
    section.cases.forEach((c, i) => {
      const what = c.draw;
      // The listed draws replay from the stream, whatever the kind.
      const replay = new v.DrawStream(key, c.label);
      for (const [n, value] of c.draws) if (replay.below(big(n)) !== big(value)) bad.push(`case ${i} (${what}): the draw list does not replay`);
      const run = (draw) => {
        const stream = new v.DrawStream(key, c.label);
        const taken = [];
        const below = stream.below.bind(stream);
        stream.below = (n) => {
          const x = below(n);
          taken.push([String(n), x.toString()]);
          return x;
        };
        const result = draw(stream);
        if (!same(plain(result), plain(c.result))) bad.push(`case ${i} (${what}): result ${JSON.stringify(result)} differs`);
        if (!same(taken, c.draws.map(([n, x]) => [big(n).toString(), big(x).toString()]))) bad.push(`case ${i} (${what}): the draws taken differ`);
      };
      const count = (word) => ({ one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10 })[word] ?? Number(word);
      const list = (text) => {
        const range = /^\[(-?\d+), (-?\d+), \.\.\., (-?\d+)\]$/.exec(text);
        if (range) {
          const out = [];
          for (let x = Number(range[1]); x <= Number(range[3]); x++) out.push(x);
          return out;
        }
        return JSON.parse(text.replace(/'/g, '"'));
      };
      let m;
      if ((m = /^randint\((-?\d+), (-?\d+)\)(?:, (\w+) dic?e)?$/.exec(what))) {
        const times = m[3] ? count(m[3]) : 1;
        run((s) => Array.from({ length: times }, () => s.integer(Number(m[1]), Number(m[2]))));
      } else if ((m = /^choice of (\[.*\])$/.exec(what))) {
        run((s) => s.choice(list(m[1])));
      } else if ((m = /^shuffle of (\[.*\]) in place$/.exec(what))) {
        run((s) => s.shuffle(list(m[1])));
      } else if ((m = /^sample of (\d+) distinct from (\[.*\])$/.exec(what))) {
        run((s) => s.sample(list(m[2]), Number(m[1])));
      } else if ((m = /^(\w+) reals? in \[0, 1\)$/.exec(what))) {
        run((s) => Array.from({ length: count(m[1]) }, () => s.real()));
      } else if ((m = /^an element of (\[.*\]) by weights (\[.*\]), (\w+) times?$/.exec(what))) {
        const items = list(m[1]);
        const weights = list(m[2]);
        run((s) => Array.from({ length: count(m[3]) }, () => items[s.weighted(weights)]));
      } else {
        bad.push(`case ${i}: a kind of draw this checker does not read: ${JSON.stringify(what)}`);
      }
    });
    return bad;
  },
};

const SECTIONS = { ...RANDOMNESS_SECTIONS, ...CHAIN_SECTIONS };

function main(argv) {
  const files = argv.length ? argv : DEFAULT_FILES.filter((f) => existsSync(f));
  if (files.length === 0) {
    process.stdout.write("no vector file found\n");
    process.exit(2);
  }
  let failures = 0;
  for (const file of files) {
    const doc = v.parseJSON(readFileSync(file, "utf8"));
    for (const [name, section] of Object.entries(doc)) {
      const checker = SECTIONS[name];
      if (!checker) {
        // A section nobody checks is a vector the second verifier does not
        // claim: a failure, so that a new section gets its checker.
        failures++;
        process.stdout.write(`FAIL  ${file}: ${name}: no checker for this section\n`);
        continue;
      }
      let bad;
      try {
        bad = checker(section);
      } catch (e) {
        bad = [`the checker failed: ${e.stack}`];
      }
      const cases = Array.isArray(section?.cases) ? section.cases.length : "?";
      if (bad.length) {
        failures += bad.length;
        process.stdout.write(`FAIL  ${file}: ${name} (${cases} cases)\n${bad.map((b) => `        ${b}\n`).join("")}`);
      } else process.stdout.write(`ok    ${file}: ${name} (${cases} cases)\n`);
    }
  }
  process.stdout.write(failures ? `${failures} mismatches\n` : "every vector agrees\n");
  process.exit(failures ? 1 : 0);
}

main(process.argv.slice(2));
