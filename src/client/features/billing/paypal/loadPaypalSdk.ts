import { CURRENCY } from '@contract';

/** The parts of PayPal's JS SDK (window.paypal) the checkout uses. */
export interface PaypalButtonsInstance {
  render(container: HTMLElement): Promise<void>;
  close(): Promise<void>;
  isEligible(): boolean;
}

export interface PaypalButtonsOptions {
  style?: { layout?: 'vertical' | 'horizontal'; color?: string; shape?: string; label?: string; height?: number };
  createOrder: () => Promise<string>;
  onApprove: (data: { orderID: string }) => Promise<void>;
  onCancel?: () => void;
  onError?: (err: unknown) => void;
}

export interface PaypalNamespace {
  Buttons(options: PaypalButtonsOptions): PaypalButtonsInstance;
}

declare global {
  interface Window {
    paypal?: PaypalNamespace;
  }
}

const loading = new Map<string, Promise<PaypalNamespace>>();

/**
 * Loads PayPal's JS SDK once per client id, on demand (only when someone chooses PayPal), and
 * answers its namespace. A failed load is forgotten so a retry tries again.
 */
export function loadPaypalSdk(clientId: string): Promise<PaypalNamespace> {
  const known = loading.get(clientId);
  if (known) return known;
  const promise = new Promise<PaypalNamespace>((resolve, reject) => {
    const script = document.createElement('script');
    const query = new URLSearchParams({ 'client-id': clientId, currency: CURRENCY, intent: 'capture' });
    script.src = `https://www.paypal.com/sdk/js?${query.toString()}`;
    script.async = true;
    script.dataset.paypalSdk = clientId;
    script.onload = () => (window.paypal ? resolve(window.paypal) : reject(new Error('PayPal did not load')));
    script.onerror = () => reject(new Error('PayPal could not be reached'));
    document.head.appendChild(script);
  }).catch((err: unknown) => {
    loading.delete(clientId);
    document.querySelector(`script[data-paypal-sdk="${CSS.escape(clientId)}"]`)?.remove();
    throw err;
  });
  loading.set(clientId, promise);
  return promise;
}
