import { PHOTO_REQUIRED_MESSAGE, type CreateMailItemBody, type ExpectedBy } from '@contract';
import { UserPlus } from 'lucide-react';
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useForm } from 'react-hook-form';
import { useMutation } from '@tanstack/react-query';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { FormActions } from '@/components/FormActions';
import { RecipientFormDialog } from '@/components/RecipientFormDialog';
import { toast } from '@/components/ui/use-toast';
import { useSignedInUser } from '@/lib/resources/currentUser';
import { useOrganizationSettings } from '@/lib/resources/organizationSettings';
import { displayName } from '@/lib/format';
import { locationIdFromLabel } from '@/lib/printing';
import { useLocations } from '@/lib/resources/mailrooms';
import { serverMessage } from '@/lib/api';
import type { ScannedCode } from '../intake/barcode/decodeBarcode';
import { PhotoCapture } from '../intake/components/PhotoCapture';
import { DEFAULT_LABEL_THRESHOLD, LabelReader } from '../label/LabelReader';
import { useExpectedMatch } from '../api/expectedMatch';
import { logOrQueue, type Logged, type OutboxRoute } from '../offline/outbox';
import { LogWithoutRecipientButton } from '../needs-recipient/LogWithoutRecipientButton';
import {
  NO_STORAGE,
  courierCompanies,
  packageTypes,
  recipientFullName,
  storageFields,
  typeLabel as typeLabelOf,
} from '../mailItemFormat';
import { logMailForm, type LogMailValues } from '../mailItemForms';
import { CourierField } from './CourierField';
import { ExpectedNotice } from './ExpectedNotice';
import { LoggedNotice, type LoggedConfirmation } from './LoggedNotice';
import { DescriptionField, OptionalTextField, PackageTypeField, SenderField } from './MailItemFields';
import { keepDialogOpenWhileListOpen, recipientLabel } from './RecipientCombobox';
import { RecipientField } from './RecipientField';
import { StorageLocationField } from './StorageLocationField';
import { TrackingNumberField } from './TrackingNumberField';
import { useCourierDetection } from './useCourierDetection';
import { useRecipientChoice } from './useRecipientChoice';

function LogMailForm({ organizationId, onClose }: { organizationId: string; onClose: () => void }) {
  const user = useSignedInUser();
  const settings = useOrganizationSettings(organizationId);
  /**
   * Sent at once, or kept on this device when the network is gone (decision 044): always
   * "online" for TanStack Query, which would otherwise hold the save until the browser is back.
   */
  const log = useMutation({
    mutationFn: ({ route, body, label }: { route: OutboxRoute; body: CreateMailItemBody; label: string }) =>
      logOrQueue(organizationId, user.id, route, body, label),
    networkMode: 'always',
  });
  const ids = {
    tracking: useId(),
    type: useId(),
    recipient: useId(),
    storage: useId(),
    sender: useId(),
    courier: useId(),
    description: useId(),
    collectedBy: useId(),
  };

  const types = packageTypes(settings.data);
  const couriers = courierCompanies(settings.data);
  const requirePhoto = settings.data?.requirePhotoUpload ?? false;
  const defaultType = types.includes('package') ? 'package' : (types[0] ?? 'package');

  const { register, control, setValue, getValues, setError, clearErrors, formState } = useForm<LogMailValues>({
    defaultValues: {
      trackingNumber: '',
      type: defaultType,
      storage: NO_STORAGE,
      sender: '',
      courierCompany: '',
      description: '',
      collectedByStaff: displayName(user),
    },
  });

  const courier = useCourierDetection(couriers, { setValue, getValues });
  const focusRecipient = () => document.getElementById(ids.recipient)?.focus();
  const locations = useLocations(organizationId);

  /**
   * A shelf label read (by the camera, a picture, or a USB scanner typing it into Tracking Number)
   * chooses where the package goes; the choice stays for the packages after it. Answers what the
   * clerk is told.
   */
  const chooseShelf = (locationId: string): string => {
    const location = locations.data?.find((l) => l.id === locationId);
    if (!location || !location.isActive) {
      return 'This shelf label is for a storage location that was deleted or made inactive. Choose one from the list.';
    }
    setValue('storage', location.id, { shouldDirty: true });
    return `Storage Location: ${location.name} · ${location.mailroomName}${location.isFull ? ' (full)' : ''}`;
  };

  const choice = useRecipientChoice(null, { clearErrorOnType: true });
  /** The recipient the label reader filled in itself, which a later read of a label may replace. */
  const autoFilled = useRef<string | null>(null);
  /**
   * Expected packages (decision 047): those who expect the number are offered, never filled in.
   * The label's or the clerk's recipient stays, with "also expected by"; the clerk chooses.
   */
  const expected = useExpectedMatch(organizationId);
  const offered = expected.expecters.map(({ recipient }) => ({ ...recipient, email: null, department: null }));
  const chooseExpecter = ({ recipient }: ExpectedBy) => {
    autoFilled.current = null;
    choice.choose({ ...recipient, email: null, department: null }, 'expected');
    choice.setText('');
    setRecipientKey((k) => k + 1);
  };
  const onTrackingChange = (value: string, scanned = false) => {
    courier.onTrackingChange(value);
    expected.onTrackingChange(value, scanned);
  };

  const onScanned = (scan: ScannedCode): string => {
    if (scan.kind === 'location') return chooseShelf(scan.locationId);
    if (scan.kind === 'slip') return 'That is the pickup slip of an item already logged. Scan the carrier’s label.';
    setValue('trackingNumber', scan.trackingNumber);
    onTrackingChange(scan.trackingNumber, true);
    focusRecipient();
    return `Scanned ${scan.trackingNumber}`;
  };

  /** Enter in Tracking Number: a shelf label typed by a USB scanner is not a tracking number. */
  const onTrackingEnter = () => {
    const locationId = locationIdFromLabel(getValues('trackingNumber') ?? '');
    if (!locationId) {
      // A scanner's Enter: ask at once rather than after the typing pause.
      onTrackingChange(getValues('trackingNumber') ?? '', true);
      focusRecipient();
      return;
    }
    setValue('trackingNumber', '');
    onTrackingChange('');
    const said = chooseShelf(locationId);
    toast({ title: said.startsWith('Storage') ? 'Shelf label scanned' : 'Unknown shelf label', description: said });
  };

  // Read by a failed save's callback, which runs after later renders.
  const startedNext = useRef(false);
  useEffect(() => {
    startedNext.current = choice.text !== '' || choice.recipient !== null;
  }, [choice.text, choice.recipient]);
  const [recipientKey, setRecipientKey] = useState(0);
  const [photo, setPhoto] = useState<string | null>(null);
  const [photoError, setPhotoError] = useState<string>();
  /** The chosen file at full size, for the label reader (the photo sent is resized). */
  const [labelOriginal, setLabelOriginal] = useState<Blob | null>(null);
  const [addingRecipient, setAddingRecipient] = useState(false);
  const [logged, setLogged] = useState<LoggedConfirmation | null>(null);

  /**
   * Saves run one after another in the order logged: a package logged while the previous one is
   * still saving waits its turn instead of being dropped.
   */
  const saving = useRef<{ chain: Promise<void>; count: number }>({ chain: Promise.resolve(), count: 0 });

  /**
   * Synchronous on purpose (not react-hook-form's asynchronous handleSubmit): the form is cleared
   * and focus is back in Tracking Number before the next key event, so a scan that follows the
   * Enter at once lands whole in the cleared field.
   */
  const submit = (withoutRecipient = false) => {
    const typed = getValues();
    // The contract's rules, checked at once (not by handleSubmit, see above).
    const parsed = logMailForm.safeParse(typed);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        setError(issue.path[0] as keyof LogMailValues, { type: issue.code, message: issue.message });
      }
      return;
    }
    clearErrors();
    const { storage, ...fields } = parsed.data;
    const blank = !fields.trackingNumber && !choice.recipient && !choice.text.trim() && !photo;
    if (blank && saving.current.count > 0) return; // a second Enter on the package just sent
    if (!withoutRecipient && choice.refuseUnpicked('Choose a recipient from the list, or clear the field')) {
      focusRecipient();
      return;
    }
    if (requirePhoto && !photo) {
      setPhotoError(PHOTO_REQUIRED_MESSAGE);
      return;
    }
    const named = !withoutRecipient && choice.recipient;
    const body: CreateMailItemBody = {
      ...fields,
      recipientId: named ? choice.recipient!.id : null,
      // How the recipient was chosen, for the item's timeline (decision 047).
      ...(named ? { recipientSource: choice.source } : {}),
      collectorName: null,
      photoData: photo,
      ...storageFields(storage),
    };
    const submittedRecipient = withoutRecipient ? null : choice.recipient;
    const submittedSource = choice.source;
    const submittedPhoto = photo;
    const submittedCourier = courier.state;
    // Ready for the next scan at once: what belonged to this package is cleared now (Type,
    // Storage Location and Received by stay), so a code scanned while it saves starts clean.
    for (const field of ['trackingNumber', 'sender', 'description', 'courierCompany'] as const) setValue(field, '');
    courier.reset();
    expected.reset();
    autoFilled.current = null;
    choice.setRecipient(null);
    choice.setText('');
    setPhoto(null);
    setPhotoError(undefined);
    // Not react-hook-form's setFocus: it focuses on a timer, after the scanner's next keys.
    document.getElementById(ids.tracking)?.focus();
    saving.current.count += 1;
    // Without a recipient: the same item, waiting under Needs a recipient (decision 041).
    const label = `${typed.trackingNumber.trim() || typeLabelOf(body.type)} for ${
      submittedRecipient ? `${submittedRecipient.firstName} ${submittedRecipient.lastName}` : 'no recipient yet'
    }`;
    const save = () =>
      log
        .mutateAsync({ route: withoutRecipient ? 'without-recipient' : 'create', body, label })
        .then(onSaved, onFailed)
        .finally(() => {
          saving.current.count -= 1;
        });
    saving.current.chain = saving.current.chain.then(save);

    function onSaved({ item, queued }: Logged) {
      if (queued) {
        setLogged((prev) => ({
          name: `${submittedRecipient ? `${submittedRecipient.firstName} ${submittedRecipient.lastName}` : 'no recipient'} (saved on this device, waiting to sync)`,
          count: (prev?.count ?? 0) + 1,
        }));
        return;
      }
      setLogged((prev) => ({
        name: item.recipient
          ? recipientFullName(item)
          : submittedRecipient
            ? `${submittedRecipient.firstName} ${submittedRecipient.lastName}`
            : withoutRecipient
              ? 'no recipient yet (see Needs a recipient)'
              : 'no recipient',
        count: (prev?.count ?? 0) + 1,
      }));
      document.getElementById(ids.tracking)?.closest('[role="dialog"]')?.scrollTo({ top: 0 });
    }
    function onFailed(err: unknown) {
      // Put the package back where the clerk has not started the next one, so nothing is lost.
      const restore = getValues('trackingNumber') === '' && !startedNext.current;
      // Otherwise the toast names it, because by now the clerk is on the next package.
      const what =
        typed.trackingNumber.trim() || (submittedRecipient ? recipientLabel(submittedRecipient) : 'A package');
      const message = serverMessage(err, 'Failed to log mail item');
      toast({
        title: 'Error',
        description: restore ? message : `${message} (${what} was not logged)`,
        variant: 'destructive',
      });
      if (!restore) return;
      for (const field of ['trackingNumber', 'sender', 'description', 'courierCompany'] as const) {
        setValue(field, typed[field]);
      }
      courier.restore(submittedCourier, typed.trackingNumber);
      // Restored only while the clerk has not started the next package: nobody is chosen yet.
      choice.setRecipient((current) => current ?? submittedRecipient);
      choice.setSource(submittedSource);
      setPhoto((current) => current ?? submittedPhoto);
    }
  };

  /** Ctrl+Enter (or Cmd+Enter) logs the item from any field. */
  const onFormKeyDown = (event: KeyboardEvent<HTMLFormElement>) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      submit();
    }
  };

  const tracking = register('trackingNumber', { onChange: (event) => onTrackingChange(event.target.value) });
  const { errors } = formState;

  return (
    <>
      {/*
        Fast intake, one package with a USB scanner and a known recipient = 6 key presses:
        the scan types the code and presses Enter (1: focus moves to Recipient, the courier is
        detected), 3 letters of the name (3), Enter picks the first match (1), Enter logs it (1).
        The dialog then stays open, keeps Type, Storage Location and Received by, and focus is back
        in Tracking Number for the next scan.
      */}
      <form
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
        onKeyDown={onFormKeyDown}
        noValidate
        className="space-y-4"
      >
        <LoggedNotice logged={logged} />

        <TrackingNumberField
          id={ids.tracking}
          error={errors.trackingNumber?.message}
          registration={tracking}
          detected={courier.detected}
          onEnter={onTrackingEnter}
        />

        <ExpectedNotice
          expecters={expected.expecters}
          chosenId={choice.recipient?.id ?? null}
          onChoose={(e) => {
            chooseExpecter(e);
            setTimeout(focusRecipient, 0);
          }}
        />

        <RecipientField
          key={recipientKey}
          id={ids.recipient}
          organizationId={organizationId}
          {...choice.field}
          offered={offered}
          onConfirm={submit}
          hint={
            offered.length > 0 && !choice.recipient
              ? 'Enter lists those who expect this number first; Enter again chooses; Enter again logs it.'
              : 'Type a few letters, Enter picks the first match; Enter again logs it.'
          }
          action={
            <Button
              variant="ghost"
              size="sm"
              className="-my-1 h-7 px-2 text-indigo-600 dark:text-indigo-400 hover:text-indigo-700 dark:hover:text-indigo-300"
              onClick={() => setAddingRecipient(true)}
            >
              <UserPlus aria-hidden /> Add Recipient
            </Button>
          }
        />

        <div className="grid gap-4 sm:grid-cols-2">
          <PackageTypeField
            id={ids.type}
            label="Type"
            control={control}
            options={types}
            onPicked={() => clearErrors('type')}
          />
          <StorageLocationField id={ids.storage} organizationId={organizationId} control={control} />
          <CourierField id={ids.courier} control={control} couriers={couriers} onChosen={courier.onChosen} />
          <SenderField id={ids.sender} error={errors.sender?.message} registration={register('sender')} />
          <OptionalTextField
            id={ids.collectedBy}
            label="Received by"
            error={errors.collectedByStaff?.message}
            registration={register('collectedByStaff')}
          />
          <DescriptionField
            id={ids.description}
            error={errors.description?.message}
            registration={register('description')}
          />
        </div>

        <PhotoCapture
          photo={photo}
          onPhotoChange={(next, original) => {
            setPhoto(next);
            setLabelOriginal(original ?? null);
            setPhotoError(undefined);
          }}
          onBarcode={onScanned}
          required={requirePhoto}
          error={photoError}
          nextPackage={logged?.count ?? 0}
        />

        {/* Issue 28: reads the photo's label on this device. The label's recipient outranks an
            expected number (decision 047): those who expect it are shown beside it, not swapped in. */}
        <LabelReader
          organizationId={organizationId}
          photo={photo}
          original={labelOriginal}
          threshold={
            (settings.data as { labelMatchThreshold?: number } | undefined)?.labelMatchThreshold ??
            DEFAULT_LABEL_THRESHOLD
          }
          onTracking={(trackingNumber) => {
            if (getValues('trackingNumber')?.trim()) return false;
            setValue('trackingNumber', trackingNumber, { shouldDirty: true });
            onTrackingChange(trackingNumber, true);
            return true;
          }}
          onRecipient={(recipient, confidence) => {
            const current = choice.recipient;
            const picked = confidence === null; // the clerk chose it from the label's candidates
            if (!picked && current && current.id !== autoFilled.current && current.id !== recipient.id) return false;
            autoFilled.current = picked ? null : recipient.id;
            choice.choose(recipient, 'label');
            choice.setText('');
            setRecipientKey((k) => k + 1);
            return true;
          }}
        />

        <FormActions
          pending={log.isPending}
          onCancel={onClose}
          submitLabel="Log Mail"
          pendingLabel="Logging..."
          className="flex flex-col-reverse gap-2 border-t border-line-subtle pt-4 sm:flex-row sm:items-center sm:justify-end"
        >
          <p className="hidden text-xs text-fg-subtle sm:mr-auto sm:block">Ctrl+Enter logs from any field</p>
          <LogWithoutRecipientButton onClick={() => submit(true)} disabled={log.isPending} />
        </FormActions>
      </form>
      <RecipientFormDialog
        open={addingRecipient}
        onOpenChange={setAddingRecipient}
        shortcut
        onSaved={(created) => {
          choice.choose(created, 'clerk');
          choice.setText('');
          choice.setError(undefined);
          setRecipientKey((k) => k + 1);
          setAddingRecipient(false);
          setTimeout(focusRecipient, 0);
        }}
      />
    </>
  );
}

interface LogMailDialogProps {
  organizationId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** Spec §2 Log New Mail, built for a busy desk: it stays open between packages. */
export function LogMailDialog({ organizationId, open, onOpenChange }: LogMailDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title="Log New Mail"
        description="Scan or type the tracking number, pick the recipient, press Enter."
        className="sm:max-w-2xl"
        onOpenAutoFocus={(event) => {
          // Focus starts in Tracking Number, where a USB scanner types.
          event.preventDefault();
          const content = event.target instanceof HTMLElement ? event.target : null;
          content?.querySelector<HTMLInputElement>('input[data-autofocus]')?.focus();
        }}
        onEscapeKeyDown={keepDialogOpenWhileListOpen}
      >
        <LogMailForm organizationId={organizationId} onClose={() => onOpenChange(false)} />
      </DialogContent>
    </Dialog>
  );
}
