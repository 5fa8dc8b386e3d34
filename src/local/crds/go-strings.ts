/**
 * Reads string values out of generated Go source such as `var X map[string]string = map[string]string{"key": `...`}`.
 * Values may be raw strings, interpreted strings, or a `+` concatenation of both (generators split raw strings
 * around backticks that way). Only what those generated files use is supported.
 */

function readInterpreted(source: string, start: number): { value: string; end: number } {
  let i = start + 1;
  while (i < source.length && source[i] !== '"') i += source[i] === '\\' ? 2 : 1;
  return { value: JSON.parse(source.slice(start, i + 1)) as string, end: i + 1 };
}

function readRaw(source: string, start: number): { value: string; end: number } {
  const close = source.indexOf('`', start + 1);
  if (close < 0) throw new Error('unterminated raw string');
  return { value: source.slice(start + 1, close), end: close + 1 };
}

const skipSpace = (source: string, i: number): number => {
  let j = i;
  while (j < source.length && /\s/.test(source[j] ?? '')) j++;
  return j;
};

/** Reads a string expression (literals joined by `+`) starting at `start`. */
function readStringExpression(source: string, start: number): string {
  let i = skipSpace(source, start);
  let value = '';
  for (;;) {
    const part = source[i] === '`' ? readRaw(source, i) : source[i] === '"' ? readInterpreted(source, i) : undefined;
    if (part === undefined) throw new Error(`expected a string literal at offset ${i}`);
    value += part.value;
    i = skipSpace(source, part.end);
    if (source[i] !== '+') return value;
    i = skipSpace(source, i + 1);
  }
}

/** The value of map entry `"key": ...` in generated Go source; throws when the key is absent. */
export function goMapEntry(source: string, key: string): string {
  const marker = `"${key}":`;
  const at = source.indexOf(`\n\t${marker}`);
  if (at < 0) throw new Error(`no entry "${key}" in the Go source`);
  return readStringExpression(source, at + 2 + marker.length);
}
