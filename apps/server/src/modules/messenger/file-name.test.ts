import { describe, expect, it } from 'vitest';
import { cleanFileName } from './attachments.ts';

describe('an attachment’s file name as others see it', () => {
  it('loses direction overrides, zero-width and control characters; an invisible-only name is none', () => {
    expect(cleanFileName('C:\\Users\\a\\photo\u202Egpj.exe')).toBe('photogpj.exe');
    expect(cleanFileName('отчёт\u200B\u0007.pdf')).toBe('отчёт.pdf');
    expect(cleanFileName('\u3164\u200B')).toBeNull();
    expect(cleanFileName(undefined)).toBeNull();
  });
});
