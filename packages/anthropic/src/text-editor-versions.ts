import type { ToolTextEditor20250124, ToolTextEditor20250429, ToolTextEditor20250728 } from '@anthropic-ai/sdk/resources/messages/messages';
import { ToolHostError } from 'toolhost';

/** The versions of Anthropic's text editor tool, oldest first. */
export type AnthropicTextEditorVersion = 'text_editor_20241022' | 'text_editor_20250124' | 'text_editor_20250429' | 'text_editor_20250728';

/** Every version of Anthropic's text editor tool, oldest first. */
export const ANTHROPIC_TEXT_EDITOR_VERSIONS: readonly AnthropicTextEditorVersion[] = Object.freeze([
  'text_editor_20241022',
  'text_editor_20250124',
  'text_editor_20250429',
  'text_editor_20250728',
]);

/** The version `toAnthropicTools` declares and `runTextEditor` answers when none is chosen. */
export const NEWEST_TEXT_EDITOR_VERSION: AnthropicTextEditorVersion = 'text_editor_20250728';

/** The name of Anthropic's text editor tool from text_editor_20250429 on. */
export const ANTHROPIC_TEXT_EDITOR_TOOL = 'str_replace_based_edit_tool';
/** The name of Anthropic's text editor tool in text_editor_20241022 and text_editor_20250124. */
export const ANTHROPIC_LEGACY_TEXT_EDITOR_TOOL = 'str_replace_editor';

/**
 * A text editor tool definition for the Messages API `tools` array. The `text_editor_20241022` one, which only the beta
 * Messages API takes (with the `computer-use-2024-10-22` beta), has the same shape as `text_editor_20250124`'s.
 */
export type AnthropicTextEditorTool = ToolTextEditor20250124 | ToolTextEditor20250429 | ToolTextEditor20250728;

/** Whether `value` names a version of the text editor tool. */
export function isTextEditorVersion(value: unknown): value is AnthropicTextEditorVersion {
  return ANTHROPIC_TEXT_EDITOR_VERSIONS.includes(value as AnthropicTextEditorVersion);
}

/** The tool name a version is called by. */
export function textEditorName(
  version: AnthropicTextEditorVersion,
): typeof ANTHROPIC_TEXT_EDITOR_TOOL | typeof ANTHROPIC_LEGACY_TEXT_EDITOR_TOOL {
  return version === 'text_editor_20241022' || version === 'text_editor_20250124'
    ? ANTHROPIC_LEGACY_TEXT_EDITOR_TOOL
    : ANTHROPIC_TEXT_EDITOR_TOOL;
}

/** Whether a version has the `undo_edit` command (the versions named str_replace_editor). */
export function hasUndoEdit(version: AnthropicTextEditorVersion): boolean {
  return textEditorName(version) === ANTHROPIC_LEGACY_TEXT_EDITOR_TOOL;
}

/** The commands a version accepts, in the order the reference editor lists them. */
export function textEditorCommands(version: AnthropicTextEditorVersion): readonly string[] {
  const commands = ['view', 'create', 'str_replace', 'insert'];
  return hasUndoEdit(version) ? [...commands, 'undo_edit'] : commands;
}

/** Checks a `max_characters` setting: a positive integer, on text_editor_20250728 only (the API refuses it elsewhere). */
export function checkMaxCharacters(version: AnthropicTextEditorVersion, maxCharacters: number | undefined): void {
  if (maxCharacters === undefined) return;
  if (!Number.isInteger(maxCharacters) || maxCharacters < 1)
    throw new ToolHostError('invalid_options', `textEditor.maxCharacters must be a positive integer; got ${String(maxCharacters)}.`);
  if (version !== 'text_editor_20250728')
    throw new ToolHostError('invalid_options', `textEditor.maxCharacters needs text_editor_20250728; ${version} has no max_characters.`);
}

/** The tool definition that declares a version, with `max_characters` where set. */
export function textEditorDefinition(version: AnthropicTextEditorVersion, maxCharacters?: number): AnthropicTextEditorTool {
  if (!isTextEditorVersion(version))
    throw new ToolHostError(
      'invalid_options',
      `textEditor.version must be one of ${ANTHROPIC_TEXT_EDITOR_VERSIONS.join(', ')}; got ${JSON.stringify(version)}.`,
    );
  checkMaxCharacters(version, maxCharacters);
  switch (version) {
    case 'text_editor_20241022':
      // The GA SDK types have no text_editor_20241022; its definition is the beta SDK's BetaToolTextEditor20241022.
      return { type: version, name: ANTHROPIC_LEGACY_TEXT_EDITOR_TOOL } as unknown as AnthropicTextEditorTool;
    case 'text_editor_20250124':
      return { type: version, name: ANTHROPIC_LEGACY_TEXT_EDITOR_TOOL };
    case 'text_editor_20250429':
      return { type: version, name: ANTHROPIC_TEXT_EDITOR_TOOL };
    default:
      return maxCharacters === undefined
        ? { type: version, name: ANTHROPIC_TEXT_EDITOR_TOOL }
        : { type: version, name: ANTHROPIC_TEXT_EDITOR_TOOL, max_characters: maxCharacters };
  }
}

/** A declared text editor: the version the model was given under a name, and its `max_characters`. */
export interface DeclaredTextEditor {
  version: AnthropicTextEditorVersion;
  maxCharacters?: number;
}

/** The text editors a `tools` list declares, by tool name. */
export function declaredTextEditors(tools: readonly unknown[]): Map<string, DeclaredTextEditor> {
  const declared = new Map<string, DeclaredTextEditor>();
  for (const tool of tools) {
    const { type, name, max_characters } = (tool ?? {}) as { type?: unknown; name?: unknown; max_characters?: unknown };
    if (!isTextEditorVersion(type) || name !== textEditorName(type)) continue;
    declared.set(
      textEditorName(type),
      typeof max_characters === 'number' ? { version: type, maxCharacters: max_characters } : { version: type },
    );
  }
  return declared;
}
