import type { ShellGuidance } from './shell-profile.js';

// Examples name a folder relative to the workspace root and a made-up identifier: a model copies them as they are. rg
// names its folder too: without one it reads its input, which a command run through pipes keeps open.
const RIPGREP_EXAMPLE = '{"cmd":"rg -n \\"handleRequest\\" .","workdir":"src"}';
const GREP_EXAMPLE = '{"cmd":"grep -rn \\"handleRequest\\" .","workdir":"src"}';
const POWERSHELL_EXAMPLE = '{"cmd":"Get-ChildItem -Recurse -File | Select-String -Pattern handleRequest","workdir":"src"}';

/** The command the descriptions suggest for searching file contents. */
function textSearchCommand(guidance: ShellGuidance): string {
  if (guidance.kind === 'powershell') return '`Select-String`';
  return guidance.ripgrep ? '`rg`' : '`grep -rn`';
}

function commandExample(guidance: ShellGuidance): string {
  if (guidance.kind === 'powershell') return POWERSHELL_EXAMPLE;
  return guidance.ripgrep ? RIPGREP_EXAMPLE : GREP_EXAMPLE;
}

function shellGuidance(guidance: ShellGuidance): string {
  if (guidance.kind === 'powershell') {
    return 'Use native PowerShell syntax in `cmd` (run with `pwsh -NoProfile -Command`). Unix commands and GNU flags are not translated.';
  }
  const base = 'Use Unix-like shell commands in `cmd` (run with `$SHELL -c`).';
  if (guidance.platform === 'macos')
    return `${base} This is macOS: use BSD-compatible flags where BSD tools differ from GNU; flags are not translated.`;
  if (guidance.platform === 'wsl') return `${base} This is WSL, the Unix-like route on Windows.`;
  if (guidance.platform === 'windows') return `${base} Commands are not translated for Windows.`;
  return base;
}

function inspectionHint(guidance: ShellGuidance): string {
  if (guidance.kind === 'powershell') {
    return 'There are no read_file or write_file tools: inspect files with shell commands (e.g. `Get-Content -TotalCount 120 FILE`, `Get-ChildItem -Recurse -Name`) and edit them with apply_patch.';
  }
  const listFiles = guidance.ripgrep ? '`rg --files`' : '`find . -type f`';
  return `There are no read_file or write_file tools: inspect files with shell commands (e.g. \`sed -n '1,120p' FILE\`, ${listFiles}) and edit them with apply_patch.`;
}

/** The description of exec_command for a shell profile. */
export function execCommandDescription(guidance: ShellGuidance): string {
  return [
    'Runs a shell command through the active shell profile and returns its output.',
    shellGuidance(guidance),
    'The call returns as soon as the command exits, or after `yield_time_ms` with a session ID while it keeps running; send input or poll for more output with write_stdin. Set `tty` for commands that need an interactive terminal.',
    'The response shows at most `max_output_tokens` tokens (default 10000, 1 to 50000; under 100 counts as 100); the complete output is spooled to a file named in the response.',
    inspectionHint(guidance),
    `Example: ${commandExample(guidance)}`,
  ].join('\n');
}

/** The description of write_stdin for a shell profile. */
export function writeStdinDescription(guidance: ShellGuidance): string {
  const interrupt = guidance.kind === 'powershell' ? '' : ' Send "\\u0003" to interrupt, "\\u0004" for end of input.';
  return [
    'Sends input to a live session created by exec_command and returns the output produced since the last call.',
    `Empty \`chars\` just waits up to \`yield_time_ms\` for more output.${interrupt}`,
    'Example: {"session_id":42,"chars":"q"}',
  ].join('\n');
}

/** The description of apply_patch (the same for every shell profile). */
export function applyPatchDescription(): string {
  return [
    'Edits files with a patch: add, update, move and delete files inside the workspace. The whole patch applies atomically or not at all.',
    'Format: "*** Begin Patch", then one or more of "*** Add File: PATH" (every line prefixed "+"), "*** Delete File: PATH", or "*** Update File: PATH" (optionally followed by "*** Move to: NEW_PATH") with chunks that start "@@" or "@@ ANCHOR" (a line near the change, such as a function signature) and lines prefixed " " (context, about 3 lines before and after), "-" (remove) or "+" (add); "*** End of File" anchors a chunk at the end of the file; then "*** End Patch".',
    'Context must match the file; when it matches more than one place, add an "@@" anchor. Line endings, a BOM and the final newline are kept.',
    'After several edits without a verification (a test, build, lint, typecheck or syntax check run through exec_command), further edits are blocked until one completes, passing or failing.',
    'Example:\n*** Begin Patch\n*** Update File: README.md\n@@\n-old text\n+new text\n*** End Patch',
  ].join('\n');
}

/** The description of search_tools (the same for every shell profile). */
export function searchToolsDescription(): string {
  return [
    'Searches the deferred local tool catalog by name and description. Ranked matches are expanded deterministically and become callable in the next request.',
    'Name one or more tools exactly to load them directly. `detail_level`: name, name_description (default) or full (with input schemas).',
    'Example: {"query":"GitHub pull request review","limit":5,"detail_level":"name_description"}',
  ].join('\n');
}

/** The description of code_search for a shell profile. */
export function codeSearchDescription(guidance: ShellGuidance): string {
  return [
    'Bounded workspace search for definitions, syntactic usages, literal text and matching paths.',
    '`query` is literal: all lower-case is case-insensitive, any upper-case letter makes it case-sensitive. Optional: `path` (a file or directory), `file_types` (language names or extensions), `result_types` (definition, usage, text, path; omit for all four), `max_results` (1 to 100, default 20).',
    'Definitions are declarations whose name equals the query; usages are identifiers spelled like it outside declaration names (not resolved references); text covers comments, strings, prose and configuration; path matches file paths. Results are ordered by category, then location; `truncated: true` means more may exist, so narrow `path`, `file_types` or `result_types`.',
    `For regular expressions, run ${textSearchCommand(guidance)} through exec_command.`,
    'Example: {"query":"handleRequest","path":"src","file_types":["typescript"],"result_types":["definition","usage"],"max_results":20}',
  ].join('\n');
}
