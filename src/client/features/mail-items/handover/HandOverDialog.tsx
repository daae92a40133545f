import {
  HANDOVER_PHOTO_REQUIRED,
  HandOverBody,
  IDENTIFIED_BY,
  PHOTO_MAX_BYTES,
  PHOTO_TOO_LARGE,
  PICKUP_CODE_REQUIRED,
  SIGNATURE_REQUIRED,
  type IdentifiedBy,
  type PickupLookup,
} from '@contract';
import { Camera, PackageCheck, Trash2, Users } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { FormField, fieldA11y } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/components/ui/use-toast';
import { serverMessage } from '@/lib/api';
import { formatHoldDay, isHeld, relativeTime } from '@/lib/format';
import { checkForm } from '@/lib/forms';
import { useOrganizationSettings } from '@/lib/resources/organizationSettings';
import { useHandOver } from '../api/handOver';
import { storageLabel, typeLabel } from '../mailItemFormat';
import { SignaturePad } from './SignaturePad';

/** Names compared as a person reads them: case, spacing and word order do not matter (as the server does). */
const nameKey = (name: string) => name.toLowerCase().split(/\s+/).filter(Boolean).sort().join(' ');

const IDENTIFIED_BY_TEXT: Record<IdentifiedBy, string> = {
  pickup_code: 'Pickup code',
  id_checked: 'ID checked',
  known_to_staff: 'Known to staff',
};

interface HandOverDialogProps {
  organizationId: string;
  /** Whose items, found by their pickup code; null closes the dialog. */
  lookup: PickupLookup | null;
  onOpenChange: (open: boolean) => void;
  /** After the hand-over: the desk goes back to its code field for the next person. */
  onDone: () => void;
  /**
   * Started from one item's "Delivered" (its row or its menu, decision 053): that item is ticked,
   * the recipient's other waiting items are offered unticked, and nobody showed a code, so the
   * desk says how it knew the collector.
   */
  startWith?: { itemId: string; identifiedBy: IdentifiedBy };
  /**
   * The code the recipient was found by (Pending Pickups' field): sent with "Identified by pickup
   * code", which the server checks (decision 050). Without one, the desk types the code shown.
   */
  pickupCode?: string;
}

function readPhoto(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as string);
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

type Errors = Partial<Record<'items' | 'collector' | 'code' | 'signature' | 'photo' | 'reason' | 'form', string>>;
type BodyField = keyof HandOverBody;

/** The field of the form that shows a message about each field of the body. */
const FIELD_OF: Record<BodyField, keyof Errors> = {
  itemIds: 'items',
  collectorName: 'collector',
  identifiedBy: 'form',
  pickupCode: 'code',
  signatureData: 'signature',
  photoData: 'photo',
  proxyReason: 'reason',
};

function HandOverForm({
  organizationId,
  lookup,
  onCancel,
  onDone,
  startWith,
  pickupCode,
}: HandOverDialogProps & { lookup: PickupLookup; onCancel: () => void }) {
  const ids = {
    collector: useId(),
    code: useId(),
    signature: useId(),
    photo: useId(),
    reason: useId(),
    identified: useId(),
  };
  const { recipient, items } = lookup;
  // An item whose recipient is gone (no id): handed over to whoever collects, no list to check.
  const hasRecipient = recipient.id !== '';
  const fullName = `${recipient.firstName} ${recipient.lastName}`.trim();
  const settings = useOrganizationSettings(organizationId).data;
  const handOver = useHandOver(organizationId);

  // A held item waits for its recipient's date: it is offered, not ticked (the row's own item is
  // ticked: the clerk chose it).
  const [chosen, setChosen] = useState<Set<string>>(
    () => new Set(startWith ? [startWith.itemId] : items.filter((i) => !isHeld(i.heldUntil)).map((i) => i.id)),
  );
  const [collector, setCollector] = useState(fullName);
  const [identifiedBy, setIdentifiedBy] = useState<IdentifiedBy>(startWith?.identifiedBy ?? 'pickup_code');
  const [signature, setSignature] = useState<string | null>(null);
  const [photo, setPhoto] = useState<string | null>(null);
  const [reason, setReason] = useState('');
  const [typedCode, setTypedCode] = useState('');
  const [errors, setErrors] = useState<Errors>({});

  const allowed = [fullName, ...recipient.proxies].map(nameKey);
  const needsReason = hasRecipient && collector.trim() !== '' && !allowed.includes(nameKey(collector));
  const signatureRequired = settings?.handoverRequiresSignature ?? false;
  const photoRequired = settings?.handoverRequiresPhoto ?? false;

  const toggle = (id: string) =>
    setChosen((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const typed = pickupCode ?? typedCode;
    const checked = checkForm<typeof HandOverBody, BodyField>(HandOverBody, {
      itemIds: items.filter((i) => chosen.has(i.id)).map((i) => i.id),
      collectorName: collector,
      identifiedBy,
      pickupCode: identifiedBy === 'pickup_code' && typed.trim() ? typed : null,
      signatureData: signature,
      photoData: photo,
      proxyReason: needsReason ? reason : null,
    });
    const found: Errors = {};
    for (const [field, message] of Object.entries(checked.errors ?? {}))
      found[FIELD_OF[field as BodyField]] ??= message;
    // What the server requires beyond the body: this organization's settings, this recipient's
    // list of collectors, a code when the desk says it saw one.
    if (signatureRequired && !signature) found.signature ??= SIGNATURE_REQUIRED;
    if (photoRequired && !photo) found.photo ??= HANDOVER_PHOTO_REQUIRED;
    if (needsReason && !reason.trim()) found.reason ??= `Say why ${collector.trim()} collects for ${fullName}`;
    if (identifiedBy === 'pickup_code' && !typed.trim()) found.code ??= PICKUP_CODE_REQUIRED;
    setErrors(found);
    if (!checked.data || Object.keys(found).length > 0) return;
    handOver.mutate(checked.data, {
      onSuccess: () => {
        toast({
          title: 'Handed over',
          description: `${chosen.size} ${chosen.size === 1 ? 'item' : 'items'} handed to ${collector.trim()}.`,
        });
        onDone();
      },
      onError: (err) => setErrors({ form: serverMessage(err, 'The hand-over could not be saved. Try again.') }),
    });
  };

  const count = chosen.size;
  return (
    <form onSubmit={submit} noValidate className="space-y-5">
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium text-fg-secondary">Items to hand over</legend>
        <ul className="divide-y divide-line rounded-lg border border-line">
          {items.map((item) => (
            <li key={item.id}>
              <label className="flex cursor-pointer items-center gap-3 px-3 py-2.5 hover:bg-surface-subtle">
                <input
                  type="checkbox"
                  className="size-4 accent-indigo-600"
                  checked={chosen.has(item.id)}
                  onChange={() => toggle(item.id)}
                />
                <span className="min-w-0 flex-1">
                  <span className="block text-sm font-medium text-fg">
                    {typeLabel(item.type)}
                    {item.trackingNumber && (
                      <span className="ml-2 font-mono text-xs text-fg-muted">{item.trackingNumber}</span>
                    )}
                  </span>
                  <span className="block text-xs text-fg-subtle">
                    {[storageLabel(item), `arrived ${relativeTime(item.arrivedAt)}`].filter(Boolean).join(' · ')}
                  </span>
                  {isHeld(item.heldUntil) && (
                    <span className="block text-xs font-medium text-indigo-700 dark:text-indigo-300">
                      Held until {formatHoldDay(item.heldUntil)} at the recipient’s request
                    </span>
                  )}
                </span>
              </label>
            </li>
          ))}
        </ul>
        {errors.items && <p className="text-sm text-red-600 dark:text-red-400">{errors.items}</p>}
      </fieldset>

      <FormField
        id={ids.collector}
        label="Collector Name"
        error={errors.collector}
        hint={
          recipient.proxies.length > 0 ? (
            <span className="inline-flex items-center gap-1">
              <Users className="size-3.5" aria-hidden /> May also collect: {recipient.proxies.join(', ')}
            </span>
          ) : (
            'Who is picking the items up.'
          )
        }
      >
        <Input
          {...fieldA11y(ids.collector, errors.collector)}
          autoComplete="off"
          maxLength={255}
          list={`${ids.collector}-proxies`}
          value={collector}
          onFocus={(event) => event.currentTarget.select()}
          onChange={(event) => {
            setCollector(event.target.value);
            setErrors((e) => ({ ...e, collector: undefined, reason: undefined }));
          }}
        />
        <datalist id={`${ids.collector}-proxies`}>
          {[fullName, ...recipient.proxies].filter(Boolean).map((name) => (
            <option key={name} value={name} />
          ))}
        </datalist>
      </FormField>

      {needsReason && (
        <FormField
          id={ids.reason}
          label="Why they collect"
          error={errors.reason}
          hint={`${collector.trim()} is not on ${fullName}'s list of people who may collect.`}
        >
          <Textarea
            {...fieldA11y(ids.reason, errors.reason)}
            rows={2}
            maxLength={500}
            value={reason}
            onChange={(event) => {
              setReason(event.target.value);
              setErrors((e) => ({ ...e, reason: undefined }));
            }}
          />
        </FormField>
      )}

      <fieldset className="space-y-2">
        <legend id={ids.identified} className="text-sm font-medium text-fg-secondary">
          Identified by
        </legend>
        {/* one per line on phones: three in a row there wrapped each label onto two lines beside its dot */}
        <div className="grid gap-2 sm:grid-cols-3">
          {IDENTIFIED_BY.map((way) => (
            <label
              key={way}
              className="flex cursor-pointer items-center gap-2 rounded-lg border border-line px-3 py-2 text-sm whitespace-nowrap has-[:checked]:border-indigo-500 has-[:checked]:bg-indigo-50 sm:justify-center sm:px-2 dark:has-[:checked]:bg-indigo-950/40"
            >
              <input
                type="radio"
                name="identifiedBy"
                className="accent-indigo-600"
                checked={identifiedBy === way}
                onChange={() => setIdentifiedBy(way)}
              />
              {IDENTIFIED_BY_TEXT[way]}
            </label>
          ))}
        </div>
      </fieldset>

      {identifiedBy === 'pickup_code' && !pickupCode && (
        <FormField
          id={ids.code}
          label="Pickup code shown"
          error={errors.code}
          hint="The code on the collector’s message or page, like K7M-4PX."
        >
          <Input
            {...fieldA11y(ids.code, errors.code)}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={40}
            className="font-mono uppercase tracking-wider"
            value={typedCode}
            onChange={(event) => {
              setTypedCode(event.target.value);
              setErrors((e) => ({ ...e, code: undefined }));
            }}
          />
        </FormField>
      )}

      <FormField id={ids.signature} label="Signature" optional={!signatureRequired} error={errors.signature}>
        <SignaturePad
          id={ids.signature}
          invalid={Boolean(errors.signature)}
          describedBy={errors.signature ? `${ids.signature}-error` : undefined}
          onChange={(png) => {
            setSignature(png);
            setErrors((e) => ({ ...e, signature: undefined }));
          }}
        />
      </FormField>

      <FormField id={ids.photo} label="Photo of the collector" optional={!photoRequired} error={errors.photo}>
        {photo ? (
          <div className="flex items-center gap-3 rounded-lg border border-line bg-surface-subtle p-2">
            <img src={photo} alt="Collector photo preview" className="size-14 shrink-0 rounded-md object-cover" />
            <p className="min-w-0 flex-1 text-sm text-fg-muted">Photo attached</p>
            <Button type="button" variant="ghost" size="sm" onClick={() => setPhoto(null)}>
              <Trash2 aria-hidden /> Remove
            </Button>
          </div>
        ) : (
          <label className="flex h-10 cursor-pointer items-center justify-center gap-2 rounded-lg border border-dashed border-line-strong text-sm text-fg-muted hover:bg-surface-subtle">
            <Camera className="size-4" aria-hidden /> Take or choose a photo
            <input
              {...fieldA11y(ids.photo, errors.photo)}
              type="file"
              accept="image/*"
              capture="user"
              className="sr-only"
              onChange={async (event) => {
                const file = event.target.files?.[0];
                if (!file) return;
                if (file.size > PHOTO_MAX_BYTES) {
                  setErrors((e) => ({ ...e, photo: PHOTO_TOO_LARGE }));
                  return;
                }
                setPhoto(await readPhoto(file));
                setErrors((e) => ({ ...e, photo: undefined }));
              }}
            />
          </label>
        )}
      </FormField>

      {errors.form && (
        <p
          role="alert"
          className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700 dark:bg-red-950/40 dark:text-red-300"
        >
          {errors.form}
        </p>
      )}

      {/* Kept in view at the dialog's foot: the form is taller than a phone or a laptop screen, and
          the clerk confirms without scrolling back down past the pad they just signed on. */}
      <div className="sticky -bottom-6 z-10 -mx-6 -mb-6 flex gap-2 border-t border-line bg-surface px-6 py-4 sm:justify-end [&>button]:flex-1 sm:[&>button]:flex-none">
        <Button type="button" variant="outline" onClick={onCancel} disabled={handOver.isPending}>
          Cancel
        </Button>
        <Button type="submit" disabled={handOver.isPending || count === 0}>
          <PackageCheck aria-hidden />
          {handOver.isPending ? 'Handing over…' : `Hand over ${count} ${count === 1 ? 'item' : 'items'}`}
        </Button>
      </div>
    </form>
  );
}

/** The desk's hand-over: a recipient's waiting items, the collector, how identified, signature and photo. */
export function HandOverDialog({
  organizationId,
  lookup,
  onOpenChange,
  onDone,
  startWith,
  pickupCode,
}: HandOverDialogProps) {
  const recipient = lookup?.recipient;
  return (
    <Dialog open={lookup !== null} onOpenChange={onOpenChange}>
      {lookup && recipient && (
        <DialogContent
          // what scrolls into view (the field in focus, the pad) stops above the sticky foot, not under it
          className="max-w-xl scroll-pb-24"
          title={recipient.id ? `Hand over to ${recipient.firstName} ${recipient.lastName}` : 'Hand over'}
          description={
            [recipient.unit && `Unit ${recipient.unit}`, recipient.department].filter(Boolean).join(' · ') || undefined
          }
        >
          <HandOverForm
            organizationId={organizationId}
            lookup={lookup}
            onOpenChange={onOpenChange}
            onDone={onDone}
            startWith={startWith}
            pickupCode={pickupCode}
            onCancel={() => onOpenChange(false)}
          />
        </DialogContent>
      )}
    </Dialog>
  );
}
