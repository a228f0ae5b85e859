/** Stable error codes carried by `ok:false` tool results. */
export const ErrorCode = {
  InvalidArguments: 'invalid_arguments',
  UnknownTool: 'unknown_tool',
  LegacyTool: 'legacy_tool',
  UnknownSession: 'unknown_session',
  SessionExited: 'session_exited',
  OutsideWorkspace: 'outside_workspace',
  PatchParseError: 'patch_parse_error',
  PatchContextNotFound: 'patch_context_not_found',
  PatchAmbiguous: 'patch_ambiguous',
  PatchTargetExists: 'patch_target_exists',
  PatchTargetMissing: 'patch_target_missing',
  VerificationRequired: 'verification_required',
  PermissionDenied: 'permission_denied',
  SpawnFailed: 'spawn_failed',
  TooManySessions: 'too_many_sessions',
  ToolFailed: 'tool_failed',
  InternalError: 'internal_error',
} as const;

export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** Every error code, in declaration order. */
export const ERROR_CODES: readonly ErrorCode[] = Object.freeze(Object.values(ErrorCode));
