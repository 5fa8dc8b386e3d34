import assert from 'node:assert/strict';
import { dirname } from 'node:path';
import { locateBinaries } from '../local/binaries/locate.ts';
import { ensureTool, ETCDCTL, ETCDUTL } from '../local/binaries/tools.ts';

/** A PATH with etcd (built by `./dev binaries`), etcdctl and etcdutl (built on first use), then the system's tools. */
export async function etcdToolsPath(): Promise<string> {
  const etcd = locateBinaries().etcd;
  assert.ok(etcd !== undefined, 'etcd is built (./dev binaries)');
  const ctl = (await ensureTool(ETCDCTL, () => undefined))['etcdctl'] ?? '';
  const utl = (await ensureTool(ETCDUTL, () => undefined))['etcdutl'] ?? '';
  return [dirname(etcd), dirname(ctl), dirname(utl), '/usr/bin', '/bin'].join(':');
}
