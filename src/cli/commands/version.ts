import type { Command } from '../framework/command.ts';
import { flag } from '../framework/flags.ts';

/** `hcp version`: the client version and what the operator on the management cluster supports. */
export const version: Command = {
  name: 'version',
  summary: 'Prints the hcp CLI version and the versions the management cluster supports',
  flags: [
    flag('kubeconfig', 'string', '', 'Path to a kubeconfig file for the management cluster. If not specified, the default kubeconfig resolution is used.'),
    flag('client-only', 'bool', false, 'Print only the client version, without contacting the management cluster'),
  ],
  run: async (args, ctx) => (await import('./version-run.ts')).run(args, ctx),
};
