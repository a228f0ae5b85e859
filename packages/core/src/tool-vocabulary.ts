/**
 * The names and phrasing of the tools a model was given, so that texts a tool returns (failure reports, the
 * anti-blind-editing gate) point at tools the model can call and speak of edits the way the model sent them.
 */
export interface ToolVocabulary {
  /** The shell tool the model runs commands with: `exec_command`, OpenAI's native `shell`, Anthropic's `bash`. */
  readonly shell: string;
  /** The tool the model edits files with: `apply_patch` or Anthropic's `str_replace_based_edit_tool`. */
  readonly edit: string;
  /**
   * How the model sends an edit: `patch` (apply_patch text with `*** Update File:` sections, lines counted in the
   * patch), `file_operation` (one `create_file`/`update_file`/`delete_file` operation with a diff, lines counted in
   * the diff) or `text_editor` (`create`, `str_replace`, `insert` commands).
   */
  readonly edits: 'patch' | 'file_operation' | 'text_editor';
}

/** The vocabulary of toolhost's own tools. */
export const TOOLHOST_VOCABULARY: ToolVocabulary = Object.freeze({ shell: 'exec_command', edit: 'apply_patch', edits: 'patch' });

/** The vocabulary of OpenAI's native `shell` and `apply_patch` tools (Responses API and the Agents SDK). */
export const OPENAI_NATIVE_VOCABULARY: ToolVocabulary = Object.freeze({ shell: 'shell', edit: 'apply_patch', edits: 'file_operation' });

/** The vocabulary of Anthropic's native `bash` and text editor tools. */
export const ANTHROPIC_NATIVE_VOCABULARY: ToolVocabulary = Object.freeze({
  shell: 'bash',
  edit: 'str_replace_based_edit_tool',
  edits: 'text_editor',
});
