/**
 * The local release's etcd image: the server, its client and offline tool at the server's version, and BusyBox for
 * the shell the member start script and the manual's procedures use (`oc rsh`, `oc exec … -- env …`, `oc cp`, which
 * needs `tar`). Upstream's image is a RHEL one with bash; ours has BusyBox's `sh` under the names they call.
 */
import type { ImageSpec } from './images.ts';

/** The binaries the image is made of. */
export interface EtcdImageBinaries {
  readonly etcd: string;
  readonly etcdctl: string;
  readonly etcdutl: string;
  readonly busybox: string;
}

/** Where the real etcdctl is: `/usr/bin/etcdctl` is {@link ETCDCTL_DEFAULTS}, which runs it. */
const REAL_ETCDCTL = '/usr/libexec/etcd/etcdctl';

/**
 * `/usr/bin/etcdctl`: defaults for a shell in this member's container, so the manual's bare `etcdctl endpoint health
 * --cluster -w table` reaches the local member with the client certificate. Each default is given only when neither
 * its flag nor its variable is (etcdctl refuses a flag that repeats a variable). etcd 3.6 moved `snapshot status`
 * and `snapshot restore` to etcdutl; the manual (written for 3.5) still calls them through etcdctl, so they are passed on.
 */
export const ETCDCTL_DEFAULTS = `#!/bin/sh
case " $* " in *" snapshot status "* | *" snapshot restore "*) exec etcdutl "$@" ;; esac
given() { case " $ARGS" in *" --$1 "* | *" --$1="*) return 0 ;; esac; return 1; }
ARGS="$* "
given cacert || export ETCDCTL_CACERT="\${ETCDCTL_CACERT:-/etc/etcd/tls/etcd-ca/ca.crt}"
given cert || export ETCDCTL_CERT="\${ETCDCTL_CERT:-/etc/etcd/tls/client/etcd-client.crt}"
given key || export ETCDCTL_KEY="\${ETCDCTL_KEY:-/etc/etcd/tls/client/etcd-client.key}"
given endpoints || export ETCDCTL_ENDPOINTS="\${ETCDCTL_ENDPOINTS:-https://localhost:2379}"
exec ${REAL_ETCDCTL} "$@"
`;

/** The BusyBox commands the image has, as links: a shell and what scripts and `oc cp` use. */
const BUSYBOX_COMMANDS = ['sh', 'ash', 'env', 'cat', 'ls', 'cp', 'mv', 'rm', 'mkdir', 'rmdir', 'ln', 'tar', 'awk', 'grep', 'sed', 'cut', 'head', 'tail', 'tr', 'wc', 'sort', 'sleep', 'echo', 'printf', 'test', '[', 'true', 'false', 'date', 'du', 'df', 'find', 'xargs', 'ps', 'kill', 'id', 'stat', 'touch', 'sha256sum', 'nslookup', 'wget', 'hostname', 'vi', 'less'];

/** The etcd image under `name`. */
export function etcdImage(name: string, bin: EtcdImageBinaries): ImageSpec {
  const links = Object.fromEntries(BUSYBOX_COMMANDS.map((command) => [command === 'sh' || command === 'ash' ? `/bin/${command}` : `/usr/bin/${command}`, '/bin/busybox']));
  return {
    name,
    files: [
      { source: bin.etcd, target: '/usr/local/bin/etcd' },
      { source: bin.etcdctl, target: REAL_ETCDCTL },
      { contents: ETCDCTL_DEFAULTS, target: '/usr/bin/etcdctl', mode: 0o755 },
      { source: bin.etcdutl, target: '/usr/bin/etcdutl' },
      { source: bin.busybox, target: '/bin/busybox' },
      // The manual's data-access Deployment runs /usr/bin/bash: BusyBox's shell stands in for it.
      { contents: '#!/bin/sh\nexec /bin/sh "$@"\n', target: '/usr/bin/bash', mode: 0o755 },
    ],
    links,
    // No user, as upstream's image: whoever runs it bare (the Aggregator conformance spec runs etcd with no user and
    // no data directory, so in its working directory) is root. The pods that need etcd's user set it in their specs.
  };
}
