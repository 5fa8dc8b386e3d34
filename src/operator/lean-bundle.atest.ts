// The operator image's lean bundle (bin/hcp-operator → dist/operator/hcp-operator-lean.mjs for the programs every
// control plane runs) as a process: it serves its programs, refuses bad input as the full bundle does, and carries
// neither the operator nor client-node.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:https';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { certificatePem, issueCertificate } from '../pki/certificate.ts';
import { generateKeyPair, privateKeyPem } from '../pki/keys.ts';
import { assertBundlesFresh, OPERATOR_BIN } from '../testing/artifacts.ts';
import { REPO_ROOT } from '../testing/paths.ts';
import { runProcess } from '../testing/process.ts';

const LEAN = join(REPO_ROOT, 'dist', 'operator', 'hcp-operator-lean.mjs');

describe('the lean operator bundle', () => {
  it('When built, it should be a small fraction of the operator bundle, without client-node', () => {
    assertBundlesFresh();
    const lean = statSync(LEAN).size;
    const full = statSync(join(REPO_ROOT, 'dist', 'operator', 'hcp-operator.mjs')).size;
    assert.ok(lean * 10 < full, `lean ${String(lean)} bytes, full ${String(full)}`);
    assert.doesNotMatch(readFileSync(LEAN, 'utf8'), /makeApiClient|CoreV1Api/);
  });

  it('When asked for the ignition server usage, it should print it and exit 0', async () => {
    const out = await runProcess(OPERATOR_BIN, ['ignition-server', '--help']);
    assert.equal(out.code, 0, out.stderr);
    assert.match(out.stdout, /--kubeconfig/);
  });

  it('When the prober target is not https, or a flag is unknown, it should say so on one line and exit 2', async () => {
    for (const args of [['--target=http://x'], ['--target=https://x', '--bogus']]) {
      const out = await runProcess(OPERATOR_BIN, ['availability-prober', ...args]);
      assert.equal(out.code, 2, out.stderr);
      assert.equal(out.stderr.trim().split('\n').length, 1, out.stderr);
    }
  });

  it('When not in a cluster and given no kubeconfig, the ignition server should say so and exit non-zero', async () => {
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'KUBERNETES_SERVICE_HOST' && k !== 'KUBECONFIG'));
    const flags = ['--cert-file=/x', '--key-file=/y', '--namespace=n', '--cluster-dns=172.31.0.10', '--sandbox-image=pause', '--api-server-url=https://api:6443'];
    // A home of its own without ~/.kube/config (the launcher keeps its compile cache there).
    const home = mkdtempSync(join(tmpdir(), 'hcp-lean-home-'));
    const out = await runProcess(OPERATOR_BIN, ['ignition-server', ...flags], { env: { ...env, HOME: home, XDG_CACHE_HOME: join(home, '.cache') } });
    rmSync(home, { recursive: true, force: true });
    assert.equal(out.code, 1);
    assert.match(out.stderr, /^no kubeconfig found for the management cluster/);
  });

  it('When the prober target answers 200, it should say it is available and exit 0', async () => {
    const now = new Date();
    const keys = await generateKeyPair();
    const cert = await issueCertificate({ commonName: 'localhost', usage: 'server', ipAddresses: ['127.0.0.1'], keys, notBefore: now, notAfter: new Date(now.getTime() + 3_600_000), serialNumber: '01' });
    const server = createServer({ cert: certificatePem(cert), key: await privateKeyPem(keys.privateKey) }, (_req, res) => res.end('ok'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const target = `https://127.0.0.1:${String((server.address() as { port: number }).port)}/readyz`;
    try {
      const out = await runProcess(OPERATOR_BIN, ['availability-prober', `--target=${target}`], { timeoutMs: 30_000 });
      assert.equal(out.code, 0, out.stderr);
      assert.equal(out.stdout, `${target} is available\n`);
    } finally {
      server.close();
    }
  });
});
