import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { describe, it } from 'node:test';
import { certificatePem, issueCertificate, loadIssuer } from './certificate.ts';
import { generateKeyPair, privateKeyPem } from './keys.ts';

const now = new Date('2026-11-01T00:00:00Z');
const later = new Date('2027-11-01T00:00:00Z');

describe('issueCertificate', () => {
  it('When a CA issues a client certificate, it should carry the user and groups and verify against the CA', async () => {
    const ca = await issueCertificate({ commonName: 'test-ca', usage: 'ca', keys: await generateKeyPair(), notBefore: now, notAfter: later, serialNumber: '01' });
    const leaf = await issueCertificate({ commonName: 'alice', organizations: ['system:masters'], usage: 'client', keys: await generateKeyPair(), issuer: ca, notBefore: now, notAfter: later, serialNumber: '02' });
    const parsed = new X509Certificate(certificatePem(leaf));
    assert.match(parsed.subject, /CN=alice/);
    assert.match(parsed.subject, /O=system:masters/);
    assert.ok(parsed.verify(new X509Certificate(certificatePem(ca)).publicKey));
    assert.equal(new X509Certificate(certificatePem(ca)).ca, true);
    assert.equal(parsed.validTo, 'Nov  1 00:00:00 2027 GMT');
  });

  it('When a serving certificate is issued, it should list the DNS and IP SANs', async () => {
    const cert = await issueCertificate({ commonName: 'kube-apiserver', usage: 'server', dnsNames: ['localhost'], ipAddresses: ['127.0.0.1'], keys: await generateKeyPair(), notBefore: now, notAfter: later, serialNumber: '03' });
    const san = new X509Certificate(certificatePem(cert)).subjectAltName ?? '';
    assert.match(san, /DNS:localhost/);
    assert.match(san, /IP Address:127\.0\.0\.1/);
  });

  it('When a CA is loaded back from PEM, it should still issue certificates that verify', async () => {
    const ca = await issueCertificate({ commonName: 'ca', usage: 'ca', keys: await generateKeyPair(), notBefore: now, notAfter: later, serialNumber: '04' });
    const loaded = await loadIssuer(certificatePem(ca), await privateKeyPem(ca.keys.privateKey));
    const leaf = await issueCertificate({ commonName: 'bob', usage: 'client', keys: await generateKeyPair(), issuer: loaded, notBefore: now, notAfter: later, serialNumber: '05' });
    assert.ok(new X509Certificate(certificatePem(leaf)).verify(new X509Certificate(certificatePem(ca)).publicKey));
  });
});
