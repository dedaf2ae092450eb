// The vectors of sections 2, 3 and 6 (canonical JSON, chain, salt,
// signature): each checker returns a list of mismatches.

export const CHAIN_SECTIONS = {};
