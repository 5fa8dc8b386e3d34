import { generateKeyPair } from 'node:crypto';
import { promisify } from 'node:util';

function sshField(data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  return Buffer.concat([length, data]);
}

/** An SSH multi-precision integer: big-endian, with a leading zero byte when the high bit is set. */
function mpint(bytes: Buffer): Buffer {
  const trimmed = bytes.subarray(bytes.findIndex((b) => b !== 0));
  return sshField((trimmed[0] ?? 0) & 0x80 ? Buffer.concat([Buffer.from([0]), trimmed]) : trimmed);
}

/** Generates an RSA key pair as `--generate-ssh` does: the public key in authorized_keys form, the private key as PEM. */
export async function generateSshKey(): Promise<{ publicKey: string; privateKey: string }> {
  const { publicKey, privateKey } = await promisify(generateKeyPair)('rsa', { modulusLength: 4096 });
  const jwk = publicKey.export({ format: 'jwk' });
  const blob = Buffer.concat([sshField(Buffer.from('ssh-rsa')), mpint(Buffer.from(jwk.e ?? '', 'base64url')), mpint(Buffer.from(jwk.n ?? '', 'base64url'))]);
  return { publicKey: `ssh-rsa ${blob.toString('base64')}\n`, privateKey: privateKey.export({ type: 'pkcs1', format: 'pem' }).toString() };
}
