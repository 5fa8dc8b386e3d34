/**
 * The few S3 XML documents the client reads: a ListObjectsV2 page and an error. Pure. S3 writes them as flat,
 * well-formed XML without CDATA or comments, so the elements are found by name and their text unescaped.
 */

/** One object of a listing. */
export interface S3Object {
  readonly key: string;
  readonly size: number;
  /** ISO 8601, as the store wrote it. */
  readonly lastModified: string;
  /** The entity tag without its quotes (the MD5 of a single-part upload's content, in hex). */
  readonly etag: string;
}

/** One page of a ListObjectsV2 answer. */
export interface ListPage {
  readonly objects: readonly S3Object[];
  /** The token of the next page; absent on the last page. */
  readonly nextContinuationToken?: string;
}

const NAMED_ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** An element's text with XML's five named entities and numeric references resolved; unknown ones are kept. */
export function unescapeXml(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-z]+);/g, (whole, ref: string) => {
    if (ref.startsWith('#x')) return String.fromCodePoint(parseInt(ref.slice(2), 16));
    if (ref.startsWith('#')) return String.fromCodePoint(parseInt(ref.slice(1), 10));
    return NAMED_ENTITIES[ref] ?? whole;
  });
}

/** The texts of every `<name>` element directly in `xml` (elements of that name at any depth), unescaped. */
function elements(xml: string, name: string): string[] {
  const pattern = new RegExp(`<${name}(?:\\s[^>]*)?(?:/>|>([\\s\\S]*?)</${name}>)`, 'g');
  return [...xml.matchAll(pattern)].map((m) => m[1] ?? '');
}

/** The unescaped text of the first `<name>` element, undefined when there is none. */
function text(xml: string, name: string): string | undefined {
  const [first] = elements(xml, name);
  return first === undefined ? undefined : unescapeXml(first);
}

/** An object entry of a listing; undefined when it lacks a key or a numeric size. */
function objectOf(contents: string): S3Object | undefined {
  const key = text(contents, 'Key');
  const size = Number(text(contents, 'Size'));
  if (key === undefined || !Number.isInteger(size) || size < 0) return undefined;
  return { key, size, lastModified: text(contents, 'LastModified') ?? '', etag: (text(contents, 'ETag') ?? '').replace(/^"|"$/g, '') };
}

/** A ListObjectsV2 answer (`<ListBucketResult>`); undefined when it is not one or an entry is malformed. */
export function parseListPage(xml: string): ListPage | undefined {
  if (!/<ListBucketResult[\s>]/.test(xml)) return undefined;
  const objects = elements(xml, 'Contents').map(objectOf);
  if (objects.some((o) => o === undefined)) return undefined;
  const truncated = text(xml, 'IsTruncated') === 'true';
  const token = text(xml, 'NextContinuationToken');
  return { objects: objects as S3Object[], ...(truncated && token !== undefined && token !== '' ? { nextContinuationToken: token } : {}) };
}

/** The code and message of an S3 error document (`<Error><Code>…</Code><Message>…</Message></Error>`), if it is one. */
export function parseErrorDocument(xml: string): { readonly code?: string; readonly message?: string } {
  if (!/<Error[\s>]/.test(xml)) return {};
  const code = text(xml, 'Code');
  const message = text(xml, 'Message');
  return { ...(code === undefined || code === '' ? {} : { code }), ...(message === undefined || message === '' ? {} : { message }) };
}
