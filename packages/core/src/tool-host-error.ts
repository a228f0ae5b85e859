/** Codes of errors thrown to the caller (never to the model). */
export type ToolHostErrorCode =
  | 'invalid_options'
  | 'host_closed'
  | 'duplicate_tool'
  | 'unknown_tool'
  | 'unscripted_command'
  | 'outside_workspace'
  | 'not_found'
  | 'unsupported'
  | 'host_key_unknown'
  | 'host_key_changed'
  | 'host_key_revoked'
  | 'internal_error';

const brand = Symbol.for('toolhost.ToolHostError');

/** An error thrown to the caller of the SDK for a caller mistake, with a stable string `code`. */
export class ToolHostError extends Error {
  readonly code: ToolHostErrorCode;
  readonly [brand] = true;

  constructor(code: ToolHostErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ToolHostError';
    this.code = code;
  }

  /** True for any ToolHostError, even one from another copy of this package. */
  static is(value: unknown): value is ToolHostError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[brand] === true;
  }
}
