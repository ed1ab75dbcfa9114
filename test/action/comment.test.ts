// The comment's body and GitHub's paging, on their own: a report longer than GitHub accepts is cut with a pointer to
// the job summary (the marker stays, so the next run still finds the comment), and the Link header is followed only
// by its rel="next" URL.
import { describe, expect, it } from 'vitest';
import { COMMENT_LIMIT, MARKER, commentBody, nextPage } from '../../src/action/comment.js';

describe('the comment body', () => {
  it('is the marker and the report, whole when it fits', () => {
    expect(commentBody('## validate-workflow review\n')).toBe(`${MARKER}\n## validate-workflow review\n`);
  });

  it('is cut to the limit with a pointer to the job summary when the report is longer', () => {
    const body = commentBody(`## validate-workflow review\n${'| row |\n'.repeat(20_000)}`);
    expect(body.length).toBeLessThanOrEqual(COMMENT_LIMIT);
    expect(body.startsWith(MARKER)).toBe(true);
    expect(body.endsWith('the whole report is in the job summary of this run.\n')).toBe(true);
  });
});

describe('paging', () => {
  it('follows rel="next" wherever it stands, and stops without it', () => {
    const link =
      '<https://api.github.com/repositories/1/issues/7/comments?page=1>; rel="prev", <https://api.github.com/repositories/1/issues/7/comments?page=3>; rel="next", <https://api.github.com/repositories/1/issues/7/comments?page=5>; rel="last"';
    expect(nextPage(link)).toBe('https://api.github.com/repositories/1/issues/7/comments?page=3');
    expect(nextPage('<https://x/c?page=1>; rel="first", <https://x/c?page=4>; rel="prev"')).toBeNull();
    expect(nextPage(null)).toBeNull();
  });
});
