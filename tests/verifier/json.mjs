// JSON as "Verifying a game" section 2 needs it: a parser that keeps each
// number's source text (3600.0 and 3600 hash differently, so a verifier must
// never re-format a number it read), and the canonical writer of the hashed
// and signed documents. Standard library only; written from the
// specification, not from boardlog's code.

// A number as it was written in the line. `text` is what canonical JSON
// writes back; `int()` reads an integer exactly (BigInt), `float()` as a
// double.
export class JNum {
  constructor(text) {
    this.text = text;
  }
  isInteger() {
    return /^-?(0|[1-9][0-9]*)$/.test(this.text);
  }
  int() {
    return BigInt(this.text);
  }
  float() {
    return Number(this.text);
  }
  toString() {
    return this.text;
  }
}

export class JSONSyntaxError extends Error {}

// Objects are null-prototype objects (so "__proto__" is an ordinary key),
// arrays are arrays, numbers JNum, strings, true, false and null as in JS.
// Refused beyond RFC 8259: duplicate keys (the canonical document of such an
// object is not defined) and lone surrogates (section 2: strings never hold
// them).
export function parseJSON(text) {
  let i = 0;
  const n = text.length;
  const fail = (what) => {
    throw new JSONSyntaxError(`${what} at character ${i}`);
  };
  const ws = () => {
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) i++;
      else break;
    }
  };
  const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
  const value = () => {
    ws();
    if (i >= n) fail("unexpected end");
    const c = text[i];
    if (c === "{") {
      i++;
      const obj = Object.create(null);
      ws();
      if (text[i] === "}") {
        i++;
        return obj;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail("expected a key");
        const key = string();
        if (Object.prototype.hasOwnProperty.call(obj, key)) fail(`duplicate key ${JSON.stringify(key)}`);
        ws();
        if (text[i] !== ":") fail("expected ':'");
        i++;
        obj[key] = value();
        ws();
        if (text[i] === ",") {
          i++;
          continue;
        }
        if (text[i] === "}") {
          i++;
          return obj;
        }
        fail("expected ',' or '}'");
      }
    }
    if (c === "[") {
      i++;
      const arr = [];
      ws();
      if (text[i] === "]") {
        i++;
        return arr;
      }
      for (;;) {
        arr.push(value());
        ws();
        if (text[i] === ",") {
          i++;
          continue;
        }
        if (text[i] === "]") {
          i++;
          return arr;
        }
        fail("expected ',' or ']'");
      }
    }
    if (c === '"') return string();
    if (text.startsWith("true", i)) {
      i += 4;
      return true;
    }
    if (text.startsWith("false", i)) {
      i += 5;
      return false;
    }
    if (text.startsWith("null", i)) {
      i += 4;
      return null;
    }
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(text);
    if (!m) fail("unexpected character");
    i += m[0].length;
    return new JNum(m[0]);
  };
  const ESCAPES = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };
  const PLAIN = /^[^\\\u0000-\u001f]*$/;
  const string = () => {
    i++; // the opening quote
    // Most strings hold no escape: take them whole.
    const end = text.indexOf('"', i);
    if (end >= 0) {
      const whole = text.slice(i, end);
      if (PLAIN.test(whole)) {
        i = end + 1;
        if (!whole.isWellFormed()) fail("lone surrogate in a string");
        return whole;
      }
    }
    let out = "";
    let start = i;
    for (;;) {
      if (i >= n) fail("unterminated string");
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        out += text.slice(start, i);
        i++;
        break;
      }
      if (c < 0x20) fail("control character in a string");
      if (c === 0x5c) {
        out += text.slice(start, i);
        const e = text[i + 1];
        if (e === "u") {
          const hex = text.slice(i + 2, i + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail("bad \\u escape");
          out += String.fromCharCode(parseInt(hex, 16));
          i += 6;
        } else if (e in ESCAPES) {
          out += ESCAPES[e];
          i += 2;
        } else fail("bad escape");
        start = i;
        continue;
      }
      i++;
    }
    if (!out.isWellFormed()) fail("lone surrogate in a string");
    return out;
  };
  const result = value();
  ws();
  if (i !== n) fail("text after the value");
  return result;
}

// Keys compare as sequences of code points; JavaScript's < compares UTF-16
// code units, which puts U+E000..U+FFFF after the astral planes. Mapping
// each unit fixes that: surrogates go above every other BMP unit.
function unitRank(u) {
  if (u >= 0xd800 && u <= 0xdfff) return u + 0x2000;
  if (u >= 0xe000) return u - 0x800;
  return u;
}

export function compareCodePoints(a, b) {
  const m = Math.min(a.length, b.length);
  for (let k = 0; k < m; k++) {
    const x = a.charCodeAt(k);
    const y = b.charCodeAt(k);
    if (x !== y) return unitRank(x) - unitRank(y);
  }
  return a.length - b.length;
}

const SHORT_ESCAPES = { '"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r" };

const NEEDS_ESCAPE = /["\\\u0000-\u001f]/;

function canonicalString(s) {
  if (!NEEDS_ESCAPE.test(s)) return '"' + s + '"';
  return (
    '"' +
    s.replace(/["\\\u0000-\u001f]/g, (ch) => SHORT_ESCAPES[ch] ?? "\\u" + ch.charCodeAt(0).toString(16).padStart(4, "0")) +
    '"'
  );
}

// Section 2. Numbers must be JNum (their text from the line); a plain JS
// number is accepted only if it is a safe integer (for documents a verifier
// builds itself, such as the key document of section 4.2).
export function canonicalJSON(value) {
  if (value === null) return "null";
  if (value === true) return "true";
  if (value === false) return "false";
  if (typeof value === "string") return canonicalString(value);
  if (value instanceof JNum) return value.text;
  if (typeof value === "number") {
    if (!Number.isSafeInteger(value)) throw new TypeError(`cannot write ${value} canonically without its source text`);
    return String(value);
  }
  if (typeof value === "bigint") return value.toString();
  if (Array.isArray(value)) return "[" + value.map(canonicalJSON).join(",") + "]";
  if (typeof value === "object") {
    const keys = Object.keys(value).sort(compareCodePoints);
    return "{" + keys.map((k) => canonicalString(k) + ":" + canonicalJSON(value[k])).join(",") + "}";
  }
  throw new TypeError(`not a JSON value: ${typeof value}`);
}

// Section 2: the number forms the server writes. Integers in decimal with no
// '+', exponent or leading zero; other numbers as a decimal fraction that is
// the shortest text reading back as the same double ("12.345", "3600.0").
// The specification does not say how a very large or very small non-integer
// is written (an exponent?): such a lexeme is accepted if it is the shortest
// round trip (see SPEC_GAPS.md).
export function serverNumberForm(num) {
  const t = num.text;
  if (num.isInteger()) return t !== "-0";
  const d = Number(t);
  if (!Number.isFinite(d)) return false;
  const m = /^-?(?:0|[1-9][0-9]*)(\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/.exec(t);
  if (!m) return false;
  const fraction = m[1] ?? "";
  const integral = Number.isInteger(d) && !/[eE]/.test(t);
  if (integral) {
    if (fraction !== ".0") return false;
  } else if (fraction.endsWith("0")) return false;
  // The same significant digits as JavaScript's shortest round trip.
  const digits = (s) => s.replace(/[eE].*$/, "").replace(/[-.]/g, "").replace(/^0+/, "").replace(/0+$/, "");
  return digits(t) === digits(String(Math.abs(d)));
}
