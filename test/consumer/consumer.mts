// Compiled against the built .d.ts files only (no source condition), as a user's ESM project would.
import { createToolHost, ToolHostError, type ToolHost, type ToolResult } from 'toolhost';
import { budgetOutput, approximateTokenizer } from '@toolhost/core';

export async function useHost(workspace: string): Promise<ToolResult> {
  const host: ToolHost = createToolHost({ workspace, profile: 'advanced', shellProfile: 'unix_like' });
  try {
    const names: string[] = host.tools.map((tool) => tool.name);
    const preview = budgetOutput(names.join('\n'), 10, approximateTokenizer).text;
    return await host.call('exec_command', { cmd: `echo ${JSON.stringify(preview)}` });
  } catch (error) {
    if (ToolHostError.is(error)) throw new Error(error.code);
    throw error;
  } finally {
    await host.close();
  }
}
