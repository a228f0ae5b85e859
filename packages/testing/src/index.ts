export { createFakeToolHost, type FakeToolHost, type FakeToolHostOptions, type RecordedCall } from './create-fake-tool-host.js';
export { createScriptedExecTools, UNSCRIPTED_COMMAND, type ScriptedExecTools, type ScriptedExecOptions } from './scripted-exec.js';
export {
  matchesScript,
  matchesInput,
  type FakeCommand,
  type FakeCommandAnswer,
  type FakeCommandRun,
  type FakeStdinReply,
} from './fake-command.js';
