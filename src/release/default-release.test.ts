import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { flavourOfStream, supportedReleaseTags } from './default-release.ts';

describe('default release choice', () => {
  it('When tags mix versions, flavours and pre-releases, it should keep GA tags of supported minors in the flavour, newest first', () => {
    const tags = ['4.17.9-multi', '4.17.12-multi', '4.18.1-multi', '4.16.30-multi', '4.17.12-x86_64', '4.17.0-rc.3-multi', '4.17.0-ec.1-multi', 'latest', '4.13.9-multi'];
    assert.deepEqual(supportedReleaseTags(tags, ['4.17', '4.16', '4.15', '4.14'], 'multi'), ['4.17.12-multi', '4.17.9-multi', '4.16.30-multi']);
  });

  it('When the stream names an architecture, it should be the flavour; otherwise multi', () => {
    assert.equal(flavourOfStream('4-stable-multi'), 'multi');
    assert.equal(flavourOfStream('4-stable'), 'multi');
    assert.equal(flavourOfStream('4-stable-x86_64'), 'x86_64');
    assert.equal(flavourOfStream(''), 'multi');
  });
});
