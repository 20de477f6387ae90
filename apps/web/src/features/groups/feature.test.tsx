import { render, screen, waitFor } from '@testing-library/react';
import { Routes } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { stubbedApp } from '../../test/query-harness.tsx';
import { groupsFeature } from './feature.ts';

const preloadRoomChat = vi.hoisted(() => vi.fn(async () => undefined));
vi.mock('../messenger/components/MessengerView.tsx', () => ({ MessengerView: () => null, preloadRoomChat }));

describe('the groups feature’s routes', () => {
  it('a link to a group starts loading the messenger and the room’s window beside the preview', async () => {
    const { wrapper } = stubbedApp(() => new Promise<Response>(() => undefined));
    render(<Routes location="/messenger/group/club">{groupsFeature.routes}</Routes>, { wrapper });
    expect(await screen.findByTestId('group-preview')).toBeInTheDocument();
    await waitFor(() => expect(preloadRoomChat).toHaveBeenCalledTimes(1));
  });
});
