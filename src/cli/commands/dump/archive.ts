import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { create } from 'tar';
import { ARCHIVE_NAME, archiveEntries } from './layout.ts';

/**
 * Archives the artifact directory into `hypershift-dump.tar.gz` inside it, holding its top-level entries (as upstream:
 * `tar -czf hypershift-dump.tar.gz <entries>` run in that directory). Written with node-tar, which the project already
 * ships for image layers, rather than the host's `tar`: the same archive on every platform, no binary to find, and
 * its failures arrive as errors rather than output to parse. Returns the archive's path.
 */
export async function archiveDump(artifactDir: string): Promise<string> {
  const file = join(artifactDir, ARCHIVE_NAME);
  const entries = archiveEntries(readdirSync(artifactDir));
  await create({ gzip: true, file, cwd: artifactDir, portable: true }, entries);
  return file;
}
