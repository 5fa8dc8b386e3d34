/** Whether a JSON value is an object (not null, not an array). */
export const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A JSON value as an object to read fields from: itself when it is one, an empty object otherwise. */
export const asRecord = (value: unknown): Record<string, unknown> => (isPlainObject(value) ? value : {});

/** A JSON value as a list: itself when it is an array, empty otherwise. */
export const asList = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** When an object was created, in milliseconds since the epoch; 0 when its server did not say, or said nonsense. */
export const createdAtMs = (object: { readonly metadata?: { readonly creationTimestamp?: string } }): number => Date.parse(object.metadata?.creationTimestamp ?? '') || 0;
