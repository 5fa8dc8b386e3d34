/**
 * Kubernetes resource quantities (`500m`, `16Gi`, `2G`, `1e3`, `110`) as plain numbers, the way the API server's
 * `resource.Quantity` reads them: a decimal number, then an optional binary suffix (Ki…Ei), decimal suffix (m, k…E)
 * or decimal exponent.
 */

const SUFFIXES: Readonly<Record<string, number>> = {
  '': 1,
  m: 1e-3,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
};

const QUANTITY = /^([+-]?(?:\d+\.?\d*|\.\d+))(Ki|Mi|Gi|Ti|Pi|Ei|m|k|M|G|T|P|E|[eE][+-]?\d+)?$/;

/** The value of a quantity, or `undefined` when the text is not one. */
export function parseQuantity(text: string): number | undefined {
  const match = QUANTITY.exec(text.trim());
  if (match === null) return undefined;
  const suffix = match[2] ?? '';
  const scale = /^[eE]/.test(suffix) ? 10 ** Number(suffix.slice(1)) : SUFFIXES[suffix];
  return scale === undefined ? undefined : Number(match[1]) * scale;
}

/** Bytes in a GiB, the unit the manual's sizing tables use for memory. */
export const GIB = 2 ** 30;
