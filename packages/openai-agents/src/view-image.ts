import { ToolHostError, type Workspace } from 'toolhost';
import { checkedPath } from './workspace-files.js';

/** The largest image view_image returns, as the Agents SDK's own sandboxes allow. */
export const MAX_VIEW_IMAGE_BYTES = 10 * 1024 * 1024;

/** An image as the Agents SDK's view_image tool returns it. */
export interface ViewedImage {
  type: 'image';
  image: { data: Uint8Array<ArrayBuffer>; mediaType: string };
}

const startsWith = (bytes: Uint8Array, offset: number, expected: readonly number[]) =>
  expected.every((byte, index) => bytes[offset + index] === byte);
const ascii = (text: string) => [...text].map((character) => character.charCodeAt(0));

/** The media type of PNG, JPEG, GIF, WebP and BMP bytes, read from their signature; undefined for anything else. */
export function imageMediaType(bytes: Uint8Array): string | undefined {
  if (startsWith(bytes, 0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(bytes, 0, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, 0, ascii('GIF87a')) || startsWith(bytes, 0, ascii('GIF89a'))) return 'image/gif';
  if (startsWith(bytes, 0, ascii('RIFF')) && startsWith(bytes, 8, ascii('WEBP'))) return 'image/webp';
  if (startsWith(bytes, 0, ascii('BM'))) return 'image/bmp';
  return undefined;
}

/**
 * Reads a workspace image for view_image; the messages of its errors are the ones the SDK turns into its own
 * model-facing text (not found, not a file, over 10 MB, unsupported format).
 */
export async function viewWorkspaceImage(workspace: Workspace, path: string): Promise<ViewedImage> {
  const relative = await checkedPath(workspace, path);
  const stat = await workspace.stat(relative);
  if (!stat) throw new ToolHostError('not_found', `Image file not found: ${path}`);
  if (stat.kind !== 'file') throw new ToolHostError('not_found', `Image path is not a file: ${path}`);
  if (stat.size > MAX_VIEW_IMAGE_BYTES) throw new ToolHostError('unsupported', `Image file exceeds the 10 MB limit: ${path}`);
  const bytes = new Uint8Array(await workspace.readFile(relative));
  const mediaType = imageMediaType(bytes);
  if (!mediaType) throw new ToolHostError('unsupported', `Unsupported image format for view_image: ${path}`);
  return { type: 'image', image: { data: bytes, mediaType } };
}
