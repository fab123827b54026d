import { useState } from 'react';
import { ApiError } from '../../lib/api-error';

/**
 * Form state of a manage screen's add/edit modal: values, field errors and a save's failure (the save itself is a
 * feature's mutation, whose `isPending` disables the buttons).
 */
export function useEditor<T extends Record<string, string>>(empty: T) {
  const [values, setValues] = useState<T>(empty);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const set = (name: keyof T) => (event: { target: { value: string } }) => {
    setValues((v) => ({ ...v, [name]: event.target.value }));
    // A message answers what was typed before: it goes once the field changes.
    setErrors((e) => {
      if (!(name in e)) return e;
      const { [name as string]: _gone, ...rest } = e;
      return rest;
    });
  };
  const reset = (next: T) => { setValues(next); setErrors({}); setFailure(null); };

  /** Runs a save: field errors from the server (400) go under their fields, anything else to `failure`. */
  async function save(run: () => Promise<unknown>, fallback: string): Promise<boolean> {
    setFailure(null);
    try {
      await run();
      return true;
    } catch (error) {
      if (error instanceof ApiError && error.code === 400) {
        const fields = error.errors ?? {};
        setErrors(fields);
        if (!Object.keys(fields).length) setFailure(error.message);
        else if (Object.keys(fields).some((k) => !(k in values))) setFailure(error.message);
      } else setFailure(fallback);
      return false;
    }
  }
  return { values, setValues, errors, setErrors, failure, set, reset, save };
}
