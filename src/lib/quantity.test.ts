import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GIB, parseQuantity } from './quantity.ts';

describe('parseQuantity', () => {
  const cases: Array<[string, number]> = [
    ['110', 110],
    ['7500m', 7.5],
    ['16Gi', 16 * GIB],
    ['2G', 2e9],
    ['131072Mi', 128 * GIB],
    ['1.5', 1.5],
    ['1e3', 1000],
    ['64', 64],
    [' 4Ki ', 4096],
  ];
  for (const [text, value] of cases) {
    it(`When given ${JSON.stringify(text)}, it should read ${String(value)}`, () => {
      assert.equal(parseQuantity(text), value);
    });
  }

  for (const text of ['', 'Gi', '12 Gi', '1.2.3', '5gi', 'ten']) {
    it(`When given ${JSON.stringify(text)}, it should say it is not a quantity`, () => {
      assert.equal(parseQuantity(text), undefined);
    });
  }
});
