import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { renderKubeconfig, type KubeconfigCredentials } from '../../pki/index.ts';
import { toYaml } from '../../lib/yaml.ts';
import { toPem, type ClusterCertificates } from './certificates.ts';

/** The last lines of a (log) file, for error messages; a note when it does not exist yet. */
export function tailOfFile(path: string, lines: number): string {
  return existsSync(path) ? readFileSync(path, 'utf8').trimEnd().split('\n').slice(-lines).join('\n') : '(no log)';
}

/** Writes a file readable only by the current user (keys and kubeconfigs hold secrets). */
export function writePrivate(path: string, content: string): void {
  writeFileSync(path, content, { mode: 0o600 });
}

/**
 * Writes a file only when its content differs, and says whether it did: kube-proxy exits on any write to its
 * configuration file, even of the same content, so an `up` run again must leave a running node's files untouched; a
 * watching reader (the router's proxy) is not woken for nothing. With `partial`, the content is written there first
 * and renamed into place, so a reader never sees half a file.
 */
export function writeFileIfChanged(path: string, content: string, partial?: string): boolean {
  if (existsSync(path) && readFileSync(path, 'utf8') === content) return false;
  mkdirSync(dirname(path), { recursive: true });
  if (partial === undefined) {
    writeFileSync(path, content);
    return true;
  }
  writeFileSync(partial, content);
  renameSync(partial, path);
  return true;
}

/** Writes the certificates and keys the processes read from disk. */
export async function writeCertificates(dir: string, certs: ClusterCertificates): Promise<void> {
  const pki = join(dir, 'pki');
  mkdirSync(pki, { recursive: true });
  const serverCa = await toPem(certs.serverCa);
  const clientCa = await toPem(certs.clientCa);
  writePrivate(join(pki, 'server-ca.crt'), serverCa.cert);
  writePrivate(join(pki, 'client-ca.crt'), clientCa.cert);
  writePrivate(join(pki, 'client-ca.key'), clientCa.key);
  writePrivate(join(pki, 'apiserver.crt'), certs.serving.cert + serverCa.cert);
  writePrivate(join(pki, 'apiserver.key'), certs.serving.key);
  writePrivate(join(pki, 'sa.key'), certs.serviceAccount.privateKey);
  writePrivate(join(pki, 'sa.pub'), certs.serviceAccount.publicKey);
}

/** Options of {@link writeKubeconfig}. */
export interface WriteKubeconfigOptions {
  readonly path: string;
  readonly name: string;
  readonly server: string;
  readonly caPem: string;
  readonly user: KubeconfigCredentials;
  readonly namespace?: string;
}

/** Writes a self-contained kubeconfig file. */
export function writeKubeconfig(options: WriteKubeconfigOptions): void {
  writePrivate(options.path, toYaml(renderKubeconfig(options)));
}
