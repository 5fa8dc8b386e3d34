/** Base64 of a UTF-8 string or of bytes (Secret `data` values). */
export const toBase64 = (value: string | Uint8Array): string => (typeof value === 'string' ? Buffer.from(value, 'utf8') : Buffer.from(value)).toString('base64');

/** The UTF-8 text of a base64 value; '' for undefined. */
export const fromBase64 = (value: string | undefined): string => Buffer.from(value ?? '', 'base64').toString('utf8');
