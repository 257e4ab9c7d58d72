import { randomFillSync } from 'node:crypto';

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
const LETTERS_AND_DIGITS = `${LETTERS}0123456789`;
/** Bytes at or past these bounds are skipped, so every character is drawn uniformly (26 × 9 = 234, 36 × 7 = 252). */
const LETTER_BOUND = 234;
const CHARACTER_BOUND = 252;
/** Random bytes drawn in blocks: one call into the CSPRNG serves about 170 ids. */
const block = Buffer.alloc(4096);
let next = block.length;

function randomByte(): number {
  if (next === block.length) {
    randomFillSync(block);
    next = 0;
  }
  return block[next++];
}

/**
 * A new id in the CUID2 shape of the contract (24 characters of [a-z0-9], a letter first): ct_ids, instance ids,
 * hold tokens, package ids. From node:crypto randomness, about 123 random bits, no hashing (cuid2's SHA-3 cost a
 * validation thread 6 % and every hold a few µs of the event loop).
 */
export function newId(): string {
  let byte = randomByte();
  while (byte >= LETTER_BOUND) byte = randomByte();
  let id = LETTERS[byte % 26];
  while (id.length < 24) {
    byte = randomByte();
    if (byte < CHARACTER_BOUND) id += LETTERS_AND_DIGITS[byte % 36];
  }
  return id;
}
