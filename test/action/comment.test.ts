// The comment's body and GitHub's paging, on their own: a report longer than GitHub accepts is cut with a pointer to
// the job summary (the marker stays, so the next run still finds the comment), and the Link header is followed only
// by its rel="next" URL.
import { createServer, type AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { COMMENT_LIMIT, MARKER, commentBody, nextPage, upsertComment } from '../../src/action/comment.js';

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

describe('a network failure', () => {
  it('says which request failed, to which host, and why (issue 24: only "fetch failed")', async () => {
    // A loopback port nothing listens on (just freed): the connection is refused at once.
    const server = createServer();
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const { port } = server.address() as AddressInfo;
    await new Promise((done) => server.close(done));
    const api = { url: `http://127.0.0.1:${port}`, token: 'ghs_test', repository: 'acme/app' };
    const err = (await upsertComment(api, 7, 'report').catch((e: unknown) => e)) as Error;
    expect(err.message).toMatch(
      new RegExp(`^GET 127\\.0\\.0\\.1:${port}/repos/acme/app/issues/7/comments failed: .*ECONNREFUSED\\b`),
    );
    expect(err.message).not.toContain('ghs_test');
  });
});
