import type { Command } from '../../framework/command.ts';
import { flag } from '../../framework/flags.ts';

/** `hcp console`: the web console, served locally with the user's kubeconfig and rights. */
export const consoleCommand: Command = {
  name: 'console',
  summary: 'Serves the web console for hosted clusters on this machine',
  description:
    'Serves the web console (hosted clusters, the create wizard, node pools, kubeconfigs) on a loopback address and prints its URL, which carries the ' +
    "session's token. Every request goes to the management cluster as the user of --kubeconfig, with that user's rights and no others. " +
    'With --authentication-mode=token it holds no credentials: users sign in with their own bearer token (oc whoami -t, kubectl create token), ' +
    'the API server of --kubeconfig (its cluster, not its user) or, in a pod, of the cluster checks it, and each session acts as its user only; ' +
    'this is how hcp install --console runs it. Stops on Ctrl-C.',
  flags: [
    flag('kubeconfig', 'string', '', 'Path to a kubeconfig file for the management cluster. If not specified, the default kubeconfig resolution is used.'),
    flag('address', 'string', '127.0.0.1', 'The address to listen on: with kubeconfig authentication a loopback one (127.0.0.1, ::1 or localhost); with token, any'),
    flag('port', 'int32', 7480, 'The port to listen on (0: any free port)'),
    flag('authentication-mode', 'string', 'kubeconfig', 'kubeconfig: act as the user of --kubeconfig, sessions opened by the printed URL; token: users sign in with their own bearer token'),
    flag('allowed-host', 'stringSlice', [], 'With token authentication: Host names (name or name:port) the console is reached at besides loopback, e.g. an Ingress host'),
    flag('certificate-authority', 'string', '/var/run/secrets/kubernetes.io/serviceaccount/ca.crt', "With token authentication in a pod: the CA bundle the cluster's API server is verified with"),
  ],
  run: async (args, ctx) => (await import('./console-run.ts')).run(args, ctx),
};
