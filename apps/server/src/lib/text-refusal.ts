import { ErrorCode, ErrorText, type TextProblem } from '@kadr/contract';
import { AppError } from './errors.ts';

/** The Russian reason and the fields for text the contract's normaliser refused. */
export function textRefusal(problems: TextProblem[]): AppError {
  const message = problems.some((p) => p.reason === 'invisible')
    ? ErrorText.nameInvisible
    : ErrorText.textControlCharacters;
  const fields: Record<string, string> = {};
  for (const p of problems)
    fields[p.field || 'body'] =
      p.reason === 'invisible' ? ErrorText.nameInvisible : ErrorText.textControlCharacters;
  return new AppError(400, ErrorCode.validationFailed, message, fields);
}
