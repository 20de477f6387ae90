/** Machine-readable error codes. Every 4xx/5xx answer is `{ error, code }` with one of these. */
export const ErrorCode = {
  validationFailed: 'validation_failed',
  bodyTooLarge: 'body_too_large',
  /** 414: the request's address (path and query) is too long. */
  uriTooLong: 'uri_too_long',
  /** 431: the request's headers are too large. */
  headersTooLarge: 'headers_too_large',
  /** 408: the request did not arrive in time. */
  requestTimeout: 'request_timeout',
  unauthorized: 'unauthorized',
  invalidCredentials: 'invalid_credentials',
  forbidden: 'forbidden',
  notFound: 'not_found',
  usernameTaken: 'username_taken',
  rateLimited: 'rate_limited',
  /** The node's send queue is backed up (a busy database): the send is refused at once, try again shortly. */
  serverBusy: 'server_busy',
  cannotFollowSelf: 'cannot_follow_self',
  /** A private account's posts, stories and lists are for its followers. */
  privateAccount: 'private_account',
  /** No pending follow request from that person. */
  noFollowRequest: 'no_follow_request',
  cannotReportOwnStory: 'cannot_report_own_story',
  unsupportedMediaType: 'unsupported_media_type',
  payloadTooLarge: 'payload_too_large',
  editWindowExpired: 'edit_window_expired',
  cannotDeleteFavorites: 'cannot_delete_favorites',
  slugTaken: 'slug_taken',
  inviteInvalid: 'invite_invalid',
  /** Removed from a group by an admin: the link and public joining stay closed to them until re-added. */
  removedFromGroup: 'removed_from_group',
  /** A forward of a message whose attachment is not ready yet. */
  attachmentProcessing: 'attachment_processing',
  /** An edit of a post (its alt text) before its processing has finished. */
  postProcessing: 'post_processing',
  /** Settings (privacy enforced on the server): why a message or a call was refused. */
  messagesRestricted: 'messages_restricted',
  callsRestricted: 'calls_restricted',
  blocked: 'blocked',
  blockedByMe: 'blocked_by_me',
  wrongPassword: 'wrong_password',
  /** Many wrong passwords for this username: solve the attached proof-of-work challenge and try again. */
  loginChallengeRequired: 'login_challenge_required',
  /** Demo content goes only onto an instance without posts. */
  instanceNotEmpty: 'instance_not_empty',
  /** Moderation: the account is suspended (login refused); the text says until when. */
  accountSuspended: 'account_suspended',
  alreadyReported: 'already_reported',
  cannotReportOwn: 'cannot_report_own',
  /** The queue entry's kind has no such action, or the action does not fit its state. */
  moderationActionInvalid: 'moderation_action_invalid',
  internal: 'internal',
  // Blocks and reach: an invitation to a group or channel (who may add me).
  invitationNotFound: 'invitation_not_found',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** Russian texts the server answers with; the web shows them as they come. */
/**
 * The account form's field texts, kept apart from `ErrorText` (which spreads them) so the web's sign-in and
 * sign-up forms check fields with the server's words without loading every error text with the first scripts.
 */
export const FieldText = {
  usernameInvalid: 'Имя пользователя: от 3 до 32 символов, только a–z, 0–9 и _',
  nameInvalid: 'Имя: от 1 до 64 символов',
  passwordTooShort: 'Пароль должен быть не короче 8 символов',
  passwordRepeated: 'Пароль не может состоять из одного повторяющегося символа',
  passwordBlank: 'Пароль не может состоять только из пробелов',
  passwordHasUsername: 'Пароль не должен содержать имя пользователя',
  bioTooLong: 'О себе: не более 300 символов',
  imageRequired: 'Загрузите изображение (JPEG, PNG, WebP, GIF или AVIF)',
} as const;
