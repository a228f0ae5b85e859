import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { skipWhen } from '../../../test/skip-reason.js';
import { createJournalCookie } from './journal-cookie.js';

describe(
  'the cookie of the change journal',
  skipWhen(process.platform === 'linux' ? undefined : 'the change journal uses inotify: Linux only'),
  () => {
    let parent = '';
    beforeEach(() => {
      parent = mkdtempSync(join(tmpdir(), 'journal-cookie-'));
    });
    afterEach(() => {
      rmSync(parent, { recursive: true, force: true });
    });

    it('hears each cookie it makes, leaves none behind, and removes its folder on close', async () => {
      const cookie = createJournalCookie(parent, () => {});
      expect(cookie).toBeDefined();
      const [folder] = readdirSync(parent);
      expect(folder).toMatch(new RegExp(`^toolhost-index-${process.pid}-`));
      expect(await cookie!.heard()).toBe(true);
      expect(await cookie!.heard()).toBe(true);
      expect(readdirSync(join(parent, folder))).toEqual([]);
      cookie!.close();
      expect(readdirSync(parent)).toEqual([]);
    });

    it('is undefined when its folder cannot be made', () => {
      const file = join(parent, 'a-file');
      writeFileSync(file, '');
      expect(createJournalCookie(file, () => {})).toBeUndefined();
    });
  },
);
