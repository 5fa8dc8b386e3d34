import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { localClusterFlags } from './cluster-flags.ts';
import { EnvironmentError } from './errors.ts';
import { environmentLayout } from './layout.ts';
import { nodePaths } from './node-config.ts';
import { recordedUserRegistry, recordUserRegistry, registryAccessPaths, trustRegistries, userRegistryForUp, userRegistryHosts, writeRegistryAccessFiles } from './registry-access.ts';
import { releaseRegistryPaths } from './release-registry.ts';

const RELEASE = `registry.example.com:5000/team/kube-release@sha256:${'a'.repeat(64)}`;
const CONFIG = JSON.stringify({ auths: { 'registry.example.com:5000': { auth: 'dXNlcjpwYXNz' }, 'https://index.docker.io/v1/': { auth: 'eDp5' } } });
const CA = '-----BEGIN CERTIFICATE-----\nTUlJ\n-----END CERTIFICATE-----\n';

describe('the registries of the local environment', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hcp-registry-access-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('When up is given a release, credentials and a CA for vm machines, it should keep them', () => {
    assert.deepEqual(userRegistryForUp({}, { releaseImage: RELEASE, config: CONFIG, ca: CA }, 'vm', '/s'), { releaseImage: RELEASE, config: CONFIG, ca: CA });
  });

  it('When a later up gives nothing or the same, it should keep the recorded choice; when it gives another, it should refuse', () => {
    const recorded = { releaseImage: RELEASE, config: CONFIG };
    assert.deepEqual(userRegistryForUp(recorded, {}, 'vm', '/s'), recorded);
    assert.deepEqual(userRegistryForUp(recorded, { releaseImage: RELEASE, ca: CA }, 'vm', '/s'), { ...recorded, ca: CA });
    assert.throws(() => userRegistryForUp(recorded, { releaseImage: 'quay.io/other/release:1' }, 'vm', '/s'), (e: unknown) => e instanceof EnvironmentError && /runs with another --release-image \(kept until down\): run hcp local down first/.test(e.message));
  });

  it('When the input cannot be honoured, it should say which flag and why', () => {
    assert.throws(() => userRegistryForUp({}, { ca: CA }, 'vm', '/s'), /--registry-ca-file needs --registry-config or --release-image/);
    assert.throws(() => userRegistryForUp({}, { releaseImage: 'UPPER/Case:x' }, 'vm', '/s'), /invalid --release-image "UPPER\/Case:x"/);
    assert.throws(() => userRegistryForUp({}, { releaseImage: RELEASE }, 'process', '/s'), /--release-image needs --machine-backend vm/);
  });

  it('When a CA is given, it should be for the release\'s registry and every registry of the credentials', () => {
    assert.deepEqual(userRegistryHosts({ releaseImage: RELEASE, config: JSON.stringify({ auths: { 'https://registry.example.com:5000/v1/': { auth: 'eDp5' }, 'other.example.com': { auth: 'eDp5' } } }) }), ['other.example.com', 'registry.example.com:5000']);
    assert.deepEqual(userRegistryHosts({ releaseImage: 'registry.example.com/a/b:1' }), ['registry.example.com']);
  });

  it('When the credentials name a registry the environment mirrors, its mirror should stay (no CA entry over it)', () => {
    const config = JSON.stringify({ auths: { 'quay.io': { auth: 'eDp5' }, 'registry.example.com': { auth: 'eDp5' } } });
    assert.deepEqual(userRegistryHosts({ releaseImage: 'quay.io/a/b:1', config }), ['registry.example.com']);
  });

  it('When the choice is recorded, the nodes should trust both registries, pull with both credentials, and clusters run the published release', () => {
    const layout = environmentLayout(join(dir, 'env'), 1);
    const own = releaseRegistryPaths(layout);
    mkdirSync(own.dir, { recursive: true });
    writeFileSync(own.pullSecret, JSON.stringify({ auths: { '10.250.0.1:5443': { auth: 'b3duOnB3' } } }));
    writeFileSync(own.ca, CA.replace('TUlJ', 'T1dO'));
    recordUserRegistry(layout, { releaseImage: RELEASE, config: CONFIG, ca: CA });
    assert.deepEqual(recordedUserRegistry(layout), { releaseImage: RELEASE, config: CONFIG, ca: CA });
    writeRegistryAccessFiles(layout);
    const access = registryAccessPaths(layout);
    const merged = JSON.parse(readFileSync(access.pullSecret, 'utf8')) as { auths: Record<string, unknown> };
    assert.deepEqual(Object.keys(merged.auths).sort(), ['10.250.0.1:5443', 'https://index.docker.io/v1/', 'registry.example.com:5000']);
    assert.equal(statSync(access.pullSecret).mode & 0o777, 0o600);
    assert.equal((readFileSync(access.trustBundle, 'utf8').match(/BEGIN CERTIFICATE/g) ?? []).length, 2);
    const node = layout.nodes[0];
    assert.ok(node !== undefined);
    trustRegistries(layout, node);
    const hosts = readFileSync(join(nodePaths(node).registryHosts, 'registry.example.com:5000', 'hosts.toml'), 'utf8');
    assert.match(hosts, /server = "https:\/\/registry\.example\.com:5000"/);
    assert.match(hosts, new RegExp(`ca = "${access.ca}"`));
    assert.match(readFileSync(join(nodePaths(node).registryHosts, '10.250.0.1:5443', 'hosts.toml'), 'utf8'), new RegExp(`ca = "${own.ca}"`));
    assert.deepEqual(JSON.parse(readFileSync(join(nodePaths(node).kubeletRoot, 'config.json'), 'utf8')), merged);
    const flags = localClusterFlags(layout, 1);
    assert.deepEqual(flags, [`--release-image=${RELEASE}`, `--pull-secret=${access.pullSecret}`, `--additional-trust-bundle=${access.trustBundle}`, '--service-publishing-strategy=NodePort', '--node-pool-replicas=1']);
  });

  it('When nothing was given, the environment should trust only its own registry', () => {
    const layout = environmentLayout(join(dir, 'plain'), 1);
    assert.deepEqual(recordedUserRegistry(layout), {});
    assert.ok(localClusterFlags(layout).some((f) => f.startsWith('--containerdisk=')));
  });
});
