import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import type { IncomingMessage } from 'node:http';
import { describe, it } from 'node:test';
import { parseImageReference } from '../release/image-reference.ts';
import { RegistryClient } from './client.ts';
import type { Answer, Exchange, Transport } from './transport.ts';

/** A transport that answers from a script and records what was sent: the registry's side of a push. */
function scripted(answer: (exchange: Exchange) => Omit<Answer, 'body'>): { transport: Transport; sent: Exchange[] } {
  const sent: Exchange[] = [];
  const send = (exchange: Exchange): Promise<Answer> => {
    sent.push(exchange);
    return Promise.resolve({ ...answer(exchange), body: Readable.from([]) as unknown as IncomingMessage });
  };
  return { transport: { send, close: () => undefined } as unknown as Transport, sent };
}

describe('RegistryClient credentials', () => {
  it('When a registry hands out an upload location on another host, it should upload there without the credentials', async () => {
    const { transport, sent } = scripted((e) => {
      if (e.url.host === 'registry.example' && e.headers['authorization'] === undefined) return { status: 401, headers: { 'www-authenticate': 'Basic realm="r"' } };
      if (e.method === 'HEAD') return { status: 404, headers: {} };
      if (e.method === 'POST') return { status: 202, headers: { location: 'https://uploads.example/session/1' } };
      return { status: 201, headers: {} };
    });
    const secret = JSON.stringify({ auths: { 'registry.example': { auth: Buffer.from('user:pass').toString('base64') } } });
    await new RegistryClient({ transport, pullSecret: secret }).pushBlob(parseImageReference('registry.example/team/release:1'), Buffer.from('layer'));
    const put = sent.find((e) => e.method === 'PUT');
    assert.equal(put?.url.host, 'uploads.example');
    assert.equal(put.headers['authorization'], undefined, 'the upload host gets no credentials');
    assert.ok(sent.some((e) => e.url.host === 'registry.example' && e.headers['authorization']?.startsWith('Basic ') === true), 'the registry itself does');
  });
});

describe('registry error text', () => {
  it('When an answer is a registry error, it should give its codes and messages; any other body, nothing of it', async () => {
    const { registryErrorText } = await import('./errors.ts');
    assert.equal(registryErrorText(JSON.stringify({ errors: [{ code: 'DENIED', message: 'requested access\nto the resource is denied' }] })), 'DENIED: requested access to the resource is denied');
    assert.equal(registryErrorText('<html><body>internal dashboard: secret-42</body></html>'), '');
    assert.equal(registryErrorText(JSON.stringify({ errors: [{ code: 'X', message: 'y'.repeat(1000) }] })).length, 300);
  });
});
