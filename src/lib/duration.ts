const UNIT_MS: Readonly<Record<string, number>> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** Parses a Go `time.Duration` string (`90s`, `1h30m`, `0`) into milliseconds; undefined when malformed. */
export function parseDuration(text: string): number | undefined {
  if (text === '0') return 0;
  const parts = [...text.matchAll(/(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== text) return undefined;
  return parts.reduce((sum, p) => sum + Number(p[1]) * (UNIT_MS[p[2] ?? ''] ?? 0), 0);
}

/** Formats milliseconds the way Go prints a `time.Duration` (`0s`, `10m0s`, `1h30m0s`, `1.5s`). */
export function formatDuration(ms: number): string {
  if (ms === 0) return '0s';
  const hours = Math.floor(ms / 3_600_000);
  const minutes = Math.floor((ms % 3_600_000) / 60_000);
  const seconds = (ms % 60_000) / 1000;
  const s = `${Number(seconds.toFixed(9))}s`;
  if (hours > 0) return `${hours}h${minutes}m${s}`;
  if (minutes > 0) return `${minutes}m${s}`;
  return s;
}
