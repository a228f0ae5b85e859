// Shared by the packed cases: the model-visible output of an exec result, and a host that is always closed.

/** The text after the exec header's `Output:` line. */
export function outputOf(result) {
  const marker = result.output.indexOf('Output:\n');
  if (marker < 0) throw new Error(`no Output: section in ${JSON.stringify(result.output)}`);
  return result.output.slice(marker + 'Output:\n'.length);
}

/** Runs `body(host)` with a real host from the installed `toolhost`, closing it afterwards. */
export async function withHost({ load }, options, body) {
  const { createToolHost } = await load('toolhost');
  const host = createToolHost(options);
  try {
    return await body(host);
  } finally {
    await host.close();
  }
}

/** A deferred catalog tool that search_tools can find. */
export const issueTool = {
  name: 'github_create_issue',
  description: 'Create a GitHub issue in a repository.',
  inputSchema: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] },
  handler: (args) => `Created issue "${String(args.title)}" as #1`,
};
