/** Receives one matching line of a file (without its line break), or `undefined` for a binary file that holds a match. */
export type RipgrepLineHandler = (path: string, line: string | undefined) => void;

/** Reads ripgrep's `--null --with-filename --no-heading` output as it streams in. */
export interface RipgrepLineReader {
  /** False once the output held a record this reader cannot take apart (a path with a line break): ignore it all then. */
  push(chunk: Uint8Array): boolean;
  /** Ends the output; false when it could not be read. */
  end(): boolean;
}

const NEWLINE = 10;
const NUL = 0;
/** What ripgrep prints for a binary file with a match, with no NUL after the path. */
const BINARY_NOTICE = /^([^]*): binary file matches \(found ".*" byte around offset \d+\)$/;

function relative(path: string): string {
  return path.startsWith('./') ? path.slice(2) : path;
}

/**
 * Takes ripgrep's matching lines apart: `path NUL line` records and `path: binary file matches (…)` notices, one per line.
 * Lines are decoded as UTF-8 as the scan decodes files (ripgrep drops a UTF-8 byte order mark; so does this reader).
 */
export function createRipgrepLineReader(onLine: RipgrepLineHandler): RipgrepLineReader {
  const decoder = new TextDecoder();
  let pending: Uint8Array = new Uint8Array(0);
  let failed = false;

  const record = (bytes: Uint8Array) => {
    const nul = bytes.indexOf(NUL);
    if (nul >= 0) {
      let line = decoder.decode(bytes.subarray(nul + 1));
      if (line.charCodeAt(0) === 0xfeff) line = line.slice(1);
      onLine(relative(decoder.decode(bytes.subarray(0, nul))), line);
      return;
    }
    const notice = BINARY_NOTICE.exec(decoder.decode(bytes));
    if (notice) onLine(relative(notice[1]!), undefined);
    else failed = true;
  };

  return {
    push(chunk) {
      if (failed) return false;
      let data = chunk;
      if (pending.length > 0) {
        data = new Uint8Array(pending.length + chunk.length);
        data.set(pending);
        data.set(chunk, pending.length);
      }
      let start = 0;
      for (let end = data.indexOf(NEWLINE); end >= 0 && !failed; end = data.indexOf(NEWLINE, start)) {
        record(data.subarray(start, end));
        start = end + 1;
      }
      pending = data.slice(start);
      return !failed;
    },
    end() {
      if (!failed && pending.length > 0) record(pending);
      pending = new Uint8Array(0);
      return !failed;
    },
  };
}
