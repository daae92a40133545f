import { useState } from 'react';
import type { RecipientChoice } from './RecipientCombobox';

/**
 * The recipient picked on Log Mail or Edit Mail Item, the text typed in the picker, and the
 * field's message. Log Mail clears the message as soon as the clerk types again; Edit keeps it
 * until a recipient is picked.
 */
export function useRecipientChoice(initial: RecipientChoice | null, { clearErrorOnType = false } = {}) {
  const [recipient, setRecipient] = useState(initial);
  const [text, setText] = useState('');
  const [error, setError] = useState<string>();

  return {
    recipient,
    setRecipient,
    text,
    setText,
    setError,
    /** The props RecipientField takes from the choice. */
    field: {
      value: recipient,
      onChange: (next: RecipientChoice | null) => {
        setRecipient(next);
        setError(undefined);
      },
      onTextChange: (typed: string) => {
        setText(typed);
        if (clearErrorOnType) setError(undefined);
      },
      error,
    },
    /** Text typed without picking anyone is refused with `message` (true when it was). */
    refuseUnpicked: (message: string) => {
      if (!text.trim() || recipient) return false;
      setError(message);
      return true;
    },
  };
}
