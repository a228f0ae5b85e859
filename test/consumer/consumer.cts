// The same surface from a CommonJS project.
import toolhost = require('toolhost');

export function toolNames(workspace: string): string[] {
  const host = toolhost.createToolHost({ workspace });
  const names = host.tools.map((tool) => tool.name);
  void host.close();
  return names;
}
