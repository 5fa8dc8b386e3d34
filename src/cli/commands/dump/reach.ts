import type { KubeClient } from '../../../kube/client.ts';
import { KubeApiError } from '../../../kube/errors.ts';

/**
 * How long a hosted or infrastructure API server has to answer before it counts as unreachable: an address that
 * drops packets would otherwise hold the dump for minutes on every request.
 */
const PROBE_TIMEOUT_MS = 10_000;

/**
 * Resolves when the API server answers at all; throws the network error (refused, timed out, TLS) when it does not.
 * Any HTTP answer will do, an error status included: a server that is not live yet still lists what it can.
 */
export async function checkAnswers(client: KubeClient): Promise<void> {
  try {
    await client.rest.getText('/livez', { timeoutMs: PROBE_TIMEOUT_MS });
  } catch (error) {
    if (!(error instanceof KubeApiError)) throw error;
  }
}
