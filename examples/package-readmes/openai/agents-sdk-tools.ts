// The README of @toolhost/openai shows the region below verbatim (test/package-readme-examples.test.ts), so it compiles
// against the current API; it is type-checked, never imported or run.
import type { ToolHost } from 'toolhost';

declare const host: ToolHost;

// #region readme
import { applyPatchTool, shellTool } from '@openai/agents';
import { createAgentsEditor, createAgentsShell } from '@toolhost/openai';

const tools = [applyPatchTool({ editor: createAgentsEditor(host) }), shellTool({ shell: createAgentsShell(host) })];
// #endregion readme

// Read here so the linter sees the names the README leaves for the reader to use.
void tools;
