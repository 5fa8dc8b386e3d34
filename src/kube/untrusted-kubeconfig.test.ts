import assert from 'node:assert/strict';
import type { RequestOptions } from 'node:https';
import { describe, it } from 'node:test';
import { handOutProblem, inlineAuth, parseUntrustedKubeconfig, UntrustedKubeconfigError } from './untrusted-kubeconfig.ts';

const CA = Buffer.from('-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n').toString('base64');
const KEY = Buffer.from('-----BEGIN EC PRIVATE KEY-----\nMHc\n-----END EC PRIVATE KEY-----\n').toString('base64');

/** A kubeconfig whose cluster and user entries are the given YAML flow mappings. */
const kubeconfig = (cluster: string, user: string, extra = ''): string =>
  `apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: ${cluster}}]\nusers: [{name: u, user: ${user}}]\ncontexts: [{name: x, context: {cluster: c, user: u, namespace: ns}}]\ncurrent-context: x\n${extra}`;

const refused = (text: string, message: RegExp): void => assert.throws(() => parseUntrustedKubeconfig(text), (e: unknown) => e instanceof UntrustedKubeconfigError && message.test(e.message));

describe('untrusted kubeconfigs', () => {
  it('When a kubeconfig holds only inline data, it should take the server, CA, token, client certificate and key', async () => {
    const parsed = parseUntrustedKubeconfig(kubeconfig(`{server: "https://infra.example:6443/", certificate-authority-data: ${CA}}`, `{token: abc.def, client-certificate-data: ${CA}, client-key-data: ${KEY}}`));
    assert.equal(parsed.server, 'https://infra.example:6443');
    assert.match(parsed.caPem ?? '', /BEGIN CERTIFICATE/);
    assert.match(parsed.clientKeyPem ?? '', /BEGIN EC PRIVATE KEY/);
    const options: RequestOptions = {};
    await inlineAuth(parsed).applyToHTTPSOptions(options);
    assert.equal((options.headers as Record<string, string> | undefined)?.['authorization'], 'Bearer abc.def');
    assert.equal(options.rejectUnauthorized, true);
  });

  it('When a user entry runs a program, it should refuse it by name', () => {
    refused(kubeconfig('{server: "https://a:6443"}', '{exec: {apiVersion: client.authentication.k8s.io/v1, command: /bin/sh, args: [-c, id]}}'), /^user "u" runs a program \("exec"\)$/);
  });

  it('When a user entry names a token file (the operator\'s own service-account token), it should refuse it', () => {
    refused(kubeconfig('{server: "https://a:6443"}', '{token-file: /var/run/secrets/kubernetes.io/serviceaccount/token}'), /user "u" names a file \("token-file"\)/);
  });

  it('When an entry names a certificate, key or CA file, or an auth provider, proxy, basic auth or impersonation, it should refuse each', () => {
    refused(kubeconfig('{server: "https://a:6443"}', '{client-certificate: /etc/x.crt}'), /names a file \("client-certificate"\)/);
    refused(kubeconfig('{server: "https://a:6443"}', '{client-key: /etc/x.key}'), /names a file \("client-key"\)/);
    refused(kubeconfig('{server: "https://a:6443", certificate-authority: /etc/ca.crt}', '{}'), /cluster "c" names a file \("certificate-authority"\)/);
    refused(kubeconfig('{server: "https://a:6443"}', '{auth-provider: {name: oidc, config: {id-token: x}}}'), /auth provider/);
    refused(kubeconfig('{server: "https://a:6443", proxy-url: "http://10.0.0.1:3128"}', '{}'), /names a proxy/);
    refused(kubeconfig('{server: "https://a:6443"}', '{username: a, password: b}'), /basic authentication/);
    refused(kubeconfig('{server: "https://a:6443"}', '{token: t, as: system:admin}'), /impersonates/);
  });

  it('When a field is unknown to kubeconfigs of today, it should refuse it rather than guess what it does', () => {
    refused(kubeconfig('{server: "https://a:6443"}', '{token: t, credential-helper: x}'), /has the field "credential-helper", which is not accepted here/);
  });

  it('When the server is plain http, or carries credentials in its URL, it should refuse it', () => {
    refused(kubeconfig('{server: "http://a:6443"}', '{token: t}'), /"server" is not an https:\/\/ URL/);
    refused(kubeconfig('{server: "https://me:pw@a:6443"}', '{token: t}'), /carries credentials in its URL/);
    refused(kubeconfig('{}', '{token: t}'), /has no valid "server" URL/);
  });

  it('When a token would break its header (a newline), it should refuse it without quoting it', () => {
    refused(kubeconfig('{server: "https://a:6443"}', '{token: "abc\\r\\nX-Injected: 1"}'), /^user "u" "token" holds characters a bearer token cannot have$/);
  });

  it('When certificate data is not base64 of a PEM block, it should say which field', () => {
    refused(kubeconfig('{server: "https://a:6443", certificate-authority-data: "%%%"}', '{}'), /"certificate-authority-data" is not base64/);
    refused(kubeconfig(`{server: "https://a:6443"}`, `{client-key-data: ${Buffer.from('not pem').toString('base64')}}`), /"client-key-data" does not hold a PEM block/);
  });

  it('When the context names a missing entry, or there is no context, it should say so', () => {
    refused('apiVersion: v1\nkind: Config\nclusters: []\nusers: []\ncontexts: [{name: x, context: {cluster: c, user: u}}]\ncurrent-context: x\n', /names cluster "c" but has no such entry in clusters/);
    refused('apiVersion: v1\nkind: Config\nclusters: []\nusers: []\ncontexts: []\n', /has no current-context/);
  });

  it('When the text is not a YAML mapping, or uses aliases, it should refuse it', () => {
    refused('- a\n- b\n', /not a YAML mapping/);
    refused('a: &x [1]\nb: *x\n', /not valid YAML/);
  });

  it('When another user entry than the current one runs a program, it should still be refused (kubectl --user picks any)', () => {
    const twoUsers = kubeconfig('{server: "https://a:6443"}', '{token: t}').replace('users: [{name: u, user: {token: t}}]', 'users: [{name: u, user: {token: t}}, {name: v, user: {exec: {command: sh}}}]');
    refused(twoUsers, /user "v" runs a program/);
  });

  it('When client-go\'s own spelling names a token file, it should say it names a file', () => {
    refused(kubeconfig('{server: "https://a:6443"}', '{tokenFile: /var/run/secrets/kubernetes.io/serviceaccount/token}'), /names a file \("tokenFile"\)/);
  });

  it('When a kubeconfig is handed on, it should be refused for any dangerous entry, but not for having no context', () => {
    assert.equal(handOutProblem('apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: "https://a:6443", certificate-authority-data: ""}}]\nusers: [{name: u, user: {token: abc}}]\ncontexts: []\ncurrent-context: ""\n'), undefined);
    assert.match(handOutProblem(kubeconfig('{server: "https://a:6443"}', '{exec: {command: sh}}')) ?? '', /runs a program/);
  });
});
