import type { Command } from '../../framework/command.ts';
import { flag } from '../../framework/flags.ts';

/** `hcp console`: the web console, served locally with the user's kubeconfig and rights. */
export const consoleCommand: Command = {
  name: 'console',
  summary: 'Serves the web console for hosted clusters on this machine',
  description:
    'Serves the web console (hosted clusters, the create wizard, node pools, kubeconfigs) on a loopback address and prints its URL, which carries the ' +
    "session's token. Every request goes to the management cluster as the user of --kubeconfig, with that user's rights and no others. " +
    'Stops on Ctrl-C.',
  flags: [
    flag('kubeconfig', 'string', '', 'Path to a kubeconfig file for the management cluster. If not specified, the default kubeconfig resolution is used.'),
    flag('address', 'string', '127.0.0.1', 'The loopback address to listen on: 127.0.0.1, ::1 or localhost'),
    flag('port', 'int32', 7480, 'The port to listen on (0: any free port)'),
  ],
  run: async (args, ctx) => (await import('./console-run.ts')).run(args, ctx),
};
