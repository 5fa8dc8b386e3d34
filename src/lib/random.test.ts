import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LOWER_ALPHANUMERIC, randomCharacters } from './random.ts';

/** Random bytes from a fixed list, repeated. */
const bytesFrom = (values: readonly number[]): ((n: number) => Uint8Array) => {
  let next = 0;
  return (n) => Uint8Array.from({ length: n }, () => values[next++ % values.length] ?? 0);
};

describe('randomCharacters', () => {
  it('When bytes fall above the last full multiple of the alphabet, they should be skipped, so no character is favoured', () => {
    // 36 letters: 252 is the limit; 252..255 are skipped, 36 maps to 'a' again.
    assert.equal(randomCharacters(bytesFrom([252, 255, 0, 36, 35]), LOWER_ALPHANUMERIC, 3), 'aa9');
  });

  it('When many characters are asked for, it should return exactly that many, all from the alphabet', () => {
    const chars = randomCharacters(bytesFrom([...Array.from({ length: 256 }, (_, i) => i)]), LOWER_ALPHANUMERIC, 400);
    assert.equal(chars.length, 400);
    assert.match(chars, /^[a-z0-9]+$/);
  });
});
