import { describe, expect, it } from 'vitest';
import { cameraErrorMessage, deviceFailure, microphoneErrorMessage } from './device-errors.ts';

const domError = (name: string) => new DOMException('browser says no', name);

describe('camera error texts (spec §8)', () => {
  it.each([
    [
      'NotAllowedError',
      'Доступ к камере заблокирован. Проверьте разрешения браузера и перезапустите приложение.',
    ],
    [
      'SecurityError',
      'Доступ к камере заблокирован. Проверьте разрешения браузера и перезапустите приложение.',
    ],
    ['NotFoundError', 'Камера не найдена. Подключите устройство или проверьте настройки.'],
    ['OverconstrainedError', 'Камера не найдена. Подключите устройство или проверьте настройки.'],
    ['NotReadableError', 'Выбранная камера недоступна. Попробуйте переключить устройство.'],
    ['AbortError', 'Выбранная камера недоступна. Попробуйте переключить устройство.'],
    ['TypeError', 'Не удалось получить доступ к камере'],
  ])('%s → %s', (name, text) => {
    expect(cameraErrorMessage(domError(name))).toBe(text);
  });

  it('reads the name of plain errors and objects too (OverconstrainedError is not a DOMException everywhere)', () => {
    expect(cameraErrorMessage({ name: 'OverconstrainedError', constraint: 'width' })).toBe(
      'Камера не найдена. Подключите устройство или проверьте настройки.',
    );
    expect(cameraErrorMessage(Object.assign(new Error('x'), { name: 'NotAllowedError' }))).toBe(
      'Доступ к камере заблокирован. Проверьте разрешения браузера и перезапустите приложение.',
    );
  });

  it('falls back to the generic text for anything unknown', () => {
    for (const value of [undefined, null, 'NotAllowedError', 42, new Error('boom'), { name: 7 }]) {
      expect(cameraErrorMessage(value)).toBe('Не удалось получить доступ к камере');
    }
  });

  it('maps the legacy Chrome names to the same groups', () => {
    expect(deviceFailure(domError('PermissionDeniedError'))).toBe('blocked');
    expect(deviceFailure(domError('DevicesNotFoundError'))).toBe('not-found');
    expect(deviceFailure(domError('TrackStartError'))).toBe('unavailable');
  });

  it('words microphone failures for the microphone', () => {
    expect(microphoneErrorMessage(domError('NotAllowedError'))).toMatch(/микрофон/);
    expect(microphoneErrorMessage(domError('NotAllowedError'))).not.toMatch(/камер/);
  });
});
