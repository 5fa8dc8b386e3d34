import { request } from 'node:https';
import type { IgnitionPointer } from '../../render/ignition/materialise.ts';

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
