/** Bytes of a tar block. */
const BLOCK = 512;

function field(header: Buffer, offset: number, length: number, text: string): void {
  header.write(text, offset, length, 'latin1');
}

function octal(value: number, length: number): string {
  return `${value.toString(8).padStart(length - 1, '0')}\0`;
}

/**
 * A ustar archive of regular files named `0`, `1`, … holding `files` in order: what `tar -xf -` unpacks on any remote
 * (busybox, GNU, bsdtar) in one process. Written here rather than with a tar library: these archives need no names,
 * owners or streaming, only the header layout.
 */
export function inputArchive(files: readonly Uint8Array[]): Buffer {
  const parts: Buffer[] = [];
  files.forEach((file, index) => {
    const header = Buffer.alloc(BLOCK);
    field(header, 0, 100, String(index));
    field(header, 100, 8, octal(0o600, 8));
    field(header, 108, 8, octal(0, 8));
    field(header, 116, 8, octal(0, 8));
    field(header, 124, 12, octal(file.byteLength, 12));
    field(header, 136, 12, octal(0, 12));
    field(header, 148, 8, '        ');
    field(header, 156, 1, '0');
    field(header, 257, 6, 'ustar\0');
    field(header, 263, 2, '00');
    let sum = 0;
    for (const byte of header) sum += byte;
    field(header, 148, 8, `${sum.toString(8).padStart(6, '0')}\0 `);
    parts.push(header, Buffer.from(file.buffer, file.byteOffset, file.byteLength));
    const padding = (BLOCK - (file.byteLength % BLOCK)) % BLOCK;
    if (padding > 0) parts.push(Buffer.alloc(padding));
  });
  parts.push(Buffer.alloc(BLOCK * 2));
  return Buffer.concat(parts);
}
