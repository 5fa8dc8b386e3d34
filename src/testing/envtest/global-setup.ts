// Node test runner global setup of the integration tier (`--test-global-setup`): starts the clusters once per run
// and tells the test processes where they are. Processes are supervised, so they die with the runner.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { publishState, startEnvironment, type Environment } from './environment.ts';

let environment: Environment | undefined;
let stateDir: string | undefined;

/** Starts the shared clusters. */
export async function globalSetup(): Promise<void> {
  environment = await startEnvironment();
  stateDir = mkdtempSync(join(tmpdir(), 'hcp-envtest-state-'));
  publishState(environment.state, join(stateDir, 'state.json'));
}

/** Stops them. */
export async function globalTeardown(): Promise<void> {
  await environment?.stop();
  if (stateDir !== undefined) rmSync(stateDir, { recursive: true, force: true });
}
