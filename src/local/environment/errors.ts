/** Raised when the environment cannot be brought up or down for a reason the user must act on; the message says how. */
export class EnvironmentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EnvironmentError';
  }
}
