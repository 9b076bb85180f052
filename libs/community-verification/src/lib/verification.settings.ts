/** Configuration of verification and mail from the app (libs never read env). */
export abstract class VerificationSettings {
  /** SMTP when `smtpUrl` is set, else the project outbox. */
  abstract readonly mail: { smtpUrl?: string; from: string };
  /** Verify attempts allowed per project and client address. */
  abstract readonly attempts: { perMinute: number; perHour: number; perProjectPerHour?: number };
}
