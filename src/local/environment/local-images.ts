/**
 * What the local environment's images are made of: every image a hosted control plane of the environment's release
 * runs (resolved through the release provider, so the names are the ones rendered pods carry), the node's own
 * (pause, CoreDNS), and the operator on a Node.js runtime.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, realpathSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { catalogReleaseProvider, kubernetesReleaseImage } from '../../release/catalog.ts';
import type { NetworkPluginImages, ReleaseInfo } from '../../release/info.ts';
import { KUBE_VERSION, PREVIOUS_KUBE_VERSION } from '../binaries/versions.ts';
import type { ImageSpec } from './images.ts';
import { PAUSE_IMAGE } from './node-config.ts';
import { LOCAL_PATH_PROVISIONER_IMAGE } from './storage.ts';
import { LOCAL_NODE_IMAGE_REPOSITORY } from '../kubevirt/instance.ts';
import { METALLB_IMAGES } from './metallb.ts';
import { etcdImage } from './etcd-image.ts';

/** The release the local environment's hosted clusters run: the Kubernetes version it builds. */
export const LOCAL_RELEASE_IMAGE = kubernetesReleaseImage(KUBE_VERSION.replace(/^v/, ''));

/** The release of the minor before it, published beside it so that clusters can be created on it and upgraded. */
export const PREVIOUS_RELEASE_IMAGE = kubernetesReleaseImage(PREVIOUS_KUBE_VERSION.replace(/^v/, ''));

/**
 * The boot image of the environment's worker machines: what the KubeVirt stand-in runs (the environment's own kubelet
 * and runtime, the node image contract of `docs/node-image.md`).
 */
export const LOCAL_NODE_IMAGE = `${LOCAL_NODE_IMAGE_REPOSITORY}:${KUBE_VERSION}`;

/** The boot image of machines of the previous release: process machines run that minor's kubelet. */
export const PREVIOUS_NODE_IMAGE = `${LOCAL_NODE_IMAGE_REPOSITORY}:${PREVIOUS_KUBE_VERSION}`;

/** Cluster DNS of the management cluster. */
export const COREDNS_IMAGE = 'registry.k8s.io/coredns/coredns:v1.14.2';

/** The binaries the images are assembled from, by name. */
export type ImageBinaries = Readonly<
  Record<
    | 'etcd'
    | 'etcdctl'
    | 'etcdutl'
    | 'busybox'
    | 'kube-apiserver'
    | 'kube-controller-manager'
    | 'kube-scheduler'
    | 'kube-proxy'
    | 'kubelet'
    | 'proxy-server'
    | 'proxy-agent'
    | 'coredns'
    | 'pause'
    | 'local-path-provisioner'
    | 'local-path-helper'
    | 'flanneld'
    | 'cni-install'
    | 'metallb-controller'
    | 'metallb-speaker'
    | 'traefik',
    string
  >
> & {
  /** The CNI plugins the hosted clusters' nodes get, by name (`flannel`, `bridge`, `host-local`, `portmap`, `loopback`). */
  readonly cniPlugins: Readonly<Record<string, string>>;
};

/**
 * The local-path helper's image, tagged with its build's source hash (the folder it was built into), so a changed
 * helper is a new image.
 */
export const localPathHelperImage = (bin: Pick<ImageBinaries, 'local-path-helper'>): string =>
  `quay.io/hcp-kubevirt/local-path-helper:${basename(dirname(bin['local-path-helper'])).replace(/^local-path-helper-/, '')}`;

/** The operator's files: the Node.js binary that runs it and the project folder holding `bin/` and `dist/`. */
export interface OperatorSources {
  readonly image: string;
  readonly node: string;
  readonly projectDir: string;
}

const inPath = (binary: string, source: string): ImageSpec['files'][number] => ({ source, target: `/usr/local/bin/${binary}` });

/** The environment's release as the catalog describes it (by default the Kubernetes version it builds). */
export function localRelease(image: string = LOCAL_RELEASE_IMAGE): ReleaseInfo {
  const release = catalogReleaseProvider.lookup(image);
  if (release === undefined) throw new Error(`the release catalog does not know the local release ${image}`);
  return release;
}

/** The Kubernetes binaries a release's component images are made from, by name. */
type KubeBinaries = Readonly<Record<'kube-apiserver' | 'kube-controller-manager' | 'kube-scheduler' | 'kube-proxy' | 'kubelet', string>>;

/**
 * A release's Kubernetes components (the API server, controllers, scheduler and kube-proxy) from one minor's binaries,
 * and its kubelet image when it names one. None has an entrypoint: the pods' commands name the binaries.
 */
function kubernetesComponentImages(images: ReleaseInfo['images'], kube: KubeBinaries): ImageSpec[] {
  return [
    { name: images.kubeAPIServer, files: [inPath('kube-apiserver', kube['kube-apiserver'])] },
    { name: images.kubeControllerManager, files: [inPath('kube-controller-manager', kube['kube-controller-manager'])] },
    { name: images.kubeScheduler, files: [inPath('kube-scheduler', kube['kube-scheduler'])] },
    kubeProxyImage(images.kubeProxy, kube['kube-proxy']),
    ...(images.kubelet === undefined ? [] : [kubeletImage(images.kubelet, kube.kubelet)]),
  ];
}

/**
 * The kubelet image: a carrier of one file, never run as a container. A node agent pulls it and installs the file as
 * the machine's kubelet (InPlace upgrades), so it has no entrypoint and keeps the file where a node keeps it.
 */
export const kubeletImage = (name: string, kubelet: string): ImageSpec => ({ name, files: [{ source: kubelet, target: '/usr/bin/kubelet' }] });

/**
 * The images the previous release adds to the current one's: its Kubernetes components and kubelet, from that minor's
 * binaries (every other image it names is the current release's).
 */
export const previousReleaseImages = (kube: KubeBinaries): ImageSpec[] => kubernetesComponentImages(localRelease(PREVIOUS_RELEASE_IMAGE).images, kube);

/** The images of the environment's release, under the names the release provider gives them. */
export function releaseImages(bin: ImageBinaries): ImageSpec[] {
  const { images } = localRelease();
  return [
    etcdImage(images.etcd, bin),
    ...kubernetesComponentImages(images, bin),
    // Upstream's konnectivity images keep the binary at the root and run it as the entrypoint.
    { name: images.konnectivityServer, files: [{ source: bin['proxy-server'], target: '/proxy-server' }], entrypoint: ['/proxy-server'] },
    { name: images.konnectivityAgent, files: [{ source: bin['proxy-agent'], target: '/proxy-agent' }], entrypoint: ['/proxy-agent'] },
    ...networkPluginImages(images.networkPlugin, bin),
    // Where Traefik's official image keeps its binary; the Deployment runs it by that path.
    ...(images.ingressController === undefined ? [] : [{ name: images.ingressController, files: [inPath('traefik', bin.traefik)], user: '65532:65532' }]),
  ];
}

/**
 * The hosted clusters' network plugin: flanneld where upstream's image keeps it (`/opt/bin/flanneld`) with the iptables
 * it runs for masquerading; and the CNI plugins in `/opt/cni/bin` with their installer, the DaemonSet's init container.
 */
function networkPluginImages(names: NetworkPluginImages | undefined, bin: ImageBinaries): ImageSpec[] {
  if (names === undefined) return [];
  const flannel = withIptables({ name: names.flannel, files: [{ source: bin.flanneld, target: '/opt/bin/flanneld' }], entrypoint: ['/opt/bin/flanneld'] });
  const plugins = Object.entries(bin.cniPlugins).map(([name, source]) => ({ source, target: `/opt/cni/bin/${name}` }));
  return [flannel, { name: names.cniPlugins, files: [{ source: bin['cni-install'], target: '/cni-install' }, ...plugins], entrypoint: ['/cni-install'] }];
}

/** The host's iptables (Debian's nf_tables variant, a prerequisite of the environment) and its extension modules. */
const XTABLES_MULTI = '/usr/sbin/xtables-nft-multi';
const XTABLES_EXTENSIONS = '/usr/lib/x86_64-linux-gnu/xtables';
const IPTABLES_COMMANDS = ['iptables', 'iptables-save', 'iptables-restore', 'ip6tables', 'ip6tables-save', 'ip6tables-restore'];

/** An image with the host's iptables added: the multi-call binary under each command name, its extension modules and the C libraries they load. */
function withIptables(spec: ImageSpec): ImageSpec {
  const multi = realpathSync(XTABLES_MULTI);
  const extensions = readdirSync(XTABLES_EXTENSIONS).filter((f) => f.endsWith('.so')).map((f) => join(XTABLES_EXTENSIONS, f));
  const libraries = [...new Set([multi, ...extensions].flatMap(sharedLibraries))];
  return {
    ...spec,
    files: [
      ...spec.files,
      { source: multi, target: XTABLES_MULTI },
      ...extensions.map((path) => ({ source: realpathSync(path), target: path })),
      ...libraries.map((lib) => ({ source: realpathSync(lib), target: lib })),
    ],
    links: { ...spec.links, ...Object.fromEntries(IPTABLES_COMMANDS.map((command) => [`/usr/sbin/${command}`, XTABLES_MULTI])) },
  };
}

/**
 * kube-proxy for the hosted clusters' nodes (their `kube-proxy` DaemonSet): the binary built here with the host's
 * iptables, as upstream's image carries its own iptables.
 */
export const kubeProxyImage = (name: string, kubeProxy: string): ImageSpec => withIptables({ name, files: [inPath('kube-proxy', kubeProxy)] });

/** The node's images: the sandbox, cluster DNS and the volume provisioner with its helper. */
export function nodeImages(bin: ImageBinaries): ImageSpec[] {
  return [
    { name: LOCAL_PATH_PROVISIONER_IMAGE, files: [inPath('local-path-provisioner', bin['local-path-provisioner'])] },
    { name: localPathHelperImage(bin), files: [{ source: bin['local-path-helper'], target: '/local-path-helper' }], entrypoint: ['/local-path-helper'] },
    { name: PAUSE_IMAGE, files: [{ source: bin.pause, target: '/pause' }], entrypoint: ['/pause'], user: '65535:65535' },
    { name: COREDNS_IMAGE, files: [{ source: bin.coredns, target: '/coredns' }], entrypoint: ['/coredns'], user: '65532:65532' },
    // The infrastructure cluster's load balancer (metallb.ts): upstream's images keep each binary at the root.
    { name: METALLB_IMAGES.controller, files: [{ source: bin['metallb-controller'], target: '/controller' }], entrypoint: ['/controller'], user: '65534:65534' },
    { name: METALLB_IMAGES.speaker, files: [{ source: bin['metallb-speaker'], target: '/speaker' }], entrypoint: ['/speaker'] },
  ];
}

/** The shared libraries a dynamically linked binary loads, by the path it loads them from (`ldd`). */
function sharedLibraries(binary: string): string[] {
  const out = execFileSync('ldd', [binary], { encoding: 'utf8' });
  return [...out.matchAll(/(?:=>\s*)?(\/\S+)\s+\(0x/g)].map((m) => m[1] as string);
}

/** Files of a built folder of the project (dist/cli's ES modules, dist/console's page), by their project paths. */
const builtFiles = (projectDir: string, dir: string, keep: (name: string) => boolean): string[] =>
  readdirSync(join(projectDir, dir))
    .filter(keep)
    .sort()
    .map((name) => join(dir, name));

/**
 * The operator: the Node.js runtime the project runs on (from the npm registry's `node` package) with the C
 * libraries it links from this host, `env` for the launcher's shebang, and the built bundles: the operator's, and
 * the CLI's ES modules with the console's page for `hcp-operator console` (hcp install --console; not the CLI's
 * single executable, a second Node). No shell, no package manager; a non-root user.
 */
export function operatorImage(sources: OperatorSources): ImageSpec {
  const node = realpathSync(sources.node);
  const env = realpathSync('/usr/bin/env');
  const libraries = [...new Set([...sharedLibraries(node), ...sharedLibraries(env)])];
  const project = '/opt/hcp-kubevirt';
  const projectFile = (path: string): ImageSpec['files'][number] => ({ source: join(sources.projectDir, path), target: join(project, path) });
  return {
    name: sources.image,
    files: [
      inPath('node', node),
      { source: env, target: '/usr/bin/env' },
      ...libraries.map((lib) => ({ source: realpathSync(lib), target: lib })),
      projectFile('bin/hcp-operator'),
      projectFile('bin/launch.js'),
      projectFile('bin/package.json'),
      projectFile('dist/operator/hcp-operator.mjs'),
      projectFile('dist/operator/hcp-operator-lean.mjs'),
      ...builtFiles(sources.projectDir, 'dist/cli', (name) => name.endsWith('.mjs')).map(projectFile),
      ...builtFiles(sources.projectDir, 'dist/console', () => true).map(projectFile),
    ],
    links: { '/usr/local/bin/hcp-operator': `${project}/bin/hcp-operator` },
    env: { HOME: '/tmp' },
    user: '65532:65532',
  };
}
