// Process I/O for the hcp entry point, written against file descriptors rather than process.stdout and node:crypto:
// both of those load several internal modules on first use (measured ~6 ms of a ~50 ms render), and start-up time is
// the figure users feel on every command.
import { closeSync, openSync, readSync, writeSync } from 'node:fs';

const code = (error: unknown): string | undefined => (error as NodeJS.ErrnoException | undefined)?.code;

/**
 * Writes all of `text` to a file descriptor. Retries while a non-blocking pipe is full (EAGAIN); stops quietly when
 * the reader has gone away (EPIPE, as in `hcp ... | head`), as command-line tools do.
 */
export function writeAll(fd: number, text: string): void {
  const bytes = Buffer.from(text, 'utf8');
  let offset = 0;
  while (offset < bytes.length) {
    try {
      offset += writeSync(fd, bytes, offset);
    } catch (error) {
      if (code(error) === 'EPIPE') return;
      if (code(error) !== 'EAGAIN') throw error;
    }
  }
}

/** `n` bytes from the kernel's CSPRNG (/dev/urandom), or Web Crypto where that device does not exist. */
export function secureRandomBytes(n: number): Uint8Array {
  const out = new Uint8Array(n);
  let fd: number | undefined;
  try {
    fd = openSync('/dev/urandom', 'r');
  } catch {
    return globalThis.crypto.getRandomValues(out);
  }
  try {
    for (let filled = 0; filled < n; ) filled += readSync(fd, out, filled, n - filled, null);
  } finally {
    closeSync(fd);
  }
  return out;
}
