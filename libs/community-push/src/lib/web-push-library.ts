/**
 * web-push, required on first use (a push sent, or VAPID keys generated into an empty database), not at start:
 * ~35 modules (its ASN.1 and JWS stacks) that most starts never run.
 */
export const webPush = (): typeof import('web-push') => require('web-push');
