import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubbedApp } from '../../../test/query-harness.tsx';
import { LiveStarter } from './LiveStarter.tsx';

describe('LiveStarter in a browser without WebRTC (WebKitGTK release builds have no RTCPeerConnection)', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    Reflect.deleteProperty(navigator, 'mediaDevices');
  });

  it('says it cannot stream from here, opens no camera, and cannot start: no stream is made', async () => {
    vi.stubGlobal('RTCPeerConnection', undefined);
    const getUserMedia = vi.fn(async () => ({ getTracks: () => [] }));
    // jsdom has no cameras: a stand-in that would open one.
    Object.defineProperty(navigator, 'mediaDevices', { value: { getUserMedia }, configurable: true });
    const { wrapper, fetchMock } = stubbedApp(() => new Response(null, { status: 500 }));
    render(<LiveStarter />, { wrapper });
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Этот браузер не может вести эфир (в нём нет WebRTC). Откройте Kadr в другом браузере',
    );
    await userEvent.type(screen.getByRole('textbox', { name: /Название эфира/ }), 'Привет{Enter}');
    const start = screen.getByRole('button', { name: 'Начать эфир' });
    expect(start).toBeDisabled();
    expect(getUserMedia).not.toHaveBeenCalled();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
