import { startCommand, ToolHostError, type Workspace } from 'toolhost';
import { createAgentsEditor, type AgentsEditor } from '@toolhost/openai';
import {
  Manifest,
  type ExecCommandArgs,
  type ListDirectoryArgs,
  type MaterializeEntryArgs,
  type ReadFileArgs,
  type SandboxDirectoryEntry,
  type SandboxExecResult,
  type SandboxSession,
  type SandboxSessionState,
  type ViewImageArgs,
  type WriteStdinArgs,
} from '@openai/agents-core/sandbox';
import type { ToolHost } from 'toolhost';
import { materializeEntries } from './manifest-entries.js';
import { viewWorkspaceImage, type ViewedImage } from './view-image.js';
import { checkedPath, listWorkspaceDirectory, readWorkspaceFile, workspacePathKind } from './workspace-files.js';

/** The state of a toolhost sandbox session: the SDK's, plus where the environment's workspace is. */
export interface ToolHostSandboxSessionState extends SandboxSessionState {
  /** The workspace root as commands see it (the manifest's `root` is set to it). */
  workspaceRoot: string;
  /** What the environment is (`local`, `docker`, `ssh`, …). */
  environmentKind: string;
}

/** An Agents SDK sandbox session whose commands, edits and file reads go through a tool host. */
export interface ToolHostSandboxSession extends SandboxSession<ToolHostSandboxSessionState> {
  /** The tool host behind the session (its other tools, e.g. code_search, can be called directly). */
  readonly host: ToolHost;
  createEditor(runAs?: string): AgentsEditor;
  exec(args: ExecCommandArgs): Promise<SandboxExecResult>;
  execCommand(args: ExecCommandArgs): Promise<string>;
  writeStdin(args: WriteStdinArgs): Promise<string>;
  readFile(args: ReadFileArgs): Promise<Uint8Array>;
  viewImage(args: ViewImageArgs): Promise<ViewedImage>;
  listDir(args: ListDirectoryArgs): Promise<SandboxDirectoryEntry[]>;
  pathExists(path: string, runAs?: string): Promise<boolean>;
  directoryExists(path: string, runAs?: string): Promise<boolean>;
  materializeEntry(args: MaterializeEntryArgs): Promise<void>;
  applyManifest(manifest: Manifest, runAs?: string): Promise<void>;
  supportsPty(): boolean;
  running(): Promise<boolean>;
  shutdown(): Promise<void>;
  close(): Promise<void>;
}

/** What a session is built from: its host (which owns the environment), the workspace and extra cleanup. */
export interface ToolHostSandboxSessionParts {
  host: ToolHost;
  workspace: Workspace;
  state: ToolHostSandboxSessionState;
  /** Runs once after the host closed (e.g. removes a temporary workspace folder). */
  afterClose?: () => Promise<void>;
}

function refuseRunAs(runAs: string | undefined): void {
  if (runAs !== undefined && runAs !== '') {
    throw new ToolHostError(
      'unsupported',
      `a toolhost sandbox runs everything as the environment's user; runAs ${JSON.stringify(runAs)} is not supported`,
    );
  }
}

/** The manifest with the given root and entries and everything else of `manifest`. */
export function withRootAndEntries(manifest: Manifest, root: string, entries: Manifest['entries']): Manifest {
  return new Manifest({
    version: manifest.version,
    root,
    entries,
    environment: manifest.environment,
    remoteMountCommandAllowlist: manifest.remoteMountCommandAllowlist,
  });
}

/** Refuses manifest features a toolhost sandbox cannot honour (users, groups, extra path grants). */
export function checkManifestSupported(manifest: Manifest): void {
  if (manifest.users.length > 0 || manifest.groups.length > 0) {
    throw new ToolHostError(
      'unsupported',
      "a toolhost sandbox runs everything as the environment's user; manifest users and groups are not supported",
    );
  }
  if (manifest.extraPathGrants.length > 0) {
    throw new ToolHostError(
      'unsupported',
      'a toolhost sandbox keeps every path inside the workspace; manifest extraPathGrants are not supported',
    );
  }
}

/** Builds the session over a tool host: exec_command / write_stdin for commands, apply_patch for edits. */
export function createToolHostSandboxSession(parts: ToolHostSandboxSessionParts): ToolHostSandboxSession {
  const { host, workspace, state } = parts;
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => (closing ??= host.close().finally(() => parts.afterClose?.()));
  const execArguments = (args: ExecCommandArgs) => {
    refuseRunAs(args.runAs);
    return {
      cmd: args.cmd,
      ...(args.workdir ? { workdir: args.workdir } : {}),
      tty: args.tty ?? false,
      ...(args.yieldTimeMs !== undefined ? { yield_time_ms: args.yieldTimeMs } : {}),
      ...(args.maxOutputTokens !== undefined ? { max_output_tokens: args.maxOutputTokens } : {}),
    };
  };
  const recordEntries = async (entries: Manifest['entries']) => {
    const keyed: Manifest['entries'] = {};
    for (const [path, entry] of Object.entries(entries)) keyed[await checkedPath(workspace, path)] = entry;
    state.manifest = withRootAndEntries(state.manifest, state.workspaceRoot, { ...state.manifest.entries, ...keyed });
  };
  return {
    state,
    host,
    createEditor(runAs) {
      refuseRunAs(runAs);
      return createAgentsEditor(host);
    },
    async execCommand(args) {
      return (await host.call('exec_command', execArguments(args))).output;
    },
    async exec(args) {
      refuseRunAs(args.runAs);
      const step = await startCommand(host, args.cmd, {
        workdir: args.workdir,
        tty: args.tty ?? false,
        yieldMs: args.yieldTimeMs,
        maxOutputTokens: args.maxOutputTokens,
      });
      const { result } = step;
      if (!result.ok) return { output: result.output, stdout: '', stderr: result.output, wallTimeSeconds: 0, exitCode: null };
      // For a patch sent as a command the host answers itself (no command ran), the step's output is its whole text.
      const { sessionId } = step;
      const originalTokenCount = result.data?.original_token_count;
      return {
        output: step.output,
        stdout: step.output,
        stderr: '',
        wallTimeSeconds: step.wallTimeMs / 1000,
        exitCode: step.exitCode ?? null,
        ...(sessionId !== undefined ? { sessionId } : {}),
        ...(typeof originalTokenCount === 'number' ? { originalTokenCount } : {}),
      };
    },
    async writeStdin(args) {
      const call = {
        session_id: args.sessionId,
        chars: args.chars ?? '',
        ...(args.yieldTimeMs !== undefined ? { yield_time_ms: args.yieldTimeMs } : {}),
        ...(args.maxOutputTokens !== undefined ? { max_output_tokens: args.maxOutputTokens } : {}),
      };
      return (await host.call('write_stdin', call)).output;
    },
    async readFile(args) {
      refuseRunAs(args.runAs);
      return readWorkspaceFile(workspace, args.path, args.maxBytes);
    },
    async viewImage(args) {
      refuseRunAs(args.runAs);
      return viewWorkspaceImage(workspace, args.path);
    },
    async listDir(args) {
      refuseRunAs(args.runAs);
      return listWorkspaceDirectory(workspace, args.path);
    },
    async pathExists(path, runAs) {
      refuseRunAs(runAs);
      return (await workspacePathKind(workspace, path)) !== undefined;
    },
    async directoryExists(path, runAs) {
      refuseRunAs(runAs);
      return (await workspacePathKind(workspace, path)) === 'directory';
    },
    async materializeEntry(args) {
      refuseRunAs(args.runAs);
      await materializeEntries(workspace, { [args.path]: args.entry });
      await recordEntries({ [args.path]: args.entry });
    },
    async applyManifest(manifest, runAs) {
      refuseRunAs(runAs);
      checkManifestSupported(manifest);
      if (Object.keys(manifest.environment).length > 0) {
        throw new ToolHostError(
          'unsupported',
          'the environment variables of a toolhost sandbox are fixed when it is created; give them in the manifest passed to create()',
        );
      }
      await materializeEntries(workspace, manifest.entries);
      await recordEntries(manifest.entries);
    },
    supportsPty: () => true,
    running: async () => closing === undefined,
    shutdown: close,
    close,
  };
}
