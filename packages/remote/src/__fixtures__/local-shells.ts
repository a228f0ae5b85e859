import { existsSync } from 'node:fs';

/** A shell the helpers run with on this machine: its sh (commands from PATH), or busybox sh (its own applets). */
export interface LocalShell {
  name: string;
  command: string[];
  /** Why it cannot run here, if it cannot. */
  missing: string | undefined;
}

const hasBusybox = existsSync('/usr/bin/busybox') || existsSync('/bin/busybox');

/** The shells the helper tests run every case with: the remotes' two families, dash-like and busybox. */
export const LOCAL_SHELLS: readonly LocalShell[] = [
  { name: '/bin/sh', command: ['/bin/sh'], missing: undefined },
  { name: 'busybox sh', command: ['busybox', 'sh'], missing: hasBusybox ? undefined : 'busybox is not installed' },
];
