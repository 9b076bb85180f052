import { Injectable } from '@nestjs/common';

/** Set by the process's shutdown sequence (libs/platform/http); /health reads it to report `draining`. */
@Injectable()
export class ShutdownState {
  draining = false;
}
