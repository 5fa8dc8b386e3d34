/** An error answered by the API server, with its HTTP status and Status reason/message. */
export class KubeApiError extends Error {
  readonly status: number;
  readonly reason: string;
  constructor(status: number, reason: string, message: string) {
    super(message);
    this.name = 'KubeApiError';
    this.status = status;
    this.reason = reason;
  }
}

/** Whether an error is a 404 from the API server. */
export const isNotFound = (error: unknown): boolean => error instanceof KubeApiError && error.status === 404;

/** Whether the API server refused the caller the request (403: RBAC, or a namespaced identity outside its namespace). */
export const isForbidden = (error: unknown): boolean => error instanceof KubeApiError && error.status === 403;

/** Whether a create failed because the object exists already (409). */
export const isAlreadyExists = (error: unknown): boolean => error instanceof KubeApiError && error.status === 409;

/** Whether a write carrying a resourceVersion was refused because the object changed since that version (409 Conflict). */
export const isConflict = (error: unknown): boolean => error instanceof KubeApiError && error.status === 409 && error.reason === 'Conflict';

/** Raised when the server does not serve a kind (its CRD is not installed, or the API group is absent). */
export class UnservedKindError extends Error {
  readonly apiVersion: string;
  readonly kind: string;
  constructor(apiVersion: string, kind: string) {
    super(`the server does not serve ${kind} in ${apiVersion}`);
    this.name = 'UnservedKindError';
    this.apiVersion = apiVersion;
    this.kind = kind;
  }
}
