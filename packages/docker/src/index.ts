export { createDockerEnvironment, type DockerEnvironment, type DockerEnvironmentOptions } from './docker-environment.js';
export { createScriptWorkspace, type ScriptOutcome, type ScriptRunner } from '@toolhost/remote';
