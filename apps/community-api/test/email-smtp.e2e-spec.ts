import { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { API, CommunityTestApp } from './support/community-app';

interface Received {
  from: string;
  to: string[];
  raw: string;
}

/** A real SMTP server in-process: the app's nodemailer SMTP transport talks to it over TCP. */
async function startSmtp(): Promise<{ server: SMTPServer; port: number; received: Received[] }> {
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.server.address() as AddressInfo).port, received };
}

describe('email verification over SMTP', () => {
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let t: CommunityTestApp;
  beforeAll(async () => {
    smtp = await startSmtp();
    t = await CommunityTestApp.start({
      env: { SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, MAIL_FROM: 'verify@community.example' },
    });
  });
  afterAll(async () => {
    await t?.close();
    await new Promise<void>((resolve) => smtp?.server.close(() => resolve()));
  });

  it('delivers the code through SMTP (not the outbox) and the code verifies', async () => {
    const project = await t.createProject([]);
    const user = await t.signUp(project.id);
    const sent = await t.request('POST', `${API(project.id)}/auth/send-verification`, {
      token: user.accessToken,
      body: { tokenFormat: 'numeric', tokenLength: 8 },
    });
    expect(sent).toMatchObject({ status: 200, body: { success: true } });
    expect(smtp.received).toHaveLength(1);
    const [mail] = smtp.received;
    expect(mail.from).toBe('verify@community.example');
    expect(mail.to).toEqual([user.email]);
    expect(mail.raw).toMatch(/^Subject: Test project: verify your email address/m);
    // The server's floor for numeric codes is 12 digits, whatever tokenLength asks for.
    const code = /code for Test project is: (\d+)/.exec(mail.raw.replace(/=\r?\n/g, ''))?.[1] as string;
    expect(code).toMatch(/^\d{12}$/);
    expect((await t.admin('GET', `/projects/${project.id}/outbox`)).body).toEqual([]);
    const verified = await t.request('POST', `${API(project.id)}/auth/verify-email`, {
      body: { token: code },
      token: user.accessToken,
    });
    expect(verified).toMatchObject({
      status: 200,
      body: { success: true },
    });
  });

  it('answers 503 mail/unavailable when the SMTP server refuses, and keeps no token nobody received', async () => {
    const refusing = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onRcptTo(_address, _session, callback) {
        callback(new Error('mailbox unavailable'));
      },
    });
    await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
    const port = (refusing.server.address() as AddressInfo).port;
    const broken = await CommunityTestApp.start({ env: { SMTP_URL: `smtp://127.0.0.1:${port}` } });
    try {
      const project = await broken.createProject([]);
      const user = await broken.signUp(project.id);
      const sent = await broken.request('POST', `${API(project.id)}/auth/send-verification`, {
        token: user.accessToken,
        body: {},
      });
      expect(sent).toMatchObject({ status: 503, body: { code: 'mail/unavailable' } });
      const { Client } = await import('pg');
      const client = new Client({ connectionString: broken.app.database.url });
      await client.connect();
      try {
        const { rows } = await client.query(
          `SELECT count(*)::int AS n FROM community.verification_tokens WHERE project_id = $1`,
          [project.id],
        );
        expect(rows[0].n).toBe(0);
      } finally {
        await client.end();
      }
    } finally {
      await broken.close();
      await new Promise<void>((resolve) => refusing.close(() => resolve()));
    }
  });
});
