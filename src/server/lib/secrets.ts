import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Encrypts integration secrets at rest (SMTP passwords, SMS auth tokens, webhook signing
 * secrets) with AES-256-GCM. Stored form: 'enc:v1:' + base64(iv | tag | ciphertext); a value
 * without the prefix is taken as clear text (never written that way by the app).
 *
 * Key rotation: values are always written with the current key; reading also tries the previous
 * keys (GCM's tag tells which key wrote a value), so SECRETS_KEY can change while
 * SECRETS_KEY_PREVIOUS keeps the old values readable until they are re-encrypted.
 */
export type SecretBox = {
  encrypt: (plain: string) => string;
  /** Throws when no configured key can read the value. */
  decrypt: (stored: string) => string;
  isEncrypted: (value: string) => boolean;
  /** Encrypted with the current key (false for clear text and for values of a previous key). */
  isCurrent: (stored: string) => boolean;
};

export type SecretKeys = { current: Buffer; previous: readonly Buffer[] };

const PREFIX = 'enc:v1:';

function open(key: Buffer, raw: Buffer): string | undefined {
  try {
    const decipher = crypto.createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  } catch {
    return undefined; // not this key (or a damaged value)
  }
}

export function createSecretBox(keys: SecretKeys | Buffer): SecretBox {
  const { current, previous } = Buffer.isBuffer(keys) ? { current: keys, previous: [] } : keys;
  return {
    encrypt(plain) {
      const iv = crypto.randomBytes(12);
      const cipher = crypto.createCipheriv('aes-256-gcm', current, iv);
      const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), data]).toString('base64');
    },
    decrypt(stored) {
      if (!stored.startsWith(PREFIX)) return stored;
      const raw = Buffer.from(stored.slice(PREFIX.length), 'base64');
      for (const key of [current, ...previous]) {
        const plain = open(key, raw);
        if (plain !== undefined) return plain;
      }
      throw new Error('A stored secret cannot be read with SECRETS_KEY or SECRETS_KEY_PREVIOUS');
    },
    isEncrypted: (value) => value.startsWith(PREFIX),
    isCurrent: (stored) =>
      stored.startsWith(PREFIX) && open(current, Buffer.from(stored.slice(PREFIX.length), 'base64')) !== undefined,
  };
}

function parseKey(name: string, value: string): Buffer {
  const key = Buffer.from(value.trim(), 'base64');
  if (key.length !== 32) throw new Error(`${name} must be 32 bytes (base64 of 32 random bytes)`);
  return key;
}

/** The current key (see loadSecretsKey) and the previous ones from SECRETS_KEY_PREVIOUS. */
export function loadSecretKeys(
  secretsKey: string | undefined,
  previous: readonly string[],
  dataDir: string,
): SecretKeys {
  return {
    current: loadSecretsKey(secretsKey, dataDir),
    previous: previous.map((value) => parseKey('SECRETS_KEY_PREVIOUS', value)),
  };
}

/**
 * The key: SECRETS_KEY (base64 of 32 bytes) when set, as it should be in production; otherwise a
 * key generated once into DATA_DIR/secrets.key (readable by the owner only), so a laptop install
 * needs no set-up. Losing that file makes stored secrets unreadable (re-enter them).
 */
function loadSecretsKey(secretsKey: string | undefined, dataDir: string): Buffer {
  if (secretsKey) return parseKey('SECRETS_KEY', secretsKey);
  const file = path.join(dataDir, 'secrets.key');
  try {
    return parseKey(file, fs.readFileSync(file, 'utf8'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    fs.mkdirSync(dataDir, { recursive: true });
    const key = crypto.randomBytes(32);
    fs.writeFileSync(file, key.toString('base64'), { mode: 0o600, flag: 'wx' });
    return key;
  }
}
