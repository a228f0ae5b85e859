import { fileBytesLength, isPieces, type FileBytes } from '@toolhost/core';

/** Bytes of a tar block. */
const BLOCK = 512;

function field(header: Buffer, offset: number, length: number, text: string): void {
  header.write(text, offset, length, 'latin1');
}

function octal(value: number, length: number): string {
  return `${value.toString(8).padStart(length - 1, '0')}\0`;
}

/** Bytes of a ustar header's name field and of its prefix field. */
const NAME_BYTES = 100;
const PREFIX_BYTES = 155;

/**
 * A path as ustar's prefix and name fields (UTF-8): whole in the name when it fits, else split at a `/` so each part
 * fits; undefined when no split fits (the path would need an extension header, which not every tar reads).
 */
export function ustarName(path: string): { prefix: Buffer; name: Buffer } | undefined {
  const bytes = Buffer.from(path, 'utf8');
  if (bytes.length === 0 || bytes.includes(0)) return undefined;
  if (bytes.length <= NAME_BYTES) return { prefix: Buffer.alloc(0), name: bytes };
  const cut = bytes.indexOf(0x2f, bytes.length - NAME_BYTES - 1);
  if (cut < 1 || cut > PREFIX_BYTES || cut === bytes.length - 1) return undefined;
  return { prefix: bytes.subarray(0, cut), name: bytes.subarray(cut + 1) };
}

/**
 * A ustar archive of regular files named `0`, `1`, … holding `files` in order: what `tar -xf -` unpacks on any remote
 * (busybox, GNU, bsdtar) in one process. Written here rather than with a tar library: these archives need no owners,
 * times or streaming, only the header layout.
 */
export function inputArchive(files: readonly Uint8Array[]): Buffer {
  return archive(files.map((file, index) => ({ path: String(index), file })))!;
}

/** A ustar archive of regular files at the paths given, in order; undefined when a path does not fit (see {@link ustarName}). */
export function namedArchive(entries: ReadonlyArray<{ path: string; file: FileBytes }>): Buffer | undefined {
  return archive(entries);
}

/**
 * A ustar archive of hard links: each `path` a link to `existing` (both as the archive names them), made in order by
 * one `tar -x`; undefined when a path does not fit or an existing path is over 100 bytes (a link name has no prefix).
 */
export function linkArchive(entries: ReadonlyArray<{ path: string; existing: string }>): Buffer | undefined {
  const targets = entries.map((entry) => Buffer.from(entry.existing, 'utf8'));
  if (targets.some((target) => target.length === 0 || target.length > NAME_BYTES || target.includes(0))) return undefined;
  return archive(entries.map((entry, index) => ({ path: entry.path, file: new Uint8Array(0), linkTo: targets[index]! })));
}

function archive(entries: ReadonlyArray<{ path: string; file: FileBytes; linkTo?: Buffer }>): Buffer | undefined {
  const names = entries.map((entry) => ustarName(entry.path));
  if (names.some((name) => name === undefined)) return undefined;
  const parts: Buffer[] = [];
  entries.forEach(({ file, linkTo }, index) => {
    const size = fileBytesLength(file);
    const header = Buffer.alloc(BLOCK);
    const { prefix, name } = names[index]!;
    name.copy(header, 0);
    prefix.copy(header, 345);
    field(header, 100, 8, octal(0o600, 8));
    field(header, 108, 8, octal(0, 8));
    field(header, 116, 8, octal(0, 8));
    field(header, 124, 12, octal(size, 12));
    field(header, 136, 12, octal(0, 12));
    field(header, 148, 8, '        ');
    field(header, 156, 1, linkTo === undefined ? '0' : '1');
    linkTo?.copy(header, 157);
    field(header, 257, 6, 'ustar\0');
    field(header, 263, 2, '00');
    let sum = 0;
    for (const byte of header) sum += byte;
    field(header, 148, 8, `${sum.toString(8).padStart(6, '0')}\0 `);
    parts.push(header);
    for (const piece of isPieces(file) ? file : [file]) parts.push(Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength));
    const padding = (BLOCK - (size % BLOCK)) % BLOCK;
    if (padding > 0) parts.push(Buffer.alloc(padding));
  });
  parts.push(Buffer.alloc(BLOCK * 2));
  return Buffer.concat(parts);
}
