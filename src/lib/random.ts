/**
 * `count` characters of `alphabet` from an injected random source, without modulo bias: bytes at or above the largest
 * multiple of the alphabet's size are skipped (drawn 32 at a time, more when too many were skipped).
 */
export function randomCharacters(random: (n: number) => Uint8Array, alphabet: string, count: number): string {
  const limit = 256 - (256 % alphabet.length);
  const chars: string[] = [];
  while (chars.length < count) {
    for (const byte of random(32)) {
      if (byte >= limit || chars.length === count) continue;
      chars.push(alphabet.charAt(byte % alphabet.length));
    }
  }
  return chars.join('');
}

/** Lowercase letters and digits: upstream's `utilrand.String` alphabet, and a bootstrap token's. */
export const LOWER_ALPHANUMERIC = 'abcdefghijklmnopqrstuvwxyz0123456789';
