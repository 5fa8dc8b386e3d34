import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { inProcessHcp, runHcp } from '../../../testing/cli.ts';
import { renderForm } from './actions.ts';
import { fieldOfMessage, formToArgs, type ClusterForm } from './wizard.ts';

const RELEASE = 'quay.io/openshift-release-dev/ocp-release:4.17.0-multi';
const PULL_SECRET = '{"auths":{"quay.io":{"auth":"dXNlcjpwYXNz"}}}';
const SSH_KEY = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIJw test@example';
const INFRA_KUBECONFIG = 'apiVersion: v1\nkind: Config\nclusters:\n- name: infra\n  cluster:\n    server: https://infra.example.com:6443\ncontexts:\n- name: infra\n  context:\n    cluster: infra\n    user: infra\n    namespace: guests\ncurrent-context: infra\nusers:\n- name: infra\n  user:\n    token: abc\n';
const ICS = '- source: quay.io/openshift-release-dev/ocp-release\n  mirrors:\n  - mirror.example.com/ocp-release\n';
const CA = '-----BEGIN CERTIFICATE-----\nMIIBexample\n-----END CERTIFICATE-----\n';
/** What runHcp fixes, so both renders draw the same "random" infraID and keys at the same "now". */
const FIXED = { randomBytes: (n: number): Uint8Array => new Uint8Array(n).fill(7), now: (): Date => new Date('2026-11-21T00:00:00Z') };

/** Forms, each with the command line a user would type for the same cluster. */
const CASES: ReadonlyArray<{ what: string; form: ClusterForm; argv: string[] }> = [
  {
    what: 'the wizard\'s defaults with a name and a pull secret',
    form: { name: 'example', namespace: 'clusters', releaseImage: RELEASE, pullSecret: PULL_SECRET, sshKey: SSH_KEY, controlPlaneAvailabilityPolicy: 'HighlyAvailable', nodePoolReplicas: 2, cores: 2, memory: '8Gi', rootVolumeSize: 32, qosClass: 'Burstable', attachDefaultNetwork: true },
    argv: ['--name=example', '--namespace=clusters', `--release-image=${RELEASE}`, '--pull-secret=/ps', '--ssh-key=/ssh', '--node-pool-replicas=2', '--cores=2', '--memory=8Gi', '--root-volume-size=32'],
  },
  {
    what: 'every field the wizard has',
    form: {
      name: 'full',
      namespace: 'team-a',
      releaseImage: RELEASE,
      pullSecret: PULL_SECRET,
      sshKey: SSH_KEY,
      baseDomain: 'example.com',
      controlPlaneAvailabilityPolicy: 'SingleReplica',
      infraAvailabilityPolicy: 'SingleReplica',
      etcdStorageClass: 'fast',
      labels: ['team=a', 'env=test'],
      infraKubeconfig: INFRA_KUBECONFIG,
      infraNamespace: 'guests',
      storageClassMappings: ['infra-fast/fast', 'infra-slow/slow'],
      nodePoolReplicas: 3,
      cores: 4,
      memory: '16Gi',
      rootVolumeSize: 64,
      rootVolumeStorageClass: 'infra-fast',
      qosClass: 'Guaranteed',
      nodeSelector: ['zone=a', 'disk=ssd'],
      additionalNetworks: ['name:team-a/vlan-10'],
      attachDefaultNetwork: false,
      autoRepair: true,
      servicePublishingStrategy: 'NodePort',
      apiServerAddress: '192.168.10.5',
      imageContentSources: ICS,
      additionalTrustBundle: CA,
      containerDisk: 'registry.example.com/rhcos:4.17',
    },
    argv: [
      '--name=full', '--namespace=team-a', `--release-image=${RELEASE}`, '--pull-secret=/ps', '--ssh-key=/ssh', '--base-domain=example.com',
      '--control-plane-availability-policy=SingleReplica', '--infra-availability-policy=SingleReplica', '--etcd-storage-class=fast',
      '--labels=team=a', '--labels=env=test', '--infra-kubeconfig-file=/infra', '--infra-namespace=guests',
      '--infra-storage-class-mapping=infra-fast/fast', '--infra-storage-class-mapping=infra-slow/slow', '--node-pool-replicas=3', '--cores=4',
      '--memory=16Gi', '--root-volume-size=64', '--root-volume-storage-class=infra-fast', '--qos-class=Guaranteed', '--node-selector=zone=a,disk=ssd',
      '--additional-network=name:team-a/vlan-10', '--attach-default-network=false', '--auto-repair', '--service-publishing-strategy=NodePort', '--api-server-address=192.168.10.5',
      '--image-content-sources=/ics', '--additional-trust-bundle=/ca', '--containerdisk=registry.example.com/rhcos:4.17',
    ],
  },
];

describe('the create wizard', () => {
  for (const c of CASES) {
    it(`When the wizard has ${c.what}, it should render byte for byte what hcp create cluster kubevirt --render renders for the same input`, async () => {
      const cli = await runHcp(['create', 'cluster', 'kubevirt', ...c.argv, '--render'], { files: { '/ps': PULL_SECRET, '/ssh': SSH_KEY, '/infra': INFRA_KUBECONFIG, '/ics': ICS, '/ca': CA } });
      assert.equal(cli.code, 0, cli.stderr);
      const wizard = await renderForm(inProcessHcp, c.form, FIXED);
      assert.deepEqual(wizard.errors, []);
      assert.ok(wizard.stdout.includes('kind: HostedCluster'));
      assert.equal(wizard.stdout, cli.stdout);
    });
  }

  it('When the form breaks the command\'s rules, it should say so at the fields, with the command\'s own messages', async () => {
    const result = await renderForm(inProcessHcp, { name: 'Bad_Name', releaseImage: RELEASE, cores: 0, memory: 'lots' }, FIXED);
    assert.equal(result.ok, false);
    const fields = new Set(result.errors.map((e) => e.field));
    for (const field of ['name', 'pullSecret', 'memory']) assert.ok(fields.has(field), `${field} in ${JSON.stringify(result.errors)}`);
  });

  it('When a form names files of the machine or a kubeconfig, it should pass only its own fields, never a path of the machine', () => {
    const hostile = { name: 'x', pullSecret: '/etc/shadow', kubeconfig: '/root/.kube/config', render: true } as unknown as ClusterForm;
    const { argv, files } = formToArgs(hostile);
    assert.deepEqual(argv, ['--name=x', '--pull-secret=/console/pull-secret']);
    assert.deepEqual(files, { '/console/pull-secret': '/etc/shadow' });
  });

  it('When the uploaded infrastructure kubeconfig would run a program or read a file here, it should be refused at its field', async () => {
    const exec = INFRA_KUBECONFIG.replace('    token: abc\n', '    exec:\n      command: /bin/sh\n      args: ["-c", "touch /tmp/pwned"]\n      apiVersion: client.authentication.k8s.io/v1\n');
    const files = exec.replace('    server: https://infra.example.com:6443\n', '    server: https://infra.example.com:6443\n    certificate-authority: /etc/shadow\n');
    const result = await renderForm(inProcessHcp, { name: 'x', releaseImage: RELEASE, pullSecret: PULL_SECRET, infraKubeconfig: files, infraNamespace: 'guests' }, FIXED);
    assert.equal(result.ok, false);
    assert.deepEqual(result.errors.map((e) => e.field), ['infraKubeconfig']);
    assert.match(result.errors[0]?.message ?? '', /: cluster "infra" names a file \("certificate-authority"\)$/);
    const execOnly = await renderForm(inProcessHcp, { name: 'x', releaseImage: RELEASE, pullSecret: PULL_SECRET, infraKubeconfig: exec, infraNamespace: 'guests' }, FIXED);
    assert.match(execOnly.errors[0]?.message ?? '', /: user "infra" runs a program \("exec"\)$/);
    const tokenFile = INFRA_KUBECONFIG.replace('    token: abc\n', '    token-file: /var/run/secrets/kubernetes.io/serviceaccount/token\n');
    const tokenFileResult = await renderForm(inProcessHcp, { name: 'x', releaseImage: RELEASE, pullSecret: PULL_SECRET, infraKubeconfig: tokenFile, infraNamespace: 'guests' }, FIXED);
    assert.match(tokenFileResult.errors[0]?.message ?? '', /: user "infra" names a file \("token-file"\)$/);
  });

  it('When a message names a flag, it should be placed at that flag\'s field, else at the form', () => {
    assert.equal(fieldOfMessage('invalid --memory "lots": must be a quantity'), 'memory');
    assert.equal(fieldOfMessage('required flag(s) "--pull-secret" not set'), 'pullSecret');
    assert.equal(fieldOfMessage('something else went wrong'), 'form');
  });
});
