import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { UntrustedKubeconfigError } from '../kube/untrusted-kubeconfig.ts';
import { KubeconfigClients } from './kubeconfig-clients.ts';

const kubeconfig = (user: string): string =>
  `apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: "https://infra:6443"}}]\nusers: [{name: admin, user: ${user}}]\ncontexts: [{name: x, context: {cluster: c, user: admin}}]\ncurrent-context: x\n`;

describe('kubeconfig clients', () => {
  it('When the kubeconfig is unchanged, it should reuse the client; when it changes, it should replace it', () => {
    const clients = new KubeconfigClients();
    const first = clients.clientFor('uid', kubeconfig('{token: t1}'));
    assert.equal(clients.clientFor('uid', kubeconfig('{token: t1}')), first);
    assert.notEqual(clients.clientFor('uid', kubeconfig('{token: t2}')), first);
    clients.forget('uid');
  });

  it('When a tenant\'s kubeconfig names a token file, it should refuse it and keep the client it had', () => {
    const clients = new KubeconfigClients();
    const first = clients.clientFor('uid', kubeconfig('{token: t1}'));
    assert.throws(() => clients.clientFor('uid', kubeconfig('{token-file: /var/run/secrets/kubernetes.io/serviceaccount/token}')), UntrustedKubeconfigError);
    assert.equal(clients.existing('uid'), first);
    clients.forget('uid');
  });
});
