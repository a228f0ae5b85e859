// The TSDoc @example of createAgentsEditor (@toolhost/openai) is the region below, verbatim (test/tsdoc-
// examples.test.ts), so it compiles against the current API; it is type-checked, never imported or run.
import type { ToolHost } from 'toolhost';

declare const host: ToolHost;

// #region example
import { Agent, applyPatchTool, shellTool } from '@openai/agents';
import { createAgentsEditor, createAgentsShell } from '@toolhost/openai';

const agent = new Agent({
  name: 'fixer',
  tools: [applyPatchTool({ editor: createAgentsEditor(host) }), shellTool({ shell: createAgentsShell(host) })],
});
// #endregion example

// Read here so the linter sees the names the example leaves for the reader to use.
void agent;
