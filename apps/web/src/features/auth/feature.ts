import { createElement, lazy } from 'react';
import { Route } from 'react-router';
import { defineFeature } from '../../app/feature.ts';

const LoginRoute = lazy(() => import('../../routes/LoginRoute.tsx'));
const RegisterRoute = lazy(() => import('../../routes/RegisterRoute.tsx'));

/** Sign in and sign up (`/login`, `/register`, spec §4.1); the session bootstrap lives in app/. */
export const authFeature = defineFeature({
  name: 'auth',
  guestRoutes: [
    createElement(Route, { key: 'login', path: 'login', element: createElement(LoginRoute) }),
    createElement(Route, { key: 'register', path: 'register', element: createElement(RegisterRoute) }),
  ],
});
