/**
 * The test images the `[Conformance]` specs of Kubernetes v1.36.3 run, assembled here under their real names
 * (`registry.k8s.io/e2e-test-images/…`, which the environment's nodes pull from its registry): the suite's own programs
 * built from the Kubernetes module (agnhost, nnp), the sample API server from its module, upstream busybox built from
 * source (`busybox.ts`), and the rest of the userland the specs exec into — upstream builds these on Alpine or Debian;
 * here they are Debian bookworm packages unpacked (`debian.ts`). What each spec runs inside them, and so what each must hold, is in docs/conformance.md. The pause and
 * etcd images the suite also uses are the environment's own (the release's).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ImageFile, ImageSpec } from '../environment/images.ts';
import { localRelease } from '../environment/local-images.ts';
import { PAUSE_IMAGE } from '../environment/node-config.ts';
import type { ConformanceSuite } from './suite.ts';
import { debianRoot, type DebianSelection } from './debian.ts';

const E2E = 'registry.k8s.io/e2e-test-images';

/** The images the conformance specs use, as the suite names them (`e2e.test --list-images`). */
export const CONFORMANCE_IMAGES = {
  agnhost: `${E2E}/agnhost:2.63.0`,
  /** The suite's `AgnhostPrev`: specs move workloads from it to the current agnhost. */
  agnhostPrevious: `${E2E}/agnhost:2.55`,
  busybox: `${E2E}/busybox:1.37.0-1`,
  nginx: `${E2E}/nginx:1.15-4`,
  glibcDnsTesting: `${E2E}/glibc-dns-testing:2.0.0`,
  nautilus: `${E2E}/nautilus:1.8`,
  kitten: `${E2E}/kitten:1.8`,
  nonewprivs: `${E2E}/nonewprivs:1.4`,
  sampleAPIServer: `${E2E}/sample-apiserver:1.29.2`,
} as const;

/**
 * The images the specs run that are the environment's own, published under upstream's names: the release's etcd (the
 * Aggregator spec runs it bare beside the sample API server) and the nodes' pause image (every pod's sandbox).
 */
export const ENVIRONMENT_IMAGES_THE_SUITE_RUNS = {
  etcd: localRelease().images.etcd,
  pause: PAUSE_IMAGE,
} as const;

/** Every image a conformance spec runs that the local environment publishes under its upstream name. */
export type SuiteImage = keyof typeof CONFORMANCE_IMAGES | keyof typeof ENVIRONMENT_IMAGES_THE_SUITE_RUNS;

/** The name the suite pulls `image` by. */
export const suiteImageName = (image: SuiteImage): string => ({ ...CONFORMANCE_IMAGES, ...ENVIRONMENT_IMAGES_THE_SUITE_RUNS })[image];

/**
 * The userlands besides busybox (`busybox.ts`: upstream's, as every upstream test image built on it carries), as
 * Debian packages: agnhost's tools, nginx, the glibc DNS prober (whose upstream image is Debian's).
 */
const USERLANDS = {
  // The specs exec `nc -v -t -w 2` (OpenBSD's netcat), curl, dig/nslookup and glibc's getent; bash as upstream's has it.
  agnhost: { packages: ['curl', 'bind9-dnsutils', 'netcat-openbsd', 'libc-bin', 'bash'], filesOnly: ['ca-certificates'] },
  nginx: { packages: ['nginx'] },
  dns: { packages: ['dash', 'coreutils', 'libc-bin', 'bind9-dnsutils'] },
} as const satisfies Record<string, DebianSelection>;

/** Where the inputs come from: the suite's programs, the Kubernetes module's source, the sample API server's binary. */
export interface ConformanceImageSources {
  readonly suite: ConformanceSuite;
  readonly kubernetesSource: string;
  readonly sampleAPIServer: string;
  /** Upstream busybox, statically linked (`busybox.ts`). */
  readonly busybox: string;
}

const file = (target: string, contents: string, mode?: number): ImageFile => ({ target, contents, ...(mode === undefined ? {} : { mode }) });

/** Accounts every image has, and the ones upstream's images define (agnhost's for supplemental-group specs, nginx's worker). */
const ACCOUNTS = {
  passwd: 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/bin/false\n',
  group: 'root:x:0:\nnobody:x:65534:\n',
};
const accounts = (users = '', groups = ''): ImageFile[] => [file('/etc/passwd', ACCOUNTS.passwd + users), file('/etc/group', ACCOUNTS.group + groups)];
/** glibc resolves through files then DNS (without this file it would still, but getent's behaviour is then a guess). */
const NSSWITCH = file('/etc/nsswitch.conf', 'passwd: files\ngroup: files\nhosts: files dns\n');

const PROGRAM_FOLDERS = ['bin', 'sbin', 'usr/bin', 'usr/sbin'];

/**
 * Busybox at `/bin/busybox` and `/bin/<applet>` → busybox for every applet of it that no real program of `root` (the
 * image's other userland, if any) provides — the specs call `/bin/sysctl`, `/bin/true`… by path, and `/bin/sh` is
 * busybox's shell, as in upstream's images — but those in `without`.
 */
function withBusybox(busybox: string, root: string | undefined, without: readonly string[] = []): Pick<ImageSpec, 'files' | 'links'> {
  const applets = execFileSync(busybox, ['--list'], { encoding: 'utf8' }).split('\n').filter((a) => a !== '' && a !== 'busybox' && !without.includes(a));
  const provided = (name: string): boolean => root !== undefined && PROGRAM_FOLDERS.some((folder) => existsSync(join(root, folder, name)));
  return { files: [{ source: busybox, target: '/bin/busybox', mode: 0o755 }], links: Object.fromEntries(applets.filter((a) => !provided(a)).map((a) => [`/bin/${a}`, 'busybox'])) };
}

/** The system trust store, as `update-ca-certificates` would make it from the package's certificates. */
function caBundle(root: string): ImageFile {
  const dir = join(root, 'usr', 'share', 'ca-certificates', 'mozilla');
  const certificates = readdirSync(dir).filter((f) => f.endsWith('.crt')).sort().map((f) => readFileSync(join(dir, f), 'utf8'));
  return file('/etc/ssl/certs/ca-certificates.crt', certificates.join(''));
}

/** agnhost and its userland: the current or the previous tag, or a derived image (nautilus, kitten) with files and a command of its own. */
function agnhost(name: string, root: string, sources: ConformanceImageSources, extra: Partial<Pick<ImageSpec, 'files' | 'cmd'>> = {}): ImageSpec {
  const porter = join(sources.kubernetesSource, 'test', 'images', 'agnhost', 'porter');
  // `nc` is OpenBSD's (busybox's refuses -v), as on upstream's image.
  const busybox = withBusybox(sources.busybox, root, ['nc']);
  return {
    name,
    roots: [root],
    files: [
      ...(busybox.files ?? []),
      { source: sources.suite.agnhost, target: '/agnhost' },
      // The porter's TLS ports serve these; StatefulSet specs probe and move /localhost.crt.
      { source: join(porter, 'localhost.crt'), target: '/localhost.crt', mode: 0o644 },
      { source: join(porter, 'localhost.key'), target: '/localhost.key', mode: 0o644 },
      caBundle(root),
      NSSWITCH,
      ...accounts('user-defined-in-image:x:1000:1000::/home/user-defined-in-image:/bin/sh\n', 'user-defined-in-image:x:1000:\ngroup-defined-in-image:x:50000:user-defined-in-image\n'),
      ...(extra.files ?? []),
    ],
    // `/agnhost-2` is how the entrypoint specs name agnhost.
    links: { ...busybox.links, '/usr/bin/nc': '/bin/nc.openbsd', '/agnhost-2': 'agnhost' },
    folders: ['/uploads'],
    entrypoint: ['/agnhost'],
    cmd: extra.cmd ?? ['pause'],
    workdir: '/',
  };
}

/** The update-demo images: agnhost serving two files of the Kubernetes module's `test/images/<image>/html`. */
function demoImage(image: { name: string; html: 'nautilus' | 'kitten'; more?: readonly ImageFile[] }, root: string, sources: ConformanceImageSources): ImageSpec {
  const html = join(sources.kubernetesSource, 'test', 'images', image.html, 'html');
  const files = readdirSync(html).map((f): ImageFile => ({ source: join(html, f), target: `/${f}`, mode: 0o644 }));
  return agnhost(image.name, root, sources, { files: [...files, ...(image.more ?? [])], cmd: ['test-webserver'] });
}

/**
 * The ImageVolume spec reads kitten's `/etc/os-release` and expects upstream's Alpine base there. No Alpine file can be
 * fetched on this machine, so the image carries a fixture with the fields the spec reads, saying what it is.
 */
const KITTEN_OS_RELEASE = file(
  '/etc/os-release',
  '# A fixture of the conformance suite\'s kitten image, whose upstream build is Alpine-based; this copy is assembled\n# from Debian packages (hcp-kubevirt, src/local/conformance/images.ts).\nNAME="Alpine Linux"\nID=alpine\nPRETTY_NAME="Alpine Linux (conformance fixture)"\n',
);

/** nginx as upstream's test image runs it: the stock page on port 80, logs to the container's output, worker as nginx. */
function nginx(root: string, busyboxBinary: string): ImageSpec {
  const conf = [
    'user nginx;',
    'worker_processes 1;',
    'error_log /var/log/nginx/error.log warn;',
    'pid /var/run/nginx.pid;',
    'events { worker_connections 1024; }',
    'http {',
    '  include /etc/nginx/mime.types;',
    '  default_type application/octet-stream;',
    '  access_log /var/log/nginx/access.log;',
    '  sendfile on;',
    '  keepalive_timeout 65;',
    '  include /etc/nginx/conf.d/*.conf;',
    '}',
    '',
  ].join('\n');
  const site = 'server {\n  listen 80;\n  server_name localhost;\n  location / {\n    root /usr/share/nginx/html;\n    index index.html index.htm;\n  }\n}\n';
  const busybox = withBusybox(busyboxBinary, root);
  return {
    name: CONFORMANCE_IMAGES.nginx,
    roots: [root],
    files: [...(busybox.files ?? []), file('/etc/nginx/nginx.conf', conf), file('/etc/nginx/conf.d/default.conf', site), ...accounts('nginx:x:101:101:nginx:/nonexistent:/bin/false\n', 'nginx:x:101:\n')],
    links: { ...busybox.links, '/var/log/nginx/access.log': '/dev/stdout', '/var/log/nginx/error.log': '/dev/stderr' },
    folders: ['/var/lib/nginx', '/var/cache/nginx', '/var/run'],
    cmd: ['nginx', '-g', 'daemon off;'],
    workdir: '/',
  };
}

/** Every conformance test image, built from what `sources` hold and Debian packages (downloaded when missing). */
export async function conformanceImages(sources: ConformanceImageSources, report: (line: string) => void): Promise<ImageSpec[]> {
  const agnhostRoot = await debianRoot(USERLANDS.agnhost, report);
  const nginxRoot = await debianRoot(USERLANDS.nginx, report);
  const dnsRoot = await debianRoot(USERLANDS.dns, report);
  const busyboxOnly = withBusybox(sources.busybox, undefined);
  const busybox = (name: string, extra: Partial<ImageSpec> = {}): ImageSpec => ({ name, files: [...(busyboxOnly.files ?? []), ...accounts(), ...(extra.files ?? [])], links: busyboxOnly.links, cmd: extra.cmd ?? ['sh'], workdir: '/' });
  return [
    agnhost(CONFORMANCE_IMAGES.agnhost, agnhostRoot, sources),
    agnhost(CONFORMANCE_IMAGES.agnhostPrevious, agnhostRoot, sources),
    demoImage({ name: CONFORMANCE_IMAGES.nautilus, html: 'nautilus' }, agnhostRoot, sources),
    demoImage({ name: CONFORMANCE_IMAGES.kitten, html: 'kitten', more: [KITTEN_OS_RELEASE] }, agnhostRoot, sources),
    busybox(CONFORMANCE_IMAGES.busybox),
    // Set-user-ID root, so the spec sees no_new_privs keep it from raising the effective user.
    busybox(CONFORMANCE_IMAGES.nonewprivs, { files: [{ source: sources.suite.nnp, target: '/usr/local/bin/nnp', mode: 0o4755 }], cmd: ['nnp'] }),
    nginx(nginxRoot, sources.busybox),
    { name: CONFORMANCE_IMAGES.glibcDnsTesting, roots: [dnsRoot], files: [NSSWITCH, ...accounts()], links: { '/bin/sh': 'dash' }, cmd: ['sh'], workdir: '/' },
    { name: CONFORMANCE_IMAGES.sampleAPIServer, files: [{ source: sources.sampleAPIServer, target: '/sample-apiserver' }, ...accounts()], entrypoint: ['/sample-apiserver'], workdir: '/' },
  ];
}
