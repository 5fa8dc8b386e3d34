import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { encodeRfc3986, presignedGetQuery, queryString, s3Signer, signedHeaders } from './signing.ts';

/** The example credentials and date of AWS's Signature Version 4 documentation for S3. */
const EXAMPLE = { accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY' };
const EXAMPLE_DATE = new Date('2013-05-24T00:00:00Z');
const EXAMPLE_HOST = { hostname: 'examplebucket.s3.amazonaws.com', host: 'examplebucket.s3.amazonaws.com' };
const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

describe('Signature Version 4 for S3', () => {
  it("When AWS's documented pre-signed GET is signed, it should give the documented query and signature", async () => {
    const query = await presignedGetQuery(s3Signer('us-east-1', EXAMPLE), { ...EXAMPLE_HOST, path: '/test.txt' }, 86400, EXAMPLE_DATE);
    assert.equal(
      query,
      'X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20130524T000000Z&X-Amz-Expires=86400' +
        '&X-Amz-Signature=aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404&X-Amz-SignedHeaders=host',
    );
  });

  it("When AWS's documented bucket listing is signed, it should carry the documented Authorization header", async () => {
    const headers = await signedHeaders(s3Signer('us-east-1', EXAMPLE), { method: 'GET', address: { ...EXAMPLE_HOST, path: '/' }, query: { 'max-keys': '2', prefix: 'J' }, payloadHash: EMPTY_SHA256, signingDate: EXAMPLE_DATE });
    assert.equal(
      headers['authorization'],
      'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, SignedHeaders=host;x-amz-content-sha256;x-amz-date, Signature=34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7',
    );
    assert.equal(headers['x-amz-date'], '20130524T000000Z');
    assert.equal(headers['x-amz-content-sha256'], EMPTY_SHA256);
  });

  it('When names and values hold reserved characters, they should be encoded as RFC 3986 has it, in sorted order', () => {
    assert.equal(encodeRfc3986("a b/c+d!'()*~._-"), 'a%20b%2Fc%2Bd%21%27%28%29%2A~._-');
    assert.equal(queryString({ prefix: 'hc a/', 'list-type': '2', 'continuation-token': 'x=y' }), 'continuation-token=x%3Dy&list-type=2&prefix=hc%20a%2F');
  });
});
