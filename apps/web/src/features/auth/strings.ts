import { ErrorText } from '@kadr/contract/browser';
import { defineStrings } from '../../shared/i18n/catalog.ts';

/** Sign-in and sign-up strings (spec §4.1); the validation texts are the server's own (`ErrorText`). */
export const authStrings = defineStrings({
  loginTitle: 'Вход',
  registerTitle: 'Регистрация',
  tagline: 'Видео, истории, эфиры и общение',
  username: 'Имя пользователя',
  usernameHint: 'От 3 до 32 символов: латинские буквы a–z, цифры и _',
  name: 'Имя',
  password: 'Пароль',
  passwordHint: 'Не короче 8 символов',
  showPassword: 'Показать пароль',
  hidePassword: 'Скрыть пароль',
  submitLogin: 'Войти',
  submitRegister: 'Зарегистрироваться',
  submitting: 'Подождите...',
  noAccount: 'Нет аккаунта?',
  toRegister: 'Зарегистрироваться',
  haveAccount: 'Уже есть аккаунт?',
  toLogin: 'Войти',
  required: 'Заполните это поле',
  logout: 'Выйти',
  loggingOut: 'Выходим...',
  validation: {
    usernameInvalid: ErrorText.usernameInvalid,
    nameInvalid: ErrorText.nameInvalid,
    passwordTooShort: ErrorText.passwordTooShort,
    bioTooLong: ErrorText.bioTooLong,
    imageRequired: ErrorText.imageRequired,
  },
});
