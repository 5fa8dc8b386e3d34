import assert from 'node:assert/strict';
import { createCipheriv, randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { aescbcKeys, encryptedValues, encryptionVerdict } from './snapshot-check.ts';

/** A Secret as the API server stores it encrypted: protobuf magic and a body, AES-CBC under `key`, IV first. */
function encryptedSecret(key: Buffer, keyName = 'key1'): Buffer {
  const iv = randomBytes(16);
  const cipher = createCipheriv('aes-256-cbc', key, iv);
  const plain = Buffer.concat([Buffer.from('k8s\0'), randomBytes(300)]);
  return Buffer.concat([Buffer.from(`k8s:enc:aescbc:v1:${keyName}:`), iv, cipher.update(plain), cipher.final()]);
}

/** `value` framed as etcd's KeyValue frames it (field 5, its length as a varint), between other bytes of a page. */
function onPage(...values: Buffer[]): Buffer {
  const varint = (n: number): number[] => (n < 0x80 ? [n] : [(n & 0x7f) | 0x80, ...varint(n >> 7)]);
  return Buffer.concat(values.flatMap((v) => [randomBytes(40).fill(0x01), Buffer.from([0x2a, ...varint(v.length)]), v]));
}

const config = (key: Buffer): unknown => ({ resources: [{ resources: ['secrets'], providers: [{ aescbc: { keys: [{ name: 'key1', secret: key.toString('base64') }] } }, { identity: {} }] }] });

describe('whether a cluster can read a snapshot\'s Secrets', () => {
  const key = randomBytes(32);

  it('When the values were written with the cluster\'s key, it should find them framed and pass', () => {
    const values = encryptedValues(onPage(encryptedSecret(key), encryptedSecret(key)), 50);
    assert.equal(values.length, 2);
    assert.deepEqual([values[0]?.provider, values[0]?.keyName], ['aescbc', 'key1']);
    assert.deepEqual(encryptionVerdict(values, aescbcKeys(config(key))), { ok: true, note: "this cluster's encryption key reads the snapshot's Secrets (2 of 2 sampled values)" });
  });

  it('When the values were written with another key of the same name, it should refuse and say what to carry over', () => {
    const verdict = encryptionVerdict(encryptedValues(onPage(encryptedSecret(randomBytes(32))), 50), aescbcKeys(config(key)));
    assert.equal(verdict.ok, false);
    assert.match(verdict.ok ? '' : verdict.message, /encrypted with a key this cluster does not have \(written with aescbc key "key1"; none of the 1 sampled values opens.*spec\.secretEncryption/);
  });

  it('When one old value no key opens sits beside readable ones, it should pass (a revision from before a rotation)', () => {
    const values = encryptedValues(onPage(encryptedSecret(randomBytes(32)), encryptedSecret(key)), 50);
    assert.equal(encryptionVerdict(values, aescbcKeys(config(key))).ok, true);
  });

  it('When the snapshot holds no encrypted value, or the marker appears unframed, it should pass without sampling it', () => {
    const loose = Buffer.concat([randomBytes(64), Buffer.from('text mentioning k8s:enc:aescbc:v1:key1: in passing'), randomBytes(64)]);
    assert.deepEqual(encryptedValues(loose, 50).length, 0);
    assert.deepEqual(encryptionVerdict([], aescbcKeys(config(key))), { ok: true, note: 'the snapshot holds no Secret encrypted at rest' });
  });

  it('When a value is larger than 127 bytes, its length should be read as a several-byte varint', () => {
    const big = encryptedSecret(key);
    assert.ok(big.length > 127);
    assert.equal(encryptedValues(onPage(big), 1)[0]?.payload.length, big.length - 'k8s:enc:aescbc:v1:key1:'.length);
  });
});
