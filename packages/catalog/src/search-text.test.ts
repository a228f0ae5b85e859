import { describe, expect, it } from 'vitest';
import { indexTerms, nameKey, splitWords, stemWord } from './search-text.js';
import { synonymsOf } from './search-synonyms.js';

describe('splitWords', () => {
  it('splits on underscores, dashes, dots, spaces and camelCase', () => {
    expect(splitWords('github_create-pull.request')).toEqual(['github', 'create', 'pull', 'request']);
    expect(splitWords('listPullRequests')).toEqual(['list', 'pull', 'requests']);
    expect(splitWords('parseHTMLResponse k8s_get_pods')).toEqual(['parse', 'html', 'response', 'k8s', 'get', 'pods']);
    expect(splitWords('aws.s3.put_object')).toEqual(['aws', 's3', 'put', 'object']);
  });
});

describe('nameKey', () => {
  it('maps name spellings to one key', () => {
    expect(nameKey('githubCreateIssue')).toBe('github_create_issue');
    expect(nameKey('GitHub.create-issue')).toBe('git_hub_create_issue');
    expect(nameKey('GITHUB_CREATE_ISSUE')).toBe('github_create_issue');
  });
});

describe('stemWord', () => {
  it('brings inflections to one stem', () => {
    for (const group of [
      ['issue', 'issues'],
      ['create', 'creating', 'created', 'creates'],
      ['query', 'queries'],
      ['run', 'running'],
      ['delete', 'deleted', 'deleting'],
      ['list', 'lists', 'listing', 'listed'],
    ]) {
      expect(new Set(group.map(stemWord)).size, group.join(',')).toBe(1);
    }
  });

  it('leaves short words, words with digits and -ss/-us/-is endings alone', () => {
    for (const word of ['pod', 'k8s', 's3', 'access', 'status', 'redis']) expect(stemWord(word)).toBe(word);
  });
});

describe('indexTerms', () => {
  it('drops stop words', () => {
    expect(indexTerms('Lists the issues of a repository')).toEqual(['list', 'issu', 'repository']);
  });
});

describe('synonymsOf', () => {
  it('expands abbreviations and inflected verbs', () => {
    expect(synonymsOf('pr')).toEqual(['pull request']);
    expect(synonymsOf('k8s')).toEqual(['kubernetes']);
    expect(synonymsOf('deleting')).toContain('remove');
    expect(synonymsOf('zebra')).toEqual([]);
  });
});
