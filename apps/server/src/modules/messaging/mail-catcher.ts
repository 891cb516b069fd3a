/**
 * Test support: a real SMTP server (the `smtp-server` package) on a free local port that keeps
 * every message it receives, and a small parser for what nodemailer sends (headers, RFC 2047
 * subjects, quoted-printable or base64 text bodies). Not used by the server itself.
 */
import getPort from 'get-port';
import { SMTPServer } from 'smtp-server';

export interface CaughtMail {
  /** Envelope recipients. */
  to: string[];
  headers: Map<string, string>;
  subject: string;
  text: string;
  raw: string;
}

export interface MailCatcher {
  url: string;
  messages: CaughtMail[];
  /** The first message (already received or arriving within `timeoutMilliseconds`) that matches. */
  waitFor(predicate: (mail: CaughtMail) => boolean, timeoutMilliseconds?: number): Promise<CaughtMail>;
  stop(): Promise<void>;
}

function decodeQuotedPrintable(text: string): string {
  const bytes: number[] = [];
  const joined = text.replace(/=\r?\n/g, '');
  for (let index = 0; index < joined.length; index++) {
    const character = joined[index] ?? '';
    const hex = joined.slice(index + 1, index + 3);
    if (character === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      index += 2;
    } else {
      bytes.push(...Buffer.from(character, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** =?UTF-8?B?...?= and =?UTF-8?Q?...?= words of a header. */
function decodeEncodedWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g, (_word, _charset: string, encoding: string, content: string) =>
      encoding.toUpperCase() === 'B'
        ? Buffer.from(content, 'base64').toString('utf8')
        : decodeQuotedPrintable(content.replace(/_/g, ' ')),
    );
}

export function parseMail(raw: string, to: string[]): CaughtMail {
  const separator = raw.search(/\r?\n\r?\n/);
  const head = separator === -1 ? raw : raw.slice(0, separator);
  const body = separator === -1 ? '' : raw.slice(separator).replace(/^\r?\n\r?\n/, '');
  const headers = new Map<string, string>();
  // Folded header lines continue with whitespace.
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  const encoding = (headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  const text =
    encoding === 'quoted-printable'
      ? decodeQuotedPrintable(body)
      : encoding === 'base64'
        ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
        : body;
  return { to, headers, subject: decodeEncodedWords(headers.get('subject') ?? ''), text: text.replace(/\r\n/g, '\n').trimEnd(), raw };
}

export async function startMailCatcher(): Promise<MailCatcher> {
  const messages: CaughtMail[] = [];
  const waiters = new Set<() => void>();
  const server = new SMTPServer({
    authOptional: true,
    // Plain SMTP on localhost: nodemailer would otherwise upgrade to TLS with a self-signed certificate.
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        messages.push(parseMail(Buffer.concat(chunks).toString('utf8'), session.envelope.rcptTo.map((recipient) => recipient.address)));
        for (const wake of waiters) wake();
        callback();
      });
    },
  });
  const port = await getPort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    waitFor: (predicate, timeoutMilliseconds = 5000) =>
      new Promise<CaughtMail>((resolve, reject) => {
        const check = () => {
          const found = messages.find(predicate);
          if (found === undefined) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(found);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no matching mail within ${timeoutMilliseconds} ms (received ${messages.length})`));
        }, timeoutMilliseconds);
        waiters.add(check);
        check();
      }),
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
      }),
  };
}
