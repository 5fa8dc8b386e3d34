import type { Command } from '../../framework/command.ts';
import { flag } from '../../framework/flags.ts';

/** `hcp release build`. */
const build: Command = {
  name: 'build',
  summary: 'Builds a release and publishes it, with the operator and the node\'s KubeVirt container disk, to a registry',
  description:
    'Builds what is missing (Kubernetes, etcd, konnectivity, CoreDNS, flannel and the CNI plugins from Go modules, and the Debian node image; cached in ~/.cache/hcp-kubevirt), assembles every image the release names, the operator (with its ignition endpoint) and the node image as a KubeVirt container disk (/disk/node.qcow2), and pushes them to --registry with the credentials of a Docker config file, trusting --registry-ca-file. The release payload goes last and names every image by digest, and its boot image is the container disk, so NodePools boot it without --containerdisk. The same inputs give the same digests; what the registry already holds is not uploaded again. Prints the release, operator and disk references to use with hcp install and hcp create cluster kubevirt.',
  flags: [
    flag('registry', 'string', '', 'Where to publish: HOST[:PORT]/PREFIX, e.g. registry.example.com/hcp (HTTPS only); every image goes to a repository below PREFIX'),
    flag('registry-config', 'string', '', 'A Docker config file (auths) with the registry\'s credentials (default: $REGISTRY_AUTH_FILE, else $DOCKER_CONFIG/config.json, else ~/.docker/config.json when present; none: anonymous)'),
    flag('registry-ca-file', 'string', '', 'PEM file of the CA that signed the registry\'s certificate, trusted besides the system\'s'),
    flag('kube-binaries', 'string', '', 'Folder holding kube-apiserver, kube-controller-manager, kube-scheduler, kube-proxy, kubelet and etcd to use instead of building them (as HCP_KUBE_BINARIES)'),
    flag('output', 'string', 'text', 'Output format: text (live progress on a terminal) or json (quiet, one JSON document on stdout)'),
  ],
  run: async (args, ctx) => (await import('./build-run.ts')).runReleaseBuild(args, ctx),
};

/** `hcp release`. */
export const release: Command = {
  name: 'release',
  summary: 'Commands for building and publishing releases',
  subcommands: [build],
};
