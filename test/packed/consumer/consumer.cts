// Compiled in the packed consumer project against the installed .d.cts files (CommonJS view), with skipLibCheck off.
import toolhost = require('toolhost');
import testing = require('@toolhost/testing');
import openai = require('@toolhost/openai');
import openaiAgents = require('@toolhost/openai-agents');

export async function useFromCommonJs(workspace: string): Promise<boolean> {
  const host: toolhost.ToolHost = toolhost.createToolHost({ workspace });
  const fake = testing.createFakeToolHost();
  try {
    openai.toResponsesTools(fake);
    openai.toResponsesTools(fake, { native: true });
    const client: openaiAgents.ToolHostSandboxClient = openaiAgents.createToolHostSandboxClient();
    void client.backendId;
    return (await host.call('exec_command', { cmd: 'true' })).ok;
  } finally {
    await host.close();
    await fake.close();
  }
}
