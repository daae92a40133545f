/**
 * The few parts of `oidc-provider` (a dev dependency without its own types) the tests' loopback
 * provider uses (test-oidc-provider.ts).
 */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  type Ctx = {
    oidc: {
      provider: Provider;
      client?: { clientId: string };
      session?: { accountId?: string };
    };
  };
  class Grant {
    constructor(init: { clientId: string; accountId: string });
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  }
  class Provider {
    constructor(
      issuer: string,
      configuration: Record<string, unknown> & {
        interactions?: { url: (ctx: Ctx, interaction: { uid: string }) => string };
        findAccount?: (
          ctx: Ctx,
          id: string,
        ) => { accountId: string; claims: () => Record<string, unknown> } | undefined;
        loadExistingGrant?: (ctx: Ctx) => Promise<Grant | undefined>;
      },
    );
    Grant: typeof Grant;
    on(event: string, listener: (...args: unknown[]) => void): this;
    callback(): (req: IncomingMessage, res: ServerResponse) => Promise<void>;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<{ uid: string; prompt: { name: string } }>;
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
  }
  export default Provider;
}
