import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** A layer as an image build writes it: the files (path → content) in a tar made by the system's tar, gzip'd or not. */
export function tarLayer(files: Readonly<Record<string, string>>, options: { gzip?: boolean; prefix?: string } = {}): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'layer-'));
  try {
    for (const [path, content] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, 'root', path)), { recursive: true });
      writeFileSync(join(dir, 'root', path), content);
    }
    const out = join(dir, 'layer.tar');
    execFileSync('tar', [options.gzip === false ? '-cf' : '-czf', out, '-C', join(dir, 'root'), options.prefix ?? '.']);
    return readFileSync(out);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
