import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { OutboxMessage } from '../mail/outbox-message.entity';

export interface NewOutboxMessage {
  projectId: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  sentAt: Date;
}

/** The per-project mail outbox. */
@Injectable()
export class OutboxRepository {
  constructor(@InjectRepository(OutboxMessage) private readonly outbox: Repository<OutboxMessage>) {}

  async insert(message: NewOutboxMessage): Promise<void> {
    await this.outbox.insert(message);
  }

  /** The project's messages, newest first. */
  listNewest(projectId: string, limit: number): Promise<OutboxMessage[]> {
    return this.outbox.find({ where: { projectId }, order: { id: 'DESC' }, take: limit });
  }
}
