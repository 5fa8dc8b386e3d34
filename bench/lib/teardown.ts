// The end of every bench that runs its own local environment: `local down --force` on its state folder, then the
// folder removed, whatever the bench did before.
import { rmSync } from 'node:fs';
import { runHcpBinary } from '../../src/testing/artifacts.ts';

/** Takes the bench's environment down and removes its state folder (`timeoutMs` for the `down`, 5 minutes by default). */
export async function tearDownEnvironment(stateDir: string, timeoutMs = 5 * 60_000): Promise<void> {
  await runHcpBinary(['local', 'down', `--state-dir=${stateDir}`, '--force'], { timeoutMs });
  rmSync(stateDir, { recursive: true, force: true });
}
