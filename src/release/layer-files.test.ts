import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { tarLayer } from '../testing/tar-layer.ts';
import { filesInLayer } from './layer-files.ts';
import { PAYLOAD_FILES } from './payload.ts';

const WANTED = [PAYLOAD_FILES.imageReferences, PAYLOAD_FILES.bootImages];
const FILES = { [PAYLOAD_FILES.imageReferences]: '{"kind":"ImageStream"}', [PAYLOAD_FILES.releaseMetadata]: '{}', 'usr/bin/cluster-version-operator': 'binary' };

/** The layer in chunks of 1000 bytes, as a registry response arrives. */
function* chunked(bytes: Buffer): Iterable<Uint8Array> {
  for (let i = 0; i < bytes.length; i += 1000) yield bytes.subarray(i, i + 1000);
}

describe('reading files from a layer', () => {
  for (const gzip of [true, false]) {
    it(`When the layer is a ${gzip ? 'gzip-compressed ' : ''}tar, it should keep the wanted files found and nothing else`, async () => {
      const files = await filesInLayer(chunked(tarLayer(FILES, { gzip })), WANTED);
      assert.deepEqual([...files.keys()], [PAYLOAD_FILES.imageReferences]);
      assert.equal(files.get(PAYLOAD_FILES.imageReferences)?.toString(), '{"kind":"ImageStream"}');
    });
  }

  it('When the layer is not a tar, it should say so', async () => {
    await assert.rejects(filesInLayer([Buffer.from('not a tar at all '.repeat(64))], WANTED), /the layer is not a readable tar/);
  });

  it('When a streamed layer turns out not to be a tar, it should fail at once and stop reading, with nothing left unhandled', async () => {
    let served = 0;
    async function* endless(): AsyncGenerator<Buffer> {
      for (;;) {
        served++;
        await new Promise((resolve) => setImmediate(resolve));
        yield Buffer.from('not a tar at all '.repeat(64));
      }
    }
    await assert.rejects(filesInLayer(endless(), WANTED), /the layer is not a readable tar/);
    assert.ok(served < 10, `read ${String(served)} chunks after the failure`);
  });
});
