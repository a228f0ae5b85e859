import { runCommand } from './command-runs.js';
import type { ToolSurface } from './tool-surface.js';

/**
 * A host over `runtime`: the tool surface forwarded to it (`tools` and `deferredTools` read it at each access), with
 * the host's `own` members added; an own member of the surface (the fake host's `call`) replaces the forwarded one.
 */
export function forwardToolSurface<Host extends ToolSurface>(
  runtime: ToolSurface,
  own: Omit<Host, keyof ToolSurface> & Partial<ToolSurface>,
): Host {
  const surface: ToolSurface = {
    get tools() {
      return runtime.tools;
    },
    get deferredTools() {
      return runtime.deferredTools;
    },
    catalog: runtime.catalog,
    call: (name, args, options) => runtime.call(name, args, options),
    // Through the host's own `call`, so a host that replaces it (the fake host) runs commands its way.
    run: (command, options) => runCommand(host, command, options),
    readPath: (path) => runtime.readPath(path),
    edit: (operations, options) => runtime.edit(operations, options),
    shellPatch: (command, options) => runtime.shellPatch(command, options),
    recordCommand: (cmd, exitCode) => runtime.recordCommand(cmd, exitCode),
    budget: (label, text, maxOutputTokens) => runtime.budget(label, text, maxOutputTokens),
    nextSegment: () => runtime.nextSegment(),
    close: () => runtime.close(),
  };
  // Descriptors, not values: a getter of `own` (the fake host's `commandsRun`) stays a getter.
  const host = Object.defineProperties(surface, Object.getOwnPropertyDescriptors(own)) as Host;
  return host;
}
