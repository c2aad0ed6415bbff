import webpush from 'web-push';

/** A VAPID key pair for web push, base64url as browsers take the public one. */
export const generateVapidKeys = (): { publicKey: string; privateKey: string } => webpush.generateVAPIDKeys();
