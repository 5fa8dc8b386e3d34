import { request } from 'node:https';
import { decodeDataURL } from '../../render/ignition/materialise.ts';

/** What an Ignition pointer (a machine's user data) says: where to fetch, with which headers, trusting which CA. */
export interface IgnitionPointer {
  readonly source: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly ca: string;
}

type Json = Record<string, unknown>;
const record = (value: unknown): Json => (typeof value === 'object' && value !== null ? (value as Json) : {});

/** Reads the pointer an upstream-shaped user-data config holds (`ignition.config.merge[0]`, its headers and CA). */
export function parseIgnitionPointer(userData: string): IgnitionPointer {
  const ignition = record(record(JSON.parse(userData) as unknown)['ignition']);
  const merge = record((record(ignition['config'])['merge'] as unknown[] | undefined)?.[0]);
  const source = merge['source'];
  if (typeof source !== 'string' || !source.startsWith('https://')) throw new Error('the user data names no https:// config to merge');
  const headers = Object.fromEntries(((merge['httpHeaders'] as unknown[] | undefined) ?? []).map((h) => [String(record(h)['name']), String(record(h)['value'])]));
  const caSource = record((record(record(ignition['security'])['tls'])['certificateAuthorities'] as unknown[] | undefined)?.[0])['source'];
  return { source, headers, ca: typeof caSource === 'string' ? decodeDataURL(caSource) : '' };
}

/** Fetches the config a pointer names, as Ignition does: GET with its headers, verified against its CA only. */
export function fetchIgnitionConfig(pointer: IgnitionPointer): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(pointer.source, { method: 'GET', headers: pointer.headers, ca: pointer.ca, timeout: 10_000 }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('timeout', () => req.destroy(new Error(`${pointer.source} did not answer in 10 s`)));
    req.on('error', reject);
    req.end();
  });
}
