import { Injectable, OnModuleDestroy } from '@nestjs/common';
import type { Transporter } from 'nodemailer';
import { Clock } from '@acme/community';
import { VerificationErrors } from '../verification.errors';
import { VerificationSettings } from '../verification.settings';
import { OutboxRepository } from '../repositories/outbox.repository';

// Required when a transport is made, not at start: without SMTP that is the first mail (~35 modules less at start).
const nodemailer = (): typeof import('nodemailer') => require('nodemailer');

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface OutboxEntry extends MailMessage {
  sentAt: string;
}

/**
 * Sends project mail through nodemailer: the SMTP transport when configured, otherwise nodemailer's JSON
 * transport renders the message (validating addresses) and it is kept in the project's outbox.
 */
@Injectable()
export class Mailer implements OnModuleDestroy {
  private readonly smtp?: Transporter;
  private renderer?: Transporter;

  constructor(
    private readonly settings: VerificationSettings,
    private readonly clock: Clock,
    private readonly outbox: OutboxRepository,
  ) {
    // A configured SMTP URL is still checked at start.
    this.smtp = settings.mail.smtpUrl ? nodemailer().createTransport(settings.mail.smtpUrl) : undefined;
  }

  onModuleDestroy(): void {
    this.smtp?.close();
  }

  async send(projectId: string, message: MailMessage): Promise<void> {
    const mail = { from: this.settings.mail.from, ...message };
    try {
      if (this.smtp) {
        await this.smtp.sendMail(mail);
        return;
      }
      this.renderer ??= nodemailer().createTransport({ jsonTransport: true });
      await this.renderer.sendMail(mail);
    } catch (error) {
      throw VerificationErrors.mailUnavailable(error);
    }
    await this.outbox.insert({ projectId, ...message, sentAt: this.clock.now() });
  }

  /** The project's outbox, newest first. */
  async readOutbox(projectId: string, limit = 100): Promise<OutboxEntry[]> {
    const rows = await this.outbox.listNewest(projectId, limit);
    return rows.map((row) => ({
      to: row.to,
      subject: row.subject,
      text: row.text,
      html: row.html,
      sentAt: row.sentAt.toISOString(),
    }));
  }
}
