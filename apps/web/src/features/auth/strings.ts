import { FieldText } from '@kadr/contract/browser';
import { defineStrings } from '../../shared/i18n/catalog.ts';

/** Sign-in and sign-up strings (spec §4.1); the validation texts are the server's own (`FieldText`). */
export const authStrings = defineStrings({
  loginTitle: 'Вход',
  registerTitle: 'Регистрация',
  tagline: 'Видео, истории, эфиры и общение',
  username: 'Имя пользователя',
  usernameHint: 'От 3 до 32 символов: латинские буквы a–z, цифры и _',
  name: 'Имя',
  password: 'Пароль',
  passwordHint: 'Не короче 8 символов',
  strength: {
    weak: 'Надёжность пароля: слабый. Длинная фраза из нескольких слов надёжнее',
    fair: 'Надёжность пароля: средний',
    strong: 'Надёжность пароля: надёжный',
  },
  showPassword: 'Показать пароль',
  hidePassword: 'Скрыть пароль',
  submitLogin: 'Войти',
  submitRegister: 'Зарегистрироваться',
  submitting: 'Подождите...',
  checkingDevice:
    'Много неудачных попыток входа в этот аккаунт. Проверяем устройство — это займёт несколько секунд',
  noAccount: 'Нет аккаунта?',
  toRegister: 'Зарегистрироваться',
  haveAccount: 'Уже есть аккаунт?',
  toLogin: 'Войти',
  required: 'Заполните это поле',
  logout: 'Выйти',
  loggingOut: 'Выходим...',
  validation: {
    usernameInvalid: FieldText.usernameInvalid,
    nameInvalid: FieldText.nameInvalid,
    passwordTooShort: FieldText.passwordTooShort,
    passwordRepeated: FieldText.passwordRepeated,
    passwordBlank: FieldText.passwordBlank,
    passwordHasUsername: FieldText.passwordHasUsername,
    bioTooLong: FieldText.bioTooLong,
    imageRequired: FieldText.imageRequired,
  },
});
