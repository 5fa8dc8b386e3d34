import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseErrorDocument, parseListPage, unescapeXml } from './xml.ts';

const page = (contents: string, tail = '<IsTruncated>false</IsTruncated>'): string =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>hcp-etcd-backups</Name><Prefix>hc/</Prefix><KeyCount>2</KeyCount>${contents}${tail}</ListBucketResult>`;

describe('parseListPage', () => {
  it('When a page lists objects, it should give each key, size, modification time and unquoted entity tag', () => {
    const xml = page(
      '<Contents><Key>hc/a &amp; b&lt;1&gt;.db</Key><LastModified>2026-11-27T05:00:00.000Z</LastModified><ETag>&#34;0f343b0931126a20f133d67c2b018a3b&#34;</ETag><Size>1048576</Size><StorageClass>STANDARD</StorageClass></Contents>' +
        '<Contents><Key>hc/&#x00e9;t&#233;.db</Key><LastModified>2026-11-27T05:01:00.000Z</LastModified><ETag>&quot;abc&quot;</ETag><Size>0</Size></Contents>',
    );
    assert.deepEqual(parseListPage(xml), {
      objects: [
        { key: 'hc/a & b<1>.db', size: 1048576, lastModified: '2026-11-27T05:00:00.000Z', etag: '0f343b0931126a20f133d67c2b018a3b' },
        { key: 'hc/été.db', size: 0, lastModified: '2026-11-27T05:01:00.000Z', etag: 'abc' },
      ],
    });
  });

  it('When a page is truncated, it should give the token of the next page; an empty last page should give none', () => {
    assert.equal(parseListPage(page('', '<IsTruncated>true</IsTruncated><NextContinuationToken>hc/b.db</NextContinuationToken>'))?.nextContinuationToken, 'hc/b.db');
    assert.deepEqual(parseListPage(page('', '<IsTruncated>false</IsTruncated><NextContinuationToken/>')), { objects: [] });
  });

  it('When the answer is not a listing or an entry lacks its key or size, it should say so with undefined', () => {
    assert.equal(parseListPage('<Error><Code>NoSuchBucket</Code></Error>'), undefined);
    assert.equal(parseListPage(page('<Contents><Size>3</Size></Contents>')), undefined);
    assert.equal(parseListPage(page('<Contents><Key>k</Key><Size>many</Size></Contents>')), undefined);
  });
});

describe('parseErrorDocument', () => {
  it('When the store sends an error document, it should give its code and message, unescaped', () => {
    const xml = '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>SignatureDoesNotMatch</Code><Message>Check your key &amp; signing method.</Message><RequestId>1</RequestId></Error>';
    assert.deepEqual(parseErrorDocument(xml), { code: 'SignatureDoesNotMatch', message: 'Check your key & signing method.' });
  });

  it('When the body is empty or not an error document, it should give nothing', () => {
    assert.deepEqual(parseErrorDocument(''), {});
    assert.deepEqual(parseErrorDocument('<html>Bad Gateway</html>'), {});
  });
});

describe('unescapeXml', () => {
  it('When text holds an unknown entity, it should be kept as it is', () => {
    assert.equal(unescapeXml('a &nbsp; b &amp;amp;'), 'a &nbsp; b &amp;');
  });
});
