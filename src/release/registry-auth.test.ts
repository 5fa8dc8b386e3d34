import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { credentialsFor, parseChallenge, registryOfAuthsKey, tokenURL } from './registry-auth.ts';

const b64 = (s: string): string => Buffer.from(s).toString('base64');
const PULL_SECRET = JSON.stringify({
  auths: {
    'quay.io': { auth: b64('robot+ci:s3cr:et'), email: 'x@example.com' },
    'https://registry.local:5443/v2/': { username: 'alice', password: 'pw' },
    'https://index.docker.io/v1/': { auth: b64('hub:token') },
    'empty.io': { auth: '' },
  },
});

describe('registry authentication', () => {
  it('When the pull secret has an entry for the registry, it should give its user and password, whatever form the key takes', () => {
    assert.deepEqual(credentialsFor(PULL_SECRET, 'quay.io'), { username: 'robot+ci', password: 's3cr:et' });
    assert.deepEqual(credentialsFor(PULL_SECRET, 'registry.local:5443'), { username: 'alice', password: 'pw' });
    assert.deepEqual(credentialsFor(PULL_SECRET, 'docker.io'), { username: 'hub', password: 'token' });
    assert.equal(credentialsFor(PULL_SECRET, 'empty.io'), undefined);
    assert.equal(credentialsFor(PULL_SECRET, 'registry.redhat.io'), undefined);
  });

  it('When the pull secret is not a docker config, it should say so without echoing it', () => {
    assert.throws(() => credentialsFor('not json s3cret', 'quay.io'), (error: Error) => /not JSON/.test(error.message) && !error.message.includes('s3cret'));
    assert.throws(() => credentialsFor(JSON.stringify({ auths: { 'quay.io': { auth: b64('nocolon') } } }), 'quay.io'), /not base64 of user:password/);
  });

  it('When a registry challenges, it should read bearer realm, service and scope, or basic; and build the token request', () => {
    const challenge = parseChallenge('Bearer realm="https://auth.example.com/token",service="registry.example.com",scope="repository:ocp/release:pull"');
    assert.deepEqual(challenge, { scheme: 'bearer', realm: 'https://auth.example.com/token', service: 'registry.example.com', scope: 'repository:ocp/release:pull' });
    assert.deepEqual(parseChallenge('Basic realm="test-registry"'), { scheme: 'basic' });
    assert.equal(parseChallenge('Negotiate abc'), undefined);
    assert.equal(parseChallenge('Bearer service="x"'), undefined);
    if (challenge?.scheme === 'bearer') assert.equal(tokenURL({ scheme: 'bearer', realm: challenge.realm, service: 'registry.example.com' }, 'ocp/release'), 'https://auth.example.com/token?service=registry.example.com&scope=repository%3Aocp%2Frelease%3Apull');
  });

  it('When a docker config key is a URL or one of Docker Hub\'s names, it should name the registry as image references do', () => {
    assert.deepEqual(['https://index.docker.io/v1/', 'registry-1.docker.io', 'https://quay.io/v2/', 'registry.example.com:5000'].map(registryOfAuthsKey), ['docker.io', 'docker.io', 'quay.io', 'registry.example.com:5000']);
  });
});
