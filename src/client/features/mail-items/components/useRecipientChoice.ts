import type { RecipientSource } from '@contract';
import { useState } from 'react';
import type { RecipientChoice } from './RecipientCombobox';

/**
 * The recipient picked on Log Mail or Edit Mail Item, how it was picked (decision 047: the label,
 * one of those who expect the number, or the clerk), the text typed in the picker, and the field's
 * message. Log Mail clears the message as soon as the clerk types again; Edit keeps it until a
 * recipient is picked.
 */
export function useRecipientChoice(initial: RecipientChoice | null, { clearErrorOnType = false } = {}) {
  const [recipient, setRecipient] = useState(initial);
  const [source, setSource] = useState<RecipientSource>('clerk');
  const [text, setText] = useState('');
  const [error, setError] = useState<string>();

  return {
    recipient,
    setRecipient,
    /** How the recipient was chosen, sent with the intake for its timeline. */
    source,
    setSource,
    /** Chooses `next` as `how` says (the label reader, an offered expecter, the clerk). */
    choose: (next: RecipientChoice | null, how: RecipientSource) => {
      setRecipient(next);
      setSource(how);
      setError(undefined);
    },
    text,
    setText,
    setError,
    /** The props RecipientField takes from the choice. */
    field: {
      value: recipient,
      onChange: (next: RecipientChoice | null, offered = false) => {
        setRecipient(next);
        setSource(offered ? 'expected' : 'clerk');
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
