import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Encrypts integration secrets at rest (SMTP passwords, SMS auth tokens, webhook signing
 * secrets) with AES-256-GCM. Stored form: 'enc:v1:' + base64(iv | tag | ciphertext); a value
 * without the prefix is taken as clear text (never written that way by the app).
 */
export type SecretBox = {
  encrypt: (plain: string) => string;
  decrypt: (stored: string) => string;
  isEncrypted: (value: string) => boolean;
};

const PREFIX = 'enc:v1:';

export function createSecretBox(key: Buffer): SecretBox {
  if (key.length !== 32) throw new Error('SECRETS_KEY must be 32 bytes (base64 of 32 random bytes)');
  return {
    encrypt(plain) {
      const iv = crypto.randomBytes(12);
      const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
      const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), data]).toString('base64');
    },
    decrypt(stored) {
      if (!stored.startsWith(PREFIX)) return stored;
      const raw = Buffer.from(stored.slice(PREFIX.length), 'base64');
      const decipher = crypto.createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
      decipher.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    },
    isEncrypted: (value) => value.startsWith(PREFIX),
  };
}

/**
 * The key: SECRETS_KEY (base64 of 32 bytes) when set, as it should be in production; otherwise a
 * key generated once into DATA_DIR/secrets.key (readable by the owner only), so a laptop install
 * needs no set-up. Losing that file makes stored secrets unreadable (re-enter them).
 */
export function loadSecretsKey(secretsKey: string | undefined, dataDir: string): Buffer {
  if (secretsKey) return Buffer.from(secretsKey, 'base64');
  const file = path.join(dataDir, 'secrets.key');
  try {
    return Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
  } catch {
    fs.mkdirSync(dataDir, { recursive: true });
    const key = crypto.randomBytes(32);
    fs.writeFileSync(file, key.toString('base64'), { mode: 0o600, flag: 'wx' });
    return key;
  }
}
