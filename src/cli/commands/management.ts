import type { KubeClient } from '../../kube/client.ts';
import { KubeApiError } from '../../kube/errors.ts';
import { KubeconfigError, managementClient } from '../../kube/kubeconfig.ts';
import type { CommandContext } from '../framework/command.ts';
import { UserError } from '../framework/errors.ts';

/**
 * Opens the management cluster (from --kubeconfig or the default resolution), runs `use` with it and closes it.
 * An API error becomes one user-facing line that starts with `what` (e.g. "failed to destroy the cluster").
 */
export async function withManagementCluster<T>(kubeconfig: string, ctx: CommandContext, what: string, use: (client: KubeClient) => Promise<T>): Promise<T> {
  let client: KubeClient;
  try {
    client = managementClient(kubeconfig, ctx.env);
  } catch (error) {
    if (error instanceof KubeconfigError) throw new UserError(error.message, 'input', { cause: error });
    throw error;
  }
  try {
    return await use(client);
  } catch (error) {
    if (error instanceof KubeApiError) throw new UserError(`${what}: ${error.message}`, 'input', { cause: error });
    throw error;
  } finally {
    client.close();
  }
}
