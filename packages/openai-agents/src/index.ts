export { createToolHostSandboxClient, type ToolHostSandboxClient, type ToolHostSandboxClientOptions } from './toolhost-sandbox-client.js';
export {
  createToolHostSandboxSession,
  type ToolHostSandboxSession,
  type ToolHostSandboxSessionState,
  type ToolHostSandboxSessionParts,
} from './toolhost-sandbox-session.js';
export { SUPPORTED_ENTRY_TYPES } from './manifest-entries.js';
export { imageMediaType, MAX_VIEW_IMAGE_BYTES, type ViewedImage } from './view-image.js';
