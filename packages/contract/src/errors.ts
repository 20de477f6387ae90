import { type Static, Type } from 'typebox';

/** Machine-readable error codes. Every 4xx/5xx answer is `{ error, code }` with one of these. */
export const ErrorCode = {
  validationFailed: 'validation_failed',
  bodyTooLarge: 'body_too_large',
  unauthorized: 'unauthorized',
  invalidCredentials: 'invalid_credentials',
  forbidden: 'forbidden',
  notFound: 'not_found',
  usernameTaken: 'username_taken',
  rateLimited: 'rate_limited',
  cannotFollowSelf: 'cannot_follow_self',
  unsupportedMediaType: 'unsupported_media_type',
  payloadTooLarge: 'payload_too_large',
  editWindowExpired: 'edit_window_expired',
  cannotDeleteFavorites: 'cannot_delete_favorites',
  internal: 'internal',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

export const ErrorBody = Type.Object({
  error: Type.String({ description: 'Russian text a user can read' }),
  code: Type.String({ description: 'machine code, see ErrorCode' }),
  /** Per-field messages for forms (field name → Russian text). */
  fields: Type.Optional(Type.Record(Type.String(), Type.String())),
});
export type ErrorBody = Static<typeof ErrorBody>;

/** Russian texts the server answers with; the web shows them as they come. */
export const ErrorText = {
  validationFailed: 'Проверьте введённые данные',
  malformedBody: 'Некорректный запрос',
  bodyTooLarge: 'Слишком большой запрос',
  unauthorized: 'Нет активной сессии',
  invalidCredentials: 'Неверное имя пользователя или пароль',
  forbidden: 'Недостаточно прав',
  notFound: 'Не найдено',
  userNotFound: 'Пользователь не найден',
  usernameTaken: 'Это имя пользователя уже занято',
  rateLimited: 'Слишком много попыток. Попробуйте позже',
  cannotFollowSelf: 'Нельзя подписаться на самого себя',
  usernameInvalid: 'Имя пользователя: от 3 до 32 символов, только a–z, 0–9 и _',
  nameInvalid: 'Имя: от 1 до 64 символов',
  passwordTooShort: 'Пароль должен быть не короче 8 символов',
  passwordTooCommon: 'Этот пароль слишком распространён, выберите другой',
  bioTooLong: 'О себе: не более 300 символов',
  imageRequired: 'Загрузите изображение (JPEG, PNG, WebP, GIF или AVIF)',
  internal: 'Внутренняя ошибка сервера',
  // Media feed (spec §5 post upload, comment; §8).
  uploadWrongType: 'Пожалуйста, выберите видео или изображения',
  uploadWrongCombination: 'Выберите либо одно видео, либо одно или несколько изображений',
  uploadNoFiles: 'Пожалуйста, выберите файлы для загрузки',
  uploadCoverNotImage: 'Пожалуйста, выберите изображение для обложки',
  uploadCaptionTooLong: 'Подпись: не более 500 символов',
  uploadTooLarge: 'Файл слишком большой',
  uploadTooManyImages: 'Слишком много изображений в карусели',
  uploadFailed: 'Ошибка при загрузке. Попробуйте снова.',
  postNotFound: 'Публикация не найдена',
  postDeleteForbidden: 'Удалить публикацию может только её автор',
  postEditForbidden: 'Изменить публикацию может только её автор',
  commentEmpty: 'Комментарий не может быть пустым',
  commentTooLong: 'Комментарий: не более 500 символов',
  commentFailed: 'Не удалось отправить комментарий',
  unknownTag: 'Такого тега нет',
  // Messenger (spec §4.11, §6, §8).
  chatUnavailable: 'Чат недоступен',
  chatNotFound: 'Чат не найден',
  messageNotFound: 'Сообщение не найдено',
  messageEmpty: 'Сообщение не может быть пустым',
  messageTooLong: 'Сообщение: не более 4096 символов',
  messageEditForbidden: 'Редактировать можно только свои сообщения',
  messageEditExpired: 'Сообщение можно редактировать только в течение часа',
  messageDeleteForbidden: 'Удалить для всех можно только своё сообщение',
  cannotDeleteFavorites: 'Избранное нельзя удалить',
  attachmentNotFound: 'Вложение не найдено',
  attachmentWrongType: 'Этот тип файла нельзя отправить',
} as const;
