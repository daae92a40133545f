import { useState } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import { detectCourier, matchCourier } from '../intake/courier/detectCourier';
import type { LogMailValues } from '../mailItemForms';

/** What a logged package leaves of detection, put back if its save fails. */
export interface CourierDetectionState {
  chosen: boolean;
  auto: string | null;
}

/**
 * Log Mail fills Courier Company from the tracking number as it is typed or scanned, until a
 * courier is picked by hand; a changed number clears what detection filled in.
 */
export function useCourierDetection(
  couriers: readonly string[],
  { setValue, getValues }: Pick<UseFormReturn<LogMailValues>, 'setValue' | 'getValues'>,
) {
  /** The courier was picked by hand: detection no longer overwrites it. */
  const [chosen, setChosen] = useState(false);
  /** The last courier detection filled in, so a changed number can clear it again. */
  const [auto, setAuto] = useState<string | null>(null);
  /** The courier the number looks like, for the Tracking Number hint. */
  const [detected, setDetected] = useState<string | null>(null);

  const onTrackingChange = (value: string) => {
    const found = detectCourier(value);
    setDetected(found);
    if (chosen) return;
    if (found) {
      const name = matchCourier(found, couriers);
      setAuto(name);
      setValue('courierCompany', name);
    } else if (auto && getValues('courierCompany') === auto) {
      setAuto(null);
      setValue('courierCompany', '');
    }
  };

  return {
    detected,
    onTrackingChange,
    /** Courier Company was picked by hand. */
    onChosen: () => setChosen(true),
    state: { chosen, auto } satisfies CourierDetectionState,
    /** The next package starts with nothing detected. */
    reset: () => {
      setChosen(false);
      setAuto(null);
      setDetected(null);
    },
    /** A failed save puts its package back, detection included. */
    restore: (state: CourierDetectionState, trackingNumber: string) => {
      setChosen(state.chosen);
      setAuto(state.auto);
      setDetected(detectCourier(trackingNumber));
    },
  };
}
