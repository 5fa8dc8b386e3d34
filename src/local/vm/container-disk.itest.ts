import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { RegistryClient } from '../../registry/client.ts';
import { pushImage } from '../../registry/oci-image.ts';
import { parseImageReference } from '../../release/image-reference.ts';
import { scratchDir } from '../../testing/paths.ts';
import { registryForSuite } from '../../testing/registry.ts';
import { ociImageOf, type ImageSpec } from '../environment/images.ts';
import { ContainerDiskError, pullContainerDisk } from './container-disk.ts';

const DISK = 'QFI\xfb a small qcow2 for the test\n';

describe('container disks pulled from a real registry (distribution, TLS, htpasswd)', () => {
  const suite = registryForSuite();
  const cache = scratchDir('hcp-container-disks-');
  const publish = async (name: string, spec: Omit<ImageSpec, 'name'>): Promise<string> => {
    const ref = parseImageReference(`${suite.registry.host}/disks/${name}:v1`);
    await pushImage(new RegistryClient({ transport: suite.transport, pullSecret: suite.registry.pullSecret() }), ref, [await ociImageOf({ name, ...spec })]);
    return `${suite.registry.host}/disks/${name}:v1`;
  };

  it('When a container disk is pulled with the node credentials, it should give its one disk, and the second pull should read it from the cache', async () => {
    const image = await publish('node', { files: [{ target: '/disk/node.qcow2', contents: DISK, mode: 0o444 }] });
    const access = { pullSecret: suite.registry.pullSecret(), ca: suite.registry.ca };
    const disk = await pullContainerDisk(image, access, cache);
    assert.equal(disk.format, 'qcow2');
    assert.equal(readFileSync(disk.path, 'utf8'), DISK);
    const served = suite.registry.requestsServed();
    assert.deepEqual(await pullContainerDisk(image, access, cache), disk);
    assert.ok(suite.registry.requestsServed() - served <= 3, 'the second pull reads manifests only');
  });

  it('When the image holds no disk under /disk/, it should refuse it naming the image', async () => {
    const image = await publish('not-a-disk', { files: [{ target: '/usr/local/bin/tool', contents: 'x' }] });
    await assert.rejects(pullContainerDisk(image, { pullSecret: suite.registry.pullSecret(), ca: suite.registry.ca }, cache), (e: Error) => e instanceof ContainerDiskError && e.message.startsWith(`${image} is not a container disk`));
  });

  it('When the registry refuses the credentials, it should say so naming the image', async () => {
    const image = `${suite.registry.host}/disks/node:v1`;
    await assert.rejects(pullContainerDisk(image, { pullSecret: suite.registry.pullSecret('release-reader', 'wrong'), ca: suite.registry.ca }, cache), (e: Error) => e instanceof ContainerDiskError && e.message.includes(`pulling the container disk ${image}`) && /refused/.test(e.message));
  });
});
