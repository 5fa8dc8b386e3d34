import type { Command } from '../../framework/command.ts';
import { flag, type FlagSpec } from '../../framework/flags.ts';

const STATE_DIR = flag('state-dir', 'string', '', 'Folder of the environment\'s state (default: $XDG_STATE_HOME/hcp-kubevirt/local, or ~/.local/state/hcp-kubevirt/local)');
const OUTPUT = flag('output', 'string', 'text', 'Output format: text (live progress on a terminal) or json (quiet, one JSON document on stdout)');

const UP_FLAGS: readonly FlagSpec[] = [
  STATE_DIR,
  OUTPUT,
  flag('nodes', 'int32', 3, 'Number of nodes (1-8); three let HighlyAvailable control planes spread as their anti-affinity requires. Kept until down'),
  flag('hosted-cluster', 'string', '', 'Also create a hosted cluster of this name (release of the environment, services on NodePorts), wait until it is available and write its kubeconfig to the state folder'),
  flag('node-pool-replicas', 'int32', 2, 'With --hosted-cluster: worker machines of its NodePool (0-10), run by the environment\'s KubeVirt stand-in (see --machine-backend); waits until their Nodes are Ready'),
  flag('infra-cluster', 'bool', false, 'Also start an infrastructure cluster (its own control plane and node, KubeVirt and CDI CRDs, a namespace and a service account holding exactly the documented external-infrastructure Role); --hosted-cluster then puts its VMs there through that account. Kept until down'),
  flag('machine-backend', 'string', '', 'What NodePool VMs run as: process (the environment\'s kubelet and containerd in the VM\'s virt-launcher pod; fast, light) or vm (a QEMU virtual machine booting the local node image in that pod, built on first use; about a minute to a Ready Node under TCG). Kept until changed; running machines keep theirs (default: process)'),
  flag('install-prerequisites', 'bool', false, 'Install the missing Debian packages the environment needs (apt-get, as root) instead of only naming them'),
  flag('release-image', 'string', '', 'Run this published release (hcp release build) instead of publishing the environment\'s own: the operator is its hcp-operator image, hosted clusters run it and their workers boot its container disk (needs --machine-backend vm). Kept until down'),
  flag('registry-config', 'string', '', 'A Docker config file (auths) with the credentials of your registry: the nodes, the KubeVirt stand-in, the operator and hosted clusters pull with them. Kept until down'),
  flag('registry-ca-file', 'string', '', 'PEM file of the CA that signed your registry\'s certificate (the registry of --release-image and of --registry-config): the nodes, the operator and the workers trust it. Kept until down'),
];

/** `hcp local up`. */
const up: Command = {
  name: 'up',
  summary: 'Starts the local environment: a management cluster with a real node, its images and the operator',
  description:
    'Builds what is missing (Kubernetes, etcd, containerd, konnectivity, CoreDNS and crane from Go modules, cached in ~/.cache/hcp-kubevirt), starts etcd, kube-apiserver, kube-controller-manager, kube-scheduler and an image registry on a bridge of this host, a node (containerd, kubelet, kube-proxy) in a network namespace, publishes the images hosted control planes run under their real names, starts cluster DNS, installs the operator as a Deployment and starts the KubeVirt stand-in that runs NodePool VMs as process machines (or QEMU virtual machines, --machine-backend vm). Running it again changes nothing.',
  flags: UP_FLAGS,
  run: async (args, ctx) => (await import('./local-run.ts')).runUp(args, ctx),
};

/** `hcp local down`. */
const down: Command = {
  name: 'down',
  summary: 'Stops the local environment and removes everything it made',
  description: 'Ends every process of the environment, detaches its mounts, deletes its network namespace and bridge, its cgroups and its state folder. Refuses while hosted clusters exist unless --force is given.',
  flags: [STATE_DIR, OUTPUT, flag('force', 'bool', false, 'Tear down even while hosted clusters exist (their control planes go with the environment)')],
  run: async (args, ctx) => (await import('./local-run.ts')).runDown(args, ctx),
};

/** `hcp local status`. */
const status: Command = {
  name: 'status',
  summary: 'Shows whether the local environment runs, where its kubeconfig is and which hosted clusters it holds',
  flags: [STATE_DIR, OUTPUT],
  run: async (args, ctx) => (await import('./local-run.ts')).runStatus(args, ctx),
};

/** `hcp local demo`. */
const demo: Command = {
  name: 'demo',
  summary: 'Runs the whole product once: environment, hosted cluster on the infrastructure cluster, workload, scale, destroy',
  description:
    'Brings the local environment up with its infrastructure cluster (as up --infra-cluster does), creates a hosted cluster whose two worker VMs go to the infrastructure cluster through its limited user, waits until it is available and its Nodes are Ready, lists them with kubectl, deploys a workload over both workers and checks it answers through its Service and, over HTTPS from this machine, at its default-ingress name (https://web.apps.<name>.apps.hcp-infra.localhost), scales the NodePool to 3 with kubectl scale, destroys the cluster and checks nothing of it is left on either cluster. Prints live progress and a summary with each step\'s time; stops with exit 1 at the first failing step, saying where to look. The environment keeps running.',
  flags: [
    STATE_DIR,
    OUTPUT,
    flag('name', 'string', 'demo', 'Name of the hosted cluster the demo creates and destroys (must not exist)'),
    flag('install-prerequisites', 'bool', false, 'Install the missing Debian packages the environment needs (apt-get, as root) instead of only naming them'),
  ],
  run: async (args, ctx) => (await import('./demo-run.ts')).runDemo(args, ctx),
};

/** `hcp local conformance`. */
const conformance: Command = {
  name: 'conformance',
  summary: 'Runs the upstream Kubernetes conformance suite against a hosted cluster of the local environment',
  description:
    'Builds e2e.test and ginkgo from the Kubernetes module of the hosted clusters\' version and the test images the [Conformance] specs use (first run only, cached), publishes the images to the environment\'s registry under their real names, and runs the specs against the hosted cluster (--name, or the environment\'s only one) in parallel, [Serial] ones included, with live progress. Writes junit_01.xml, Ginkgo\'s JSON report, e2e.log and summary.json (passed, failed, skipped, per SIG, duration, the cluster\'s version and machine backend) into the report folder, and exits 1 when a spec failed. Ctrl-C lets the running specs clean up, then deletes the run\'s test namespaces still there.',
  flags: [
    STATE_DIR,
    OUTPUT,
    flag('name', 'string', '', 'Name of the hosted cluster to test (default: the environment\'s only hosted cluster)'),
    flag('namespace', 'string', 'clusters', 'Namespace of the HostedCluster'),
    flag('focus', 'string', '\\[Conformance\\]', 'Run only the specs whose names match this regular expression (ginkgo --focus)'),
    flag('skip', 'string', '', 'Leave out the specs whose names match this regular expression (ginkgo --skip)'),
    flag('parallel', 'int32', 4, 'Specs run at once (1-16); [Serial] specs run alone at the end whatever this is'),
    flag('report-dir', 'string', '', 'Folder for the reports (default: conformance/<cluster>-<time> in the state folder)'),
  ],
  run: async (args, ctx) => (await import('./conformance-run.ts')).runConformanceCommand(args, ctx),
};

/** `hcp local kubevirt-standin`: the daemon `up` starts; not for direct use. */
const kubevirtStandIn: Command = {
  name: 'kubevirt-standin',
  summary: 'Runs the local environment\'s KubeVirt stand-in (started by hcp local up; not for direct use)',
  description: 'Watches the management cluster\'s VirtualMachines and runs each as a process machine of the environment (the kubelet and containerd built here, in a network namespace of its own, configured by the Ignition config its user data leads to), reporting VirtualMachineInstances as KubeVirt would. What it cannot honour is refused in the instance\'s status. Real clusters run KubeVirt instead.',
  flags: [STATE_DIR],
  run: async (args, ctx) => (await import('./local-run.ts')).runStandIn(args, ctx),
};

/** `hcp local router`: the daemon `up` starts; not for direct use. */
const router: Command = {
  name: 'router',
  summary: 'Runs the local environment\'s router (started by hcp local up; not for direct use)',
  description: 'Serves the Routes of the environment\'s clusters as OpenShift\'s router would (hosts assigned under each cluster\'s apps domain, apps.<cluster>.localhost; TLS passthrough and plain HTTP) with Traefik on the host\'s loopback, ports 80 and 443. Edge and reencrypt Routes are refused in their status.',
  flags: [STATE_DIR],
  run: async (args, ctx) => (await import('./local-run.ts')).runRouterDaemon(args, ctx),
};

/** `hcp local`: the one-machine environment in which hosted clusters run for real. */
export const local: Command = {
  name: 'local',
  summary: 'Runs a local management cluster with a real node, for trying hosted clusters on one machine',
  subcommands: [up, demo, conformance, down, status, kubevirtStandIn, router],
};
