/**
 * The KubeVirt stand-in as the local environment runs it: a daemon (`hcp local kubevirt-standin`, started by `hcp
 * local up`) over the management cluster's VirtualMachines, running their machines with the `process` backend.
 */
import { KubeClient } from '../../kube/client.ts';
import { realClock } from '../../operator/runtime/clock.ts';
import { jsonLogger } from '../../operator/runtime/logger.ts';
import { joinBinaries } from '../environment/join-machine.ts';
import { statePaths, type EnvironmentLayout } from '../environment/layout.ts';
import { startKubeVirtStandIn } from './controller.ts';
import { processMachineBackend } from './process-backend.ts';

/** The daemon's name (its log is `logs/kubevirt-standin.log` in the state folder). */
export const STAND_IN_DAEMON = 'kubevirt-standin';

/** Runs the stand-in until SIGTERM or SIGINT; its machines keep running (`hcp local down` removes them). */
export async function runKubeVirtStandIn(layout: EnvironmentLayout): Promise<void> {
  const client = KubeClient.fromKubeconfigFile(statePaths(layout).kubeconfig);
  const logger = jsonLogger({ write: (line) => process.stdout.write(line), now: () => Date.now(), level: 'info' });
  const backend = processMachineBackend(layout, joinBinaries(), () => new Date());
  const stop = startKubeVirtStandIn({ client, backend, clock: realClock, logger });
  logger.info('KubeVirt stand-in started', { backend: 'process', stateDir: layout.stateDir });
  await new Promise<void>((resolve) => {
    process.once('SIGTERM', resolve);
    process.once('SIGINT', resolve);
  });
  stop();
  client.close();
}
