import { s } from '../../schema/build.ts';
import type { ObjectSchema } from '../../schema/model.ts';
import { condition } from './common.ts';

const releaseRef = s.object(
  'ReleaseRef',
  'A release the cluster runs or can update to.',
  {
    version: s.string('The semantic version of the release.'),
    image: s.string('The pull spec of the release image.'),
    url: s.string('A web page describing the release.'),
    channels: s.array('Update channels the release is in.', s.string('A channel.'), { listType: 'set' }),
  },
  { required: ['version', 'image'] },
);

const updateHistory = s.object(
  'UpdateHistory',
  'One update the cluster went through, newest first.',
  {
    state: s.string('Completed when the update finished, Partial while it is under way or if it failed.'),
    startedTime: s.string('When the update started.', { format: 'date-time' }),
    completionTime: s.string('When the update finished; null while under way.', { format: 'date-time', nullable: true }),
    version: s.string('The semantic version of the release.'),
    image: s.string('The pull spec of the release image.'),
    verified: s.bool('Whether the release signature was verified.'),
    acceptedRisks: s.string('Risks the user accepted for this update.'),
  },
  { required: ['completionTime', 'image', 'startedTime', 'state', 'verified'] },
);

/** `status.version` of a HostedCluster: the data-plane release history. */
export const clusterVersionStatus: ObjectSchema = s.object(
  'ClusterVersionStatus',
  'The release history and available updates of the cluster.',
  {
    desired: releaseRef,
    history: s.array('The update history, newest first.', updateHistory),
    observedGeneration: s.int64('The generation of the spec the status refers to.'),
    availableUpdates: s.array('Updates the cluster can take.', releaseRef, { maxItems: 100, nullable: true }),
    conditionalUpdates: s.array('Updates the cluster can take if the listed risks are accepted.', s.opaque('A conditional update.'), {
      maxItems: 100,
      listType: 'atomic',
    }),
  },
  { required: ['availableUpdates', 'desired', 'observedGeneration'] },
);

const controlPlaneUpdateHistory = s.object(
  'ControlPlaneUpdateHistory',
  'One control-plane update, newest first.',
  {
    state: s.enum('ControlPlaneUpdateState', 'Completed or Partial.', ['Completed', 'Partial']),
    startedTime: s.string('When the update started.', { format: 'date-time' }),
    completionTime: s.string('When the update finished.', { format: 'date-time' }),
    version: s.string('The semantic version of the release.', {
      minLength: 1,
      maxLength: 64,
      rules: [{ rule: "self.matches('^\\\\d+\\\\.\\\\d+\\\\.\\\\d+.*')", message: 'version must start with semantic version prefix x.y.z' }],
    }),
    image: s.string('The pull spec of the release image.', { minLength: 1, maxLength: 447 }),
  },
  { required: ['image', 'startedTime', 'state', 'version'] },
);

/** `status.controlPlaneVersion` of a HostedCluster. */
export const controlPlaneVersionStatus: ObjectSchema = s.object(
  'ControlPlaneVersionStatus',
  'The release history of the control plane alone.',
  {
    desired: releaseRef,
    history: s.array('The update history, newest first.', controlPlaneUpdateHistory, {
      minItems: 1,
      maxItems: 100,
      listType: 'atomic',
    }),
    observedGeneration: s.int64('The generation of the spec the status refers to.', { minimum: 1, maximum: 9007199254740992 }),
  },
  { required: ['desired'] },
);

/** A conditions list keyed by type, as used by HostedCluster and HostedControlPlane. */
export const conditions = s.array('The observed state, one entry per condition type.', condition, {
  maxItems: 100,
  listType: 'map',
  listMapKeys: ['type'],
});
