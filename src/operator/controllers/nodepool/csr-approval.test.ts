import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { parseCertificateRequest, type CertificateRequestNames } from '../../../pki/csr.ts';
import { generateKeyPair } from '../../../pki/keys.ts';
import { KEY_ALGORITHM, x509 } from '../../../pki/x509.ts';
import { judgeKubeletRequest, KUBELET_CLIENT_SIGNER, KUBELET_SERVING_SIGNER, type ApprovalFacts, type KubeletRequest } from './csr-approval.ts';

/** A real PKCS#10 request, as a kubelet makes it. */
async function requestPem(subject: string, names: Array<{ type: 'dns' | 'ip'; value: string }> = []): Promise<string> {
  const keys = await generateKeyPair();
  const extensions = names.length === 0 ? [] : [new x509.SubjectAlternativeNameExtension(names)];
  const csr = await x509.Pkcs10CertificateRequestGenerator.create({ name: subject, keys, signingAlgorithm: KEY_ALGORITHM, extensions });
  return csr.toString('pem');
}

const facts: ApprovalFacts = {
  bootstrapTokens: new Map([['abc123', 'clusters/workers'], ['gpu999', 'clusters/gpu']]),
  machines: new Map([['workers-x7k2p', { pool: 'clusters/workers', addresses: ['10.0.2.15', 'fd00::15'] }], ['gpu-q9z8m', { pool: 'clusters/gpu', addresses: ['10.0.2.16'] }], ['workers-joined', { pool: 'clusters/workers', addresses: ['10.0.2.17'] }]]),
  nodeExists: (name) => name === 'workers-joined',
};

let client: CertificateRequestNames;
let joinedClient: CertificateRequestNames;
let serving: CertificateRequestNames;
let foreignServing: CertificateRequestNames;
let wrongGroup: CertificateRequestNames;

before(async () => {
  client = parseCertificateRequest(await requestPem('CN=system:node:workers-x7k2p, O=system:nodes'));
  joinedClient = parseCertificateRequest(await requestPem('CN=system:node:workers-joined, O=system:nodes'));
  serving = parseCertificateRequest(await requestPem('CN=system:node:workers-x7k2p, O=system:nodes', [{ type: 'dns', value: 'workers-x7k2p' }, { type: 'ip', value: '10.0.2.15' }]));
  foreignServing = parseCertificateRequest(await requestPem('CN=system:node:workers-x7k2p, O=system:nodes', [{ type: 'dns', value: 'workers-x7k2p' }, { type: 'ip', value: '10.0.2.99' }]));
  wrongGroup = parseCertificateRequest(await requestPem('CN=system:node:workers-x7k2p, O=system:masters'));
});

const clientCSR = (request: CertificateRequestNames, username = 'system:bootstrap:abc123'): KubeletRequest => ({ name: 'csr-1', signerName: KUBELET_CLIENT_SIGNER, username, usages: ['digital signature', 'client auth'], request });
const servingCSR = (request: CertificateRequestNames, username = 'system:node:workers-x7k2p'): KubeletRequest => ({ name: 'csr-2', signerName: KUBELET_SERVING_SIGNER, username, usages: ['digital signature', 'key encipherment', 'server auth'], request });

describe('kubelet certificate approval', () => {
  it('When a machine of a pool joins with that pool\'s bootstrap token, its client certificate should be approved', () => {
    assert.deepEqual(judgeKubeletRequest(clientCSR(client), facts), { approve: true, reason: 'machine workers-x7k2p of NodePool clusters/workers joining with its bootstrap token' });
  });

  it('When a node renews its own client certificate, it should be approved', () => {
    assert.equal(judgeKubeletRequest(clientCSR(client, 'system:node:workers-x7k2p'), facts)?.approve, true);
  });

  it('When a node asks to serve on its own name and its instance\'s addresses, it should be approved', () => {
    assert.equal(judgeKubeletRequest(servingCSR(serving), facts)?.approve, true);
  });

  const refusals: Array<[string, () => KubeletRequest, RegExp]> = [
    ['a node name that is no machine of the token\'s pool', () => clientCSR(client, 'system:bootstrap:gpu999'), /node workers-x7k2p is no machine of NodePool clusters\/gpu/],
    ['an expired or rotated-out token', () => clientCSR(client, 'system:bootstrap:old000'), /no current bootstrap token of a live NodePool/],
    ['a token of a deleted NodePool', () => clientCSR(client, 'system:bootstrap:zzz999'), /no current bootstrap token/],
    ['a user that is not a bootstrap token', () => clientCSR(client, 'alice'), /alice is neither a NodePool bootstrap token nor node workers-x7k2p itself/],
    ['another node asking for this node\'s client certificate', () => clientCSR(client, 'system:node:gpu-q9z8m'), /neither a NodePool bootstrap token nor node workers-x7k2p/],
    ['a bootstrap token taking over a registered node', () => clientCSR(joinedClient), /registered already/],
    ['a group other than system:nodes', () => clientCSR(wrongGroup), /organizations system:masters are not exactly system:nodes/],
    ['serving usages on the client signer', () => ({ ...clientCSR(client), usages: ['digital signature', 'server auth'] }), /not a kubelet client certificate's/],
    ['a foreign IP in a serving request', () => servingCSR(foreignServing), /addresses 10.0.2.99 are not among machine workers-x7k2p's/],
    ['a serving request made by another node', () => servingCSR(serving, 'system:node:gpu-q9z8m'), /requested by system:node:gpu-q9z8m, not by node workers-x7k2p itself/],
    ['a serving request from a bootstrap token', () => servingCSR(serving, 'system:bootstrap:abc123'), /not by node workers-x7k2p itself/],
    ['a request that does not parse', () => ({ ...clientCSR(client), request: { error: 'bad PEM' } }), /does not parse: bad PEM/],
  ];
  for (const [what, csr, reason] of refusals) {
    it(`When the request is ${what}, it should stay pending with the reason`, () => {
      const verdict = judgeKubeletRequest(csr(), facts);
      assert.equal(verdict?.approve, false);
      assert.match(verdict?.reason ?? '', reason);
    });
  }

  it('When another machine\'s guest agent also reports the address asked for, it should stay pending, naming both', () => {
    const squatted: ApprovalFacts = { ...facts, machines: new Map([...facts.machines, ['gpu-q9z8m', { pool: 'clusters/gpu', addresses: ['10.0.2.16', '10.0.2.15'] }]]) };
    const verdict = judgeKubeletRequest(servingCSR(serving), squatted);
    assert.equal(verdict?.approve, false);
    assert.match(verdict?.reason ?? '', /addresses 10.0.2.15 are also reported by another machine of the cluster \(gpu-q9z8m\)/);
  });

  it('When the request is for another signer, it should not be judged at all', () => {
    assert.equal(judgeKubeletRequest({ ...clientCSR(client), signerName: 'example.com/custom' }, facts), undefined);
  });
});
