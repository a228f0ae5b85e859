import { ToolHostError } from 'toolhost';

/** True when `error` says that `name` itself (not something it imports) could not be found. */
function isMissing(error: unknown, name: string): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') return false;
  return typeof message === 'string' && (message.includes(`'${name}'`) || message.includes(`"${name}"`));
}

/**
 * Loads a package that toolhost-mcp needs only for `flag` (an optional peer dependency, so that serving a local folder
 * installs no Docker or SSH client); when it is not installed, the error names the package and how to add it.
 */
export async function loadOptionalPackage<T>(name: string, flag: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (!isMissing(error, name)) throw error;
    throw new ToolHostError(
      'unsupported',
      `${flag} needs the package ${name}, which is not installed: install it beside @toolhost/mcp (npm install ${name}), or run npx -p @toolhost/mcp -p ${name} toolhost-mcp ${flag} ...`,
      { cause: error },
    );
  }
}
