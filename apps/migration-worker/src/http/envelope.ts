import { Injectable } from '@nestjs/common';
import { SuccessEnvelope } from '@acme/platform-http';

/** What an `@Enveloped()` handler returns: the envelope's message and data. */
export interface SuccessMessage<T> {
  message: string;
  data: T;
}

/** Velt's success envelope: `{result: {status: "success", message, data}}`. */
@Injectable()
export class MigrationEnvelope extends SuccessEnvelope {
  wrap(result: unknown): unknown {
    const { message, data } = result as SuccessMessage<unknown>;
    return { result: { status: 'success', message, data } };
  }
}
