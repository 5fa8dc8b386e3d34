import { join } from 'node:path';

/** The repository root. */
export const REPO_ROOT = join(import.meta.dirname, '..', '..');

/** The shared project documents that sit beside the repository (conformance fixtures, references). */
export const SHARED_DIR = process.env['HCP_SHARED_DIR'] ?? join(REPO_ROOT, '..', 'shared');

/** Upstream `hcp` render fixtures the project must reproduce. */
export const CONFORMANCE_DIR = join(SHARED_DIR, 'conformance', 'hypershift-cli');
