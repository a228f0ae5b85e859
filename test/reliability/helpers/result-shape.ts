import { ERROR_CODES, type ToolResult } from '@toolhost/core';

/** Problems with a tool result's shape: `{ok, output}`, and an `error.code` from the ErrorCode set when not ok. */
export function resultShapeProblems(result: unknown): string[] {
  const problems: string[] = [];
  if (!result || typeof result !== 'object') return [`result is ${String(result)}, not an object`];
  const value = result as Partial<ToolResult>;
  if (typeof value.ok !== 'boolean') problems.push('ok is not a boolean');
  if (typeof value.output !== 'string') problems.push('output is not a string');
  if (value.ok === false) {
    if (!value.error || typeof value.error !== 'object') problems.push('failed result has no error');
    else {
      if (!ERROR_CODES.includes(value.error.code)) problems.push(`error.code ${JSON.stringify(value.error.code)} is not an ErrorCode`);
      if (typeof value.error.message !== 'string' || value.error.message.length === 0) problems.push('error.message is empty');
    }
  }
  if (value.ok === true && value.error !== undefined) problems.push('successful result carries an error');
  if (value.data !== undefined && (typeof value.data !== 'object' || value.data === null)) problems.push('data is not an object');
  return problems;
}

/** A short description of a result for failure messages. */
export function describeResult(result: ToolResult | undefined): string {
  if (!result) return 'no result';
  return `ok=${result.ok} code=${result.error?.code ?? '-'} output=${JSON.stringify(result.output.slice(0, 240))}`;
}
