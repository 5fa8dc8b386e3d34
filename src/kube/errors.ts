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
