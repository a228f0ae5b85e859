// The README of toolhost shows the region below verbatim (test/package-readme-examples.test.ts), so it compiles
// against the current API; it is type-checked, never imported or run.
// #region readme
import { createToolHost } from 'toolhost';

const host = createToolHost({ workspace: '/abs/path/to/repo', profile: 'default' });

const tools = host.tools; // [{ name, description, inputSchema, freeform? }, …] for your model
const result = await host.call('exec_command', { cmd: 'git status --short' });
console.log(result.ok, result.output); // "Chunk ID: …\nWall time: …\nProcess exited with code 0\n…"

host.nextSegment(); // tools found by search_tools join host.tools for the next request
await host.close(); // kills every session, removes the spool
// #endregion readme

// Read here so the linter sees the names the README leaves for the reader to use.
void tools;
