import type { SsoConnection } from '@contract';
import { CopyField } from '@/components/CopyButton';
import { FormField, fieldA11y } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { Switch } from '@/components/ui/switch';
import { Textarea } from '@/components/ui/textarea';
import { useSamlServiceProvider } from '../api/samlServiceProvider';

/** The SAML half's fields as the connection form keeps them (its `saml` record). */
export type SamlFieldValues = {
  idpMetadataUrl?: string | null;
  idpMetadataXml?: string | null;
  allowIdpInitiated?: boolean;
};

/**
 * SAML 2.0 in Settings > Single sign-on (decision 062): what to register at the provider (our entity
 * id, ACS URL, metadata URL, each with a copy button), then the provider's metadata by URL or pasted,
 * and whether provider-started sign-in is allowed. What was read from the saved metadata is shown.
 */
export function SamlFields({
  organizationId,
  saved,
  value,
  errors,
  onChange,
}: {
  organizationId: string;
  saved: SsoConnection | null;
  value: SamlFieldValues;
  errors: Record<string, string>;
  onChange: (patch: SamlFieldValues) => void;
}) {
  const sp = useSamlServiceProvider(organizationId);
  const readFrom = saved?.protocol === 'saml' && saved.idpEntityId ? saved : null;
  return (
    <div className="space-y-4" data-testid="sso-saml-fields">
      {sp.data ? (
        <div className="space-y-3">
          <div className="space-y-1">
            <Label htmlFor="saml-entity-id">Entity id (audience) to register at your provider</Label>
            <CopyField id="saml-entity-id" value={sp.data.entityId} copyLabel="Copy the entity id" />
          </div>
          <div className="space-y-1">
            <Label htmlFor="saml-acs-url">Assertion consumer service (ACS) URL, HTTP-POST</Label>
            <CopyField id="saml-acs-url" value={sp.data.acsUrl} copyLabel="Copy the ACS URL" />
          </div>
          <div className="space-y-1">
            <Label htmlFor="saml-metadata-url">Our metadata URL</Label>
            <CopyField id="saml-metadata-url" value={sp.data.metadataUrl} copyLabel="Copy the metadata URL" />
          </div>
        </div>
      ) : sp.isError ? (
        <p className="text-sm text-fg-muted" role="alert">
          Our SAML details could not be loaded. Reload the page to try again.
        </p>
      ) : (
        <Skeleton className="h-24 w-full" aria-label="Loading our SAML details" />
      )}

      <FormField
        id="saml-metadata-url-input"
        label="Your provider's metadata URL"
        optional
        error={errors.idpMetadataUrl}
        hint="An https:// address. Or paste the metadata XML below instead."
      >
        <Input
          {...fieldA11y('saml-metadata-url-input', errors.idpMetadataUrl)}
          value={value.idpMetadataUrl ?? ''}
          onChange={(e) => onChange({ idpMetadataUrl: e.target.value })}
          placeholder="https://login.example.com/federationmetadata.xml"
        />
      </FormField>
      <FormField
        id="saml-metadata-xml"
        label="Or your provider's metadata XML"
        optional
        error={errors.idpMetadataXml}
        hint={
          readFrom ? 'Leave both empty to keep the metadata already saved.' : 'Pasted metadata is used before the URL.'
        }
      >
        <Textarea
          {...fieldA11y('saml-metadata-xml', errors.idpMetadataXml)}
          rows={5}
          className="font-mono text-xs"
          value={value.idpMetadataXml ?? ''}
          onChange={(e) => onChange({ idpMetadataXml: e.target.value })}
          placeholder="<EntityDescriptor …>"
        />
      </FormField>
      {readFrom && (
        <dl className="grid gap-1 text-sm" data-testid="saml-read-from-metadata">
          <dt className="text-fg-subtle">Provider</dt>
          <dd className="break-all">{readFrom.idpEntityId}</dd>
          <dt className="text-fg-subtle">Sign-in URL</dt>
          <dd className="break-all">{readFrom.idpSsoUrl}</dd>
          <dt className="text-fg-subtle">Signing certificates</dt>
          <dd>{readFrom.idpCertificates.length}</dd>
        </dl>
      )}
      <div className="flex items-start justify-between gap-4">
        <div>
          <Label htmlFor="saml-idp-initiated">Allow sign-in started at the provider</Label>
          <p className="text-xs text-fg-subtle">
            Off: only sign-ins started on Pigeonhole’s sign-in page are accepted (safer). On: the provider’s app tile
            signs people in too.
          </p>
        </div>
        <Switch
          id="saml-idp-initiated"
          checked={value.allowIdpInitiated ?? false}
          onCheckedChange={(v) => onChange({ allowIdpInitiated: v })}
        />
      </div>
    </div>
  );
}
