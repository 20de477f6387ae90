import { useState } from 'react';
import { isApiError } from '../../../shared/api/client.ts';
import { ru } from '../../../shared/i18n/ru.ts';
import type { FieldErrors } from '../lib/validation.ts';

/**
 * Field errors from client checks and from the server's `fields`, plus one form-level message for
 * whatever the server said that no field shows.
 */
export function useFormErrors<F extends string>(fieldNames: readonly F[]) {
  const [fieldErrors, setFieldErrors] = useState<FieldErrors<F>>({});
  const [formError, setFormError] = useState<string | null>(null);

  const clearField = (field: F) => {
    setFieldErrors((current) => {
      if (!current[field]) return current;
      const { [field]: _removed, ...rest } = current;
      return rest as FieldErrors<F>;
    });
    setFormError(null);
  };

  const showServerError = (error: unknown) => {
    if (!isApiError(error)) {
      setFormError(ru.app.unknownError);
      return;
    }
    const next: FieldErrors<F> = {};
    for (const field of fieldNames) {
      const message = error.fields[field];
      if (message) next[field] = message;
    }
    setFieldErrors(next);
    setFormError(Object.keys(next).length > 0 ? null : error.message);
  };

  const reset = (errors: FieldErrors<F>) => {
    setFieldErrors(errors);
    setFormError(null);
  };

  return { fieldErrors, formError, clearField, showServerError, reset };
}
