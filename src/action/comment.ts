// The one pull-request comment the action keeps: found by a hidden marker among the issue's comments and edited in
// place, so a pull request pushed to twenty times still has one report, not twenty. Plain fetch against the REST API
// (GITHUB_API_URL, which is also GitHub Enterprise's), with the workflow's token.

/** Invisible in the rendered comment; how the next run finds it again. */
export const MARKER = '<!-- validate-workflow-report -->';

/** GitHub refuses a comment body over 65,536 characters. */
export const COMMENT_LIMIT = 65_536;

export interface Api {
  /** GITHUB_API_URL, e.g. https://api.github.com */
  url: string;
  token: string;
  /** owner/name (GITHUB_REPOSITORY) */
  repository: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

interface IssueComment {
  id: number;
  body?: string | null;
  html_url?: string;
}

async function call(
  api: Api,
  method: string,
  url: string,
  body?: unknown,
): Promise<{ json: unknown; link: string | null }> {
  let res: Response;
  try {
    res = await fetch(url, {
      method,
      headers: {
        Accept: 'application/vnd.github+json',
        Authorization: `Bearer ${api.token}`,
        'X-GitHub-Api-Version': '2022-11-28',
        'User-Agent': 'validate-workflow-action',
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch (err) {
    // Node's fetch says only "fetch failed"; what failed is in its cause (ECONNREFUSED, ENOTFOUND, a TLS error).
    throw new Error(`${method} ${describeUrl(url)} failed: ${networkCause(err)}`, { cause: err });
  }
  const text = await res.text();
  if (!res.ok) {
    let detail = text.slice(0, 300);
    try {
      detail = (JSON.parse(text) as { message?: string }).message ?? detail;
    } catch {
      // not JSON: keep the start of the text
    }
    throw new ApiError(res.status, `${method} ${describeUrl(url)} answered ${res.status}: ${detail}`);
  }
  return { json: text ? JSON.parse(text) : null, link: res.headers.get('link') };
}

/** The host and path of a request, which say where it went (never the query, never the token). */
function describeUrl(url: string): string {
  const u = new URL(url);
  return `${u.host}${u.pathname}`;
}

/** Why a request got no answer at all, in the words of the system: the error code and its message, when there are. */
export function networkCause(err: unknown): string {
  const cause = (err as { cause?: unknown }).cause;
  const inner = cause instanceof Error ? cause : err instanceof Error ? err : null;
  if (!inner) return String(err);
  const code = (inner as { code?: unknown }).code;
  const text = inner.message && inner.message !== 'fetch failed' ? inner.message : '';
  if (typeof code === 'string') return text && !text.includes(code) ? `${code} (${text})` : text || code;
  return text || (err as Error).message;
}

/** The `rel="next"` URL of a Link header (RFC 8288), as GitHub paginates lists. */
export function nextPage(link: string | null): string | null {
  if (!link) return null;
  for (const part of link.split(',')) {
    const m = /^<([^>]+)>(.*)$/.exec(part.trim());
    const rel = m ? /;\s*rel="?([^";]+)"?/.exec(m[2]!) : null;
    if (rel && rel[1]!.trim().split(/\s+/).includes('next')) return m![1]!;
  }
  return null;
}

/** The body with the marker, cut to what GitHub accepts (the job summary keeps the whole report). */
export function commentBody(report: string): string {
  const body = `${MARKER}\n${report}`;
  if (body.length <= COMMENT_LIMIT) return body;
  const tail =
    '\n\n… the report is longer than a comment may be; the whole report is in the job summary of this run.\n';
  return body.slice(0, COMMENT_LIMIT - tail.length) + tail;
}

/** Edits the comment that carries the marker, or creates it when there is none. */
export async function upsertComment(
  api: Api,
  issue: number,
  report: string,
): Promise<{ action: 'created' | 'updated'; id: number; url?: string }> {
  const base = `${api.url.replace(/\/+$/, '')}/repos/${api.repository}`;
  const body = commentBody(report);
  let page: string | null = `${base}/issues/${issue}/comments?per_page=100`;
  while (page) {
    const { json, link }: { json: unknown; link: string | null } = await call(api, 'GET', page);
    const ours = (json as IssueComment[]).find((c) => c.body?.includes(MARKER));
    if (ours) {
      const { json: updated } = await call(api, 'PATCH', `${base}/issues/comments/${ours.id}`, { body });
      return { action: 'updated', id: ours.id, url: (updated as IssueComment).html_url };
    }
    page = nextPage(link);
  }
  const { json: created } = await call(api, 'POST', `${base}/issues/${issue}/comments`, { body });
  return { action: 'created', id: (created as IssueComment).id, url: (created as IssueComment).html_url };
}
