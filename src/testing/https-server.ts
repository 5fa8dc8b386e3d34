import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { certificatePem, issueCertificate } from '../pki/certificate.ts';
import { generateKeyPair, privateKeyPem } from '../pki/keys.ts';

/** An HTTPS server on a free loopback port with a fresh certificate, handling requests with `handler`. */
export async function httpsServer(handler: Parameters<typeof createServer>[1]): Promise<{ server: Server; port: number; caPem: string }> {
  const keys = await generateKeyPair();
  const now = new Date();
  const cert = await issueCertificate({ commonName: 'test', usage: 'server', ipAddresses: ['127.0.0.1'], notBefore: now, notAfter: new Date(now.getTime() + 3_600_000), keys, serialNumber: '01' });
  const server = createServer({ cert: certificatePem(cert), key: await privateKeyPem(keys.privateKey) }, handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port, caPem: certificatePem(cert) };
}
