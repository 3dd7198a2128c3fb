// Field rules of core-platform.md §5.1, with the messages word for word.

export const PHONE_MAX_LENGTH = 11;
export const CODE_MAX_LENGTH = 6;

export const PhoneMessages = {
  EMPTY: '手机号不能为空',
  FORMAT: '手机号格式不正确',
} as const;
export const CODE_EMPTY_MESSAGE = '验证码不能为空';

/** 11 digits starting with 1. */
const PHONE_PATTERN = /^1\d{10}$/;

/** The first problem with a phone number, or null when it is valid. */
export function validatePhone(phone: string): string | null {
  const v = phone.trim();
  if (!v) return PhoneMessages.EMPTY;
  if (!PHONE_PATTERN.test(v)) return PhoneMessages.FORMAT;
  return null;
}

/** The problem with an SMS code, or null when it can be sent. */
export function validateCode(code: string): string | null {
  return code.trim() ? null : CODE_EMPTY_MESSAGE;
}
