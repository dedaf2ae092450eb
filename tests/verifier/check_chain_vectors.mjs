// The vectors of sections 2, 3 and 6 (canonical_json, chain, salt,
// signature): each checker returns a list of mismatches.

import { createPrivateKey, sign } from "node:crypto";
import { canonicalJSON, parseJSON } from "./json.mjs";
import { chainLink, fromHex, saltOf, utf8 } from "./primitives.mjs";
import { headMessage, keyIdOf, verifySignature } from "./signatures.mjs";

// An Ed25519 private key from its 32-byte seed (RFC 8032), through the
// PKCS#8 DER prefix of such a key.
function privateKeyFromSeed(seed) {
  const der = Buffer.concat([Buffer.from("302e020100300506032b657004220420", "hex"), seed]);
  return createPrivateKey({ key: der, format: "der", type: "pkcs8" });
}

export const CHAIN_SECTIONS = {
  canonical_json(section) {
    return section.cases.flatMap((c, i) => {
      const text = canonicalJSON(parseJSON(c.input));
      const bad = [];
      if (text !== c.canonical) bad.push(`case ${i}: ${JSON.stringify(text)} is not ${JSON.stringify(c.canonical)}`);
      if (utf8(text).toString("hex") !== c.utf8_hex) bad.push(`case ${i}: the UTF-8 bytes differ`);
      return bad;
    });
  },

  chain(section) {
    const bad = [];
    let previous = null;
    section.cases.forEach((c, i) => {
      if (previous !== null && c.previous !== previous) bad.push(`case ${i}: its previous link is not case ${i - 1}'s`);
      if (canonicalJSON(c.document) !== c.canonical) bad.push(`case ${i}: the canonical text differs`);
      const link = chainLink(fromHex(c.previous), c.document).toString("hex");
      if (link !== c.hash) bad.push(`case ${i}: the link differs`);
      previous = c.hash;
    });
    return bad;
  },

  salt(section) {
    return section.cases.flatMap((c, i) => (saltOf(fromHex(c.seed), c.version.text) === c.salt ? [] : [`case ${i}: the salt of version ${c.version} differs`]));
  },

  signature(section) {
    const bad = [];
    section.cases.forEach((c, i) => {
      const publicKey = fromHex(c.public_key);
      const message = headMessage(c.stream_id, c.version, c.hash);
      if (message.toString("hex") !== c.message_hex) bad.push(`case ${i}: the signed bytes differ`);
      if (keyIdOf(publicKey) !== c.key_id) bad.push(`case ${i}: the key id differs`);
      if (!verifySignature(publicKey, message, fromHex(c.signature))) bad.push(`case ${i}: the signature does not verify`);
      const forged = Buffer.from(message);
      forged[forged.length - 2] ^= 1;
      if (verifySignature(publicKey, forged, fromHex(c.signature))) bad.push(`case ${i}: the signature verifies another message`);
      // Ed25519 is deterministic: the seed signs the same bytes.
      const signed = sign(null, message, privateKeyFromSeed(fromHex(c.private_key_seed))).toString("hex");
      if (signed !== c.signature) bad.push(`case ${i}: signing again gives another signature`);
    });
    return bad;
  },
};
