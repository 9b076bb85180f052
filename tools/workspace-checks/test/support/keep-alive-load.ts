import { Agent, request } from 'node:http';

export interface Outcome {
  sentAt: number;
  status?: number;
  error?: string;
  /** Sent on a socket an earlier answer had left open (Node's ClientRequest.reusedSocket). */
  reused?: boolean;
}

/** `clients` loops, each on its own keep-alive socket, sending GET `url` until stopped. */
export function keepAliveLoad(url: string, clients: number): { outcomes: Outcome[]; stop(): Promise<void> } {
  const agent = new Agent({ keepAlive: true, maxSockets: clients });
  const outcomes: Outcome[] = [];
  let running = true;
  const once = () =>
    new Promise<void>((resolve) => {
      const outcome: Outcome = { sentAt: Date.now() };
      outcomes.push(outcome);
      const req = request(url, { agent }, (response) => {
        response.resume();
        response.on('end', () => {
          outcome.status = response.statusCode;
          resolve();
        });
        response.on('error', (error) => {
          outcome.error = error.message;
          resolve();
        });
      });
      req.on('error', (error: NodeJS.ErrnoException) => {
        outcome.error = error.code ?? error.message;
        outcome.reused = req.reusedSocket;
        resolve();
      });
      req.end();
    });
  const loops = Array.from({ length: clients }, async () => {
    while (running) {
      await once();
      // After the server went away, do not spin on refused connections.
      if (outcomes[outcomes.length - 1]?.error) await new Promise((resolve) => setTimeout(resolve, 20));
    }
  });
  return {
    outcomes,
    async stop() {
      running = false;
      await Promise.all(loops);
      agent.destroy();
    },
  };
}

/** A multipart POST whose body is written in two halves, `pauseMs` apart; resolves with the status. */
export function slowMultipart(
  url: string,
  headers: Record<string, string>,
  parts: { fields: Record<string, string>; file?: { field: string; name: string; type: string; data: Buffer } },
  pauseMs: number,
) {
  const boundary = `----shutdown${Date.now()}`;
  const chunks: Buffer[] = Object.entries(parts.fields).map(([name, value]) =>
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
  );
  if (parts.file) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${parts.file.field}"; filename="${parts.file.name}"\r\nContent-Type: ${parts.file.type}\r\n\r\n`,
      ),
      parts.file.data,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  const body = Buffer.concat(chunks);
  let started!: () => void;
  const firstHalfSent = new Promise<void>((resolve) => (started = resolve));
  const done = new Promise<{ status?: number; error?: string; body: string }>((resolve) => {
    const req = request(
      url,
      {
        method: 'POST',
        headers: {
          ...headers,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': String(body.length),
        },
      },
      (response) => {
        let text = '';
        response.on('data', (chunk) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode, body: text }));
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message, body: '' }));
    const half = Math.floor(body.length / 2);
    req.write(body.subarray(0, half), () => started());
    if (pauseMs >= 0) setTimeout(() => req.end(body.subarray(half)), pauseMs);
  });
  return { firstHalfSent, done };
}
