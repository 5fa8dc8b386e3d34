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

/** An RFC 4122 version-4 UUID from the injected random source (ignition tokens, generated cluster IDs). */
export function uuid(random: (n: number) => Uint8Array): string {
  const bytes = random(16);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = Buffer.from(bytes).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
