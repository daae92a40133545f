import sharp from 'sharp';
import type { Client } from './harness';

let signature: Promise<string> | undefined;

/** A pad's PNG: a stroke across a transparent strip, as a canvas draws it (made once per test file). */
export function signaturePng(): Promise<string> {
  signature ??= (async () => {
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" width="300" height="120">' +
      '<path d="M20 80 C 80 10, 140 150, 280 60" stroke="#111" stroke-width="3" fill="none"/></svg>';
    const png = await sharp(Buffer.from(svg)).png().toBuffer();
    return `data:image/png;base64,${png.toString('base64')}`;
  })();
  return signature;
}

export type HandOverOptions = {
  collectorName?: string;
  identifiedBy?: 'pickup_code' | 'id_checked' | 'known_to_staff';
  pickupCode?: string;
  proxyReason?: string;
  /** false: no signature (an organization that turned the requirement off). */
  signed?: boolean;
  headers?: Record<string, string>;
};

/**
 * The one way a test marks items delivered (decision 053): the desk's hand-over, signed (new
 * organizations require a signature), by ID, collected by `collectorName`. Answers the reply;
 * `handedOver` below throws unless it is 201.
 */
export async function handOverRequest(client: Client, itemIds: string | string[], options: HandOverOptions = {}) {
  const { collectorName = 'Ada Lovelace', identifiedBy = 'id_checked', signed = true } = options;
  const send = async (proxyReason: string | undefined) =>
    client.post(
      '/api/handovers',
      {
        itemIds: Array.isArray(itemIds) ? itemIds : [itemIds],
        collectorName,
        identifiedBy,
        ...(options.pickupCode ? { pickupCode: options.pickupCode } : {}),
        ...(proxyReason ? { proxyReason } : {}),
        ...(signed ? { signatureData: await signaturePng() } : {}),
      },
      options.headers,
    );
  const res = await send(options.proxyReason);
  // Tests name any collector: one who is not the recipient nor on their list says why, as at the desk.
  if (
    res.statusCode === 400 &&
    !options.proxyReason &&
    res.json<{ code?: string }>().code === 'proxy_reason_required'
  ) {
    return send('Collecting for them, as the test says');
  }
  return res;
}

/** handOverRequest that must succeed: answers the hand-over. */
export async function handedOver(client: Client, itemIds: string | string[], options: HandOverOptions = {}) {
  const res = await handOverRequest(client, itemIds, options);
  if (res.statusCode !== 201) throw new Error(`hand-over failed: ${res.statusCode} ${res.body}`);
  return res.json<{ id: string; itemIds: string[]; collectorName: string }>();
}
