export { createSshEnvironment, type SshEnvironment, type SshEnvironmentOptions } from './ssh-environment.js';
