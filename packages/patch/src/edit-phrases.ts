import { TOOLHOST_VOCABULARY, type ToolVocabulary } from '@toolhost/core';
import type { PatchOperation } from './patch-syntax.js';

/** How the texts of the patch engine name operations, lines and tools in the vocabulary of the model that sent them. */
export interface EditPhrases {
  readonly vocabulary: ToolVocabulary;
  /** The label of an operation in a report (`*** Update File: a.txt`, `update_file a.txt`, `str_replace a.txt`). */
  operation(operation: PatchOperation): string;
  /** How to change a file that already exists. */
  changeExisting(path: string): string;
  /** How to create a file that does not exist. */
  createMissing(path: string): string;
  /** What a chunk's line number counts: `patch line` or `diff line`. */
  readonly lineLabel: string;
  /** What the model sends again once the failure is fixed. */
  readonly resend: string;
}

function patchLabel(operation: PatchOperation): string {
  switch (operation.kind) {
    case 'add':
      return `*** Add File: ${operation.path}`;
    case 'delete':
      return `*** Delete File: ${operation.path}`;
    case 'update':
      return `*** Update File: ${operation.path}${operation.moveTo !== undefined ? ` (Move to: ${operation.moveTo})` : ''}`;
    default:
      return `${operation.kind} ${operation.path}`;
  }
}

function fileOperationLabel(operation: PatchOperation): string {
  switch (operation.kind) {
    case 'add':
      return `create_file ${operation.path}`;
    case 'delete':
      return `delete_file ${operation.path}`;
    case 'update':
      return `update_file ${operation.path}${operation.moveTo !== undefined ? ` (move_to ${operation.moveTo})` : ''}`;
    default:
      return `${operation.kind} ${operation.path}`;
  }
}

function textEditorLabel(operation: PatchOperation): string {
  switch (operation.kind) {
    case 'add':
      return `create ${operation.path}`;
    case 'replace':
      return `str_replace ${operation.path}`;
    case 'insert':
      return `insert ${operation.path}`;
    default:
      return `${operation.kind} ${operation.path}`;
  }
}

/** The phrases for a vocabulary (toolhost's own when none is given). */
export function editPhrases(vocabulary: ToolVocabulary = TOOLHOST_VOCABULARY): EditPhrases {
  if (vocabulary.edits === 'file_operation') {
    return {
      vocabulary,
      operation: fileOperationLabel,
      changeExisting: () => 'use update_file to change it, or delete_file it first.',
      createMissing: () => '; use create_file to create it',
      lineLabel: 'diff line',
      resend: 'send the operation again',
    };
  }
  if (vocabulary.edits === 'text_editor') {
    return {
      vocabulary,
      operation: textEditorLabel,
      changeExisting: () => 'use str_replace or insert to change it.',
      createMissing: () => '; use create to create it',
      lineLabel: 'line',
      resend: 'send the command again',
    };
  }
  return {
    vocabulary,
    operation: patchLabel,
    changeExisting: (path) => `use "*** Update File: ${path}" to change it, or delete it first.`,
    createMissing: (path) => `; use "*** Add File: ${path}" to create it`,
    lineLabel: 'patch line',
    resend: 'send the whole patch again',
  };
}
