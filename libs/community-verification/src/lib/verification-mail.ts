import type { MailMessage } from './mail/mailer';
import type { SendVerificationOptions } from './verification-token';

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** The link the user follows in link mode (token and redirect as query parameters). */
export function verificationLink(
  options: Pick<SendVerificationOptions, 'linkEndpoint' | 'redirectUrl'>,
  token: string,
): string {
  const url = new URL(options.linkEndpoint);
  url.searchParams.set('token', token);
  if (options.redirectUrl) url.searchParams.set('redirect', options.redirectUrl);
  return url.toString();
}

export function verificationMail(
  projectName: string,
  token: string,
  options: SendVerificationOptions,
): Omit<MailMessage, 'to'> {
  const subject = `${projectName}: verify your email address`;
  if (options.mode === 'link') {
    const link = verificationLink(options, token);
    return {
      subject,
      text: `Confirm your email address for ${projectName} by opening this link within 5 minutes:\n\n${link}\n`,
      html: `<p>Confirm your email address for ${escapeHtml(projectName)} within 5 minutes:</p><p><a href="${escapeHtml(link)}">Verify my email</a></p>`,
    };
  }
  return {
    subject,
    text: `Your verification code for ${projectName} is: ${token}\n\nIt expires in 5 minutes.\n`,
    html: `<p>Your verification code for ${escapeHtml(projectName)} is:</p><p><strong>${escapeHtml(token)}</strong></p><p>It expires in 5 minutes.</p>`,
  };
}
