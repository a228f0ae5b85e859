/**
 * The kit remote environments are built on. A transport starts POSIX sh scripts on a remote with streams and an exit
 * (`RemoteTransport`); `createRemoteEnvironment` builds the rest on it: the script workspace on helper shells (or the
 * transport's own file channel), commands with their exit sentinel, process scans and kills by marker.
 *
 * @module @toolhost/remote
 */
export type { RemoteChannel, RemoteEnd, RemoteRole, RemoteStartRequest, RemoteTransport } from './remote-transport.js';
export { createRemoteEnvironment, type RemoteEnvironmentOptions } from './remote-environment.js';
export { runRemoteBatch, runRemoteScript, type ScriptOutcome, type ScriptRunner } from './script-runner.js';
export type { ScriptBatchRunner, ScriptStep } from './script-steps.js';
export { createScriptWorkspace, type ScriptWorkspaceOptions } from './script-workspace.js';
export { RemoteCommandOutput } from './remote-command-output.js';
export { REMOTE_START_SCRIPT, REMOTE_RIPGREP_SCRIPT, remoteStartArguments, remoteFindScript, remoteKillScript } from './remote-scripts.js';
