/**
 * Secrets at rest. Platform credentials (tokens, app passwords) are sealed with
 * AES-256-GCM under the configured 32-byte key; API keys are stored as SHA-256 only.
 */
import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** Sealed format: `v1:` + base64(iv[12] | tag[16] | ciphertext). */
export class SecretBox {
  private readonly key: Buffer;
  constructor(keyHex: string) {
    this.key = Buffer.from(keyHex, 'hex');
    if (this.key.length !== 32) throw new Error('secret key must be 32 bytes (64 hex characters)');
  }

  seal(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return 'v1:' + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
  }

  /** @throws Error when the value was not sealed with this key or was altered. */
  open(sealed: string): string {
    if (!sealed.startsWith('v1:')) throw new Error('unknown sealed-secret format');
    const raw = Buffer.from(sealed.slice(3), 'base64');
    const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  }

  sealJson(value: unknown): string {
    return this.seal(JSON.stringify(value));
  }

  openJson<T>(sealed: string): T {
    return JSON.parse(this.open(sealed)) as T;
  }

  /**
   * A 32-byte key for another use, derived from this one: HMAC-SHA256(key, `label`). Each label
   * gives its own key (e.g. `herald:oauth-state` signs OAuth state ids), so that one secret never
   * serves two purposes.
   */
  subkey(label: string): Buffer {
    return createHmac('sha256', this.key).update(label).digest();
  }
}

/** API key prefix; keys look like `sk_` + 64 hex characters (32 random bytes). */
export const API_KEY_PREFIX = 'sk_';

/** Generates a new API key (32 random bytes). */
export function generateApiKey(): string {
  return API_KEY_PREFIX + randomBytes(32).toString('hex');
}

/** SHA-256 of an API key, the only form stored. */
export function hashApiKey(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}

/** Constant-time comparison of two digests. */
export function digestsEqual(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Short display form of a key: `sk_1234...abcd`. */
export function keyPreview(key: string): string {
  return `${key.slice(0, 7)}...${key.slice(-4)}`;
}
