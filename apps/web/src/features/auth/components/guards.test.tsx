import { act, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { me } from '../../../test/fixtures.ts';
import { useAuthStore } from '../auth-store.ts';
import { RequireAuth } from './guards.tsx';

function renderGuarded() {
  return render(
    <MemoryRouter initialEntries={['/home']}>
      <Routes>
        <Route element={<RequireAuth />}>
          <Route path="home" element={<p>shell</p>} />
        </Route>
        <Route path="login" element={<p>login</p>} />
      </Routes>
    </MemoryRouter>,
  );
}

afterEach(() => useAuthStore.setState({ auth: { status: 'guest' } }));

describe('RequireAuth', () => {
  it('shows the signed-in page once the session check answers', async () => {
    useAuthStore.setState({ auth: { status: 'checking', token: 't', user: null } });
    renderGuarded();
    expect(screen.queryByText('shell')).toBeNull();
    act(() => useAuthStore.getState().setUser(me));
    expect(await screen.findByText('shell')).toBeTruthy();
  });

  it('sends a signed-out user to /login at once', async () => {
    useAuthStore.setState({ auth: { status: 'signedIn', token: 't', user: me } });
    renderGuarded();
    expect(screen.getByText('shell')).toBeTruthy();
    act(() => useAuthStore.getState().clear());
    expect(screen.getByText('login')).toBeTruthy();
    expect(screen.queryByText('shell')).toBeNull();
  });
});
