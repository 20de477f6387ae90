import { ErrorBody } from '../errors.ts';
import { defineRoute } from '../route.ts';
import { InvitationAnswer, InvitationIdParams, InvitationsResponse } from './schemas.ts';

/** «Приглашения»: the caller's pending invitations into groups and channels; another's id is 404. */
export const invitationsRoutes = {
  list: defineRoute({
    method: 'GET',
    path: '/invitations',
    access: 'user',
    summary: 'Pending invitations to the caller, newest first.',
    response: { 200: InvitationsResponse, 401: ErrorBody },
  }),
  accept: defineRoute({
    method: 'POST',
    path: '/invitations/:id/accept',
    access: 'user',
    who: 'the invitee',
    summary: 'Joins the group or channel (or becomes its administrator) the invitation names.',
    params: InvitationIdParams,
    response: { 200: InvitationAnswer, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody },
  }),
  decline: defineRoute({
    method: 'POST',
    path: '/invitations/:id/decline',
    access: 'user',
    who: 'the invitee',
    params: InvitationIdParams,
    response: { 200: InvitationAnswer, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody },
  }),
};
