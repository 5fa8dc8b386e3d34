// Where a recorded figure came from, written beside it so a reader can tell which code measured it.
import { spawnSync } from 'node:child_process';

/** The checkout the bench ran from: `git describe --always --dirty` (a commit, `-dirty` when it had changes). */
export const measuredCommit = (): string => spawnSync('git', ['describe', '--always', '--dirty'], { encoding: 'utf8' }).stdout.trim();
