import { describe, expect, it } from 'vitest';
import { buildQueryTerms } from './query-terms.js';
import { stemWord } from './search-text.js';

const known = () => true;
const termsOf = (text: string) => buildQueryTerms(text, known).terms.map((term) => term.term);

describe('buildQueryTerms', () => {
  it('reads "open", "file", "raise" and "submit" as create only when they open the request', () => {
    expect(termsOf('open a pull request')).toContain(stemWord('create'));
    expect(termsOf('file a bug')).toContain(stemWord('create'));
    expect(termsOf('please open a pull request')).toContain(stemWord('create'));
    expect(termsOf('I want to open a pull request')).toContain(stemWord('create'));
    for (const question of ['what open issues do I have', 'which open PRs are mine', 'are there open pull requests', 'my open tickets']) {
      expect(termsOf(question), question).not.toContain(stemWord('create'));
    }
    expect(termsOf('list open pull requests')).not.toContain(stemWord('create'));
    expect(termsOf('read the file')).not.toContain(stemWord('create'));
  });

  it('lets a file name or path stand for "file" too, but not a domain name', () => {
    expect(termsOf('delete README.old from the repo')).toContain(stemWord('file'));
    expect(termsOf('show src/index.ts')).toContain(stemWord('file'));
    for (const name of [
      'edit vite.config.ts',
      'read index.d.ts',
      'print .env',
      'fix .eslintrc.json',
      'open README.md.',
      'cat /etc/nginx/nginx.conf',
      'append to ~/notes.txt',
      'see **README.md**',
    ]) {
      expect(termsOf(name), name).toContain(stemWord('file'));
    }
    expect(termsOf('go to example.com')).not.toContain(stemWord('file'));
  });

  it('takes a URL for a url, and scores a synonym below the word written', () => {
    expect(termsOf('go to https://example.com')).toContain(stemWord('url'));
    const { terms } = buildQueryTerms('kill the pod', known);
    const kill = terms.find((term) => term.term === stemWord('kill'))!;
    const remove = terms.find((term) => term.term === stemWord('delete'))!;
    expect(remove.weight).toBeLessThan(kill.weight);
    expect(remove.groups).toEqual(kill.groups);
  });
});
