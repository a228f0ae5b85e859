// Compiled in the packed consumer project against the installed .d.ts files (ESM view), with skipLibCheck off.
import { createToolHost, ToolHostError, type CatalogEntry, type ExecGateway, type ToolHost, type ToolResult } from 'toolhost';
import { createFakeToolHost, type FakeToolHost } from '@toolhost/testing';
import { toResponsesTools, answerResponsesCalls } from '@toolhost/openai';
import { toAnthropicTools, answerToolUses } from '@toolhost/anthropic';
import { createAiSdkTools, toAiSdkTools } from '@toolhost/ai-sdk';
import { toLangChainTools, toolHostMiddleware } from '@toolhost/langchain';
import { createAgent } from 'langchain';
import { fakeModel } from '@langchain/core/testing';
import { createMcpServer } from '@toolhost/mcp';
import { createToolHostSandboxClient, type ToolHostSandboxClient, type ToolHostSandboxSession } from '@toolhost/openai-agents';
import type { Tool } from 'ai';

const catalog: CatalogEntry[] = [{ name: 'x', description: 'x', inputSchema: { type: 'object' }, handler: () => 'x' }];
/** The AI SDK tool set keeps each built-in tool's argument types: a wrong field does not compile. */
type ExecInput = ReturnType<typeof createAiSdkTools>['tools']['exec_command'] extends Tool<infer Input, ToolResult> ? Input : never;
export const execInput: ExecInput = { cmd: 'ls', tty: true };
// @ts-expect-error exec_command's command is `cmd`
export const wrongExecInput: ExecInput = { command: 'ls' };

const gateway: ExecGateway = {
  decide: (request) => (request.sandbox_permissions === 'use_default' ? { allow: true } : { allow: false, reason: 'no' }),
};

export async function useEverything(workspace: string): Promise<ToolResult[]> {
  const host: ToolHost = createToolHost({ workspace, profile: 'advanced', catalog, gateway });
  const fake: FakeToolHost = createFakeToolHost({ commands: [{ match: 'ls', output: 'a\n' }] });
  try {
    const responses = [...toResponsesTools(host, { strict: true }), ...toResponsesTools(host, { native: true })];
    const anthropic = [...toAnthropicTools(fake), ...toAnthropicTools(host, { native: true, deferLoading: true })];
    const aiSdk = toAiSdkTools(host);
    const live = createAiSdkTools(host);
    const langchain = [toLangChainTools(host), createAgent({ model: fakeModel(), middleware: [toolHostMiddleware(host)] })];
    const server = createMcpServer(host);
    const sandbox: ToolHostSandboxClient = createToolHostSandboxClient({ host: { profile: 'advanced' } });
    const session: ToolHostSandboxSession = await createToolHostSandboxClient().create();
    await session.close();
    void [responses, anthropic, aiSdk, live, langchain, server, sandbox];
    await answerResponsesCalls([], host);
    await answerToolUses([], fake);
    const tools: string[] = host.tools.map((tool) => tool.name);
    return [await host.call('exec_command', { cmd: `echo ${tools.join(' ')}` })];
  } catch (error) {
    if (error instanceof ToolHostError) throw new Error(error.code, { cause: error });
    throw error;
  } finally {
    await host.close();
    await fake.close();
  }
}
