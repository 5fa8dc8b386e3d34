import { EnvironmentError } from '../../local/environment/errors.ts';
import { HostCommandError } from '../../local/environment/host.ts';
import { UserError } from './errors.ts';

/** Environment failures are the user's to act on: one message, exit 1. */
export async function asUserErrors<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof EnvironmentError || error instanceof HostCommandError) throw new UserError(error.message);
    throw error;
  }
}
