// A stand-in for the GitHub REST API's issue comments, on a local port: it keeps the comments of each issue, pages
// the list (two to a page, with a Link header, so paging is exercised without hundreds of comments) and records
// every call, so a test can say exactly which requests the action made. Not a test file.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Call {
  method: string;
  /** Path and query, e.g. /repos/acme/app/issues/7/comments?per_page=100&page=2 */
  url: string;
  authorization: string | undefined;
  body: { body?: string } | null;
}

export interface Comment {
  id: number;
  body: string;
  user: { login: string };
}

export interface FakeGitHub {
  url: string;
  calls: Call[];
  /** Comments by issue number; tests may seed them. */
  comments: Map<number, Comment[]>;
  seed(issue: number, body: string, login?: string): Comment;
  /** Answer every request with this status from now on (a read-only token, an outage). */
  failWith(status: number | null): void;
  close(): Promise<void>;
}

const PAGE = 2;

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function fakeGitHub(repository: string): Promise<FakeGitHub> {
  const calls: Call[] = [];
  const comments = new Map<number, Comment[]>();
  let nextId = 1000;
  let failure: number | null = null;
  const list = (issue: number) => comments.get(issue) ?? comments.set(issue, []).get(issue)!;

  const server: Server = createServer(async (req, res) => {
    const text = await readBody(req);
    const body = text ? (JSON.parse(text) as { body?: string }) : null;
    calls.push({ method: req.method!, url: req.url!, authorization: req.headers.authorization, body });
    const send = (status: number, json: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
      res.end(JSON.stringify(json));
    };
    if (failure !== null) return send(failure, { message: 'Resource not accessible by integration' });
    const url = new URL(req.url!, 'http://localhost');
    const issueComments = new RegExp(`^/repos/${repository}/issues/(\\d+)/comments$`).exec(url.pathname);
    const oneComment = new RegExp(`^/repos/${repository}/issues/comments/(\\d+)$`).exec(url.pathname);
    if (issueComments && req.method === 'GET') {
      const all = list(Number(issueComments[1]));
      const page = Number(url.searchParams.get('page') ?? '1');
      const last = Math.max(1, Math.ceil(all.length / PAGE));
      const at = (p: number) => `<http://${req.headers.host}${url.pathname}?per_page=100&page=${p}>`;
      const links = [...(page < last ? [`${at(page + 1)}; rel="next"`] : []), `${at(last)}; rel="last"`];
      return send(200, all.slice((page - 1) * PAGE, page * PAGE), { Link: links.join(', ') });
    }
    if (issueComments && req.method === 'POST') {
      const comment = { id: nextId++, body: body!.body!, user: { login: 'github-actions[bot]' } };
      list(Number(issueComments[1])).push(comment);
      return send(201, {
        ...comment,
        html_url: `https://github.example/${repository}/pull/${issueComments[1]}#issuecomment-${comment.id}`,
      });
    }
    if (oneComment && req.method === 'PATCH') {
      const comment = [...comments.values()].flat().find((c) => c.id === Number(oneComment[1]));
      if (!comment) return send(404, { message: 'Not Found' });
      comment.body = body!.body!;
      return send(200, { ...comment, html_url: `https://github.example/${repository}#issuecomment-${comment.id}` });
    }
    send(404, { message: 'Not Found' });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    comments,
    seed: (issue, body, login = 'ana') => {
      const comment = { id: nextId++, body, user: { login } };
      list(issue).push(comment);
      return comment;
    },
    failWith: (status) => {
      failure = status;
    },
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}
