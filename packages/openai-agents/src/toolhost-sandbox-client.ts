import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  normalizeSandboxClientCreateArgs,
  type Manifest,
  type SandboxClient,
  type SandboxClientCreateArgs,
  type SandboxClientOptions,
} from '@openai/agents-core/sandbox';
import { ToolHostError, createLocalEnvironment, createToolHost, type Environment, type ToolHost, type ToolHostOptions } from 'toolhost';
import { materializeEntries } from './manifest-entries.js';
import {
  checkManifestSupported,
  createToolHostSandboxSession,
  withRootAndEntries,
  type ToolHostSandboxSession,
  type ToolHostSandboxSessionState,
} from './toolhost-sandbox-session.js';

/** Options of {@link createToolHostSandboxClient}. */
export interface ToolHostSandboxClientOptions {
  /**
   * Starts the environment of each new session (`createDockerEnvironment`, `createSshEnvironment`, …); the session
   * owns it and closes it. Default: a new temporary folder on this machine, removed when the session closes.
   */
  environment?: () => Environment | Promise<Environment>;
  /** Options of each session's tool host (profile, budgets, gateway, …) other than where it runs. */
  host?: Omit<ToolHostOptions, 'workspace' | 'environment'>;
}

/** An Agents SDK sandbox client whose sessions run on a toolhost environment. */
export interface ToolHostSandboxClient extends SandboxClient<SandboxClientOptions, ToolHostSandboxSessionState> {
  readonly backendId: 'toolhost';
  create(args?: SandboxClientCreateArgs | Manifest, manifestOptions?: SandboxClientOptions): Promise<ToolHostSandboxSession>;
  /** Closes the live session that owns `state` (its host, environment and processes); nothing when none does. */
  delete(state: ToolHostSandboxSessionState): Promise<void>;
}

async function temporaryEnvironment(): Promise<{ environment: Environment; remove: () => Promise<void> }> {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'toolhost-sandbox-')));
  return { environment: createLocalEnvironment({ root }), remove: () => rm(root, { recursive: true, force: true }) };
}

/**
 * Creates a sandbox client for `@openai/agents-core`'s sandbox agents (`run(agent, input, { sandbox: { client } })`):
 * each session is a tool host on its own environment, so the agent's exec_command, write_stdin and apply_patch get
 * toolhost's budgets, spooled output, process cleanup, boundary checks and atomic patches.
 *
 * @example
 * ```ts
 * import { run } from '@openai/agents';
 * import { SandboxAgent } from '@openai/agents/sandbox';
 * import { createDockerEnvironment } from '@toolhost/docker';
 * import { createToolHostSandboxClient } from '@toolhost/openai-agents';
 *
 * const agent = new SandboxAgent({ name: 'fixer', instructions: 'Run the tests and fix what fails.' });
 * // Each session in a new temporary folder; or pass environment: () => createDockerEnvironment({ image, root }).
 * const result = await run(agent, 'The add() test fails.', { sandbox: { client: createToolHostSandboxClient() } });
 * ```
 */
export function createToolHostSandboxClient(options: ToolHostSandboxClientOptions = {}): ToolHostSandboxClient {
  const live = new WeakMap<ToolHostSandboxSessionState, ToolHostSandboxSession>();
  return {
    backendId: 'toolhost',
    serializedSessionStateRequiresFreshCreation: true,
    async create(args, manifestOptions) {
      const { manifest, snapshot } = normalizeSandboxClientCreateArgs(args, manifestOptions);
      if (snapshot !== undefined)
        throw new ToolHostError('unsupported', 'a toolhost sandbox does not take workspace snapshots; leave sandbox.snapshot unset');
      checkManifestSupported(manifest);
      const environmentVariables = await manifest.resolveEnvironment();
      const temporary = options.environment ? undefined : await temporaryEnvironment();
      let environment: Environment;
      try {
        environment = temporary ? temporary.environment : await options.environment!();
      } catch (error) {
        await temporary?.remove();
        throw error;
      }
      let host: ToolHost;
      try {
        const shellEnvironment = {
          ...options.host?.shellEnvironment,
          set: { ...options.host?.shellEnvironment?.set, ...environmentVariables },
        };
        host = createToolHost({ ...options.host, environment, shellEnvironment });
      } catch (error) {
        await environment.close();
        await temporary?.remove();
        throw error;
      }
      const workspace = environment.workspace;
      const state: ToolHostSandboxSessionState = {
        manifest: withRootAndEntries(manifest, workspace.root, manifest.entries),
        environment: environmentVariables,
        workspaceRoot: workspace.root,
        environmentKind: environment.kind,
      };
      const session = createToolHostSandboxSession({
        host,
        workspace,
        state,
        afterClose: async () => {
          live.delete(state);
          await temporary?.remove();
        },
      });
      try {
        await materializeEntries(workspace, manifest.entries);
      } catch (error) {
        await session.close();
        throw error;
      }
      live.set(state, session);
      return session;
    },
    async delete(state) {
      await live.get(state)?.close();
    },
  };
}
