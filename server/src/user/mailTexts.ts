import type { LocaleCode, VerifyCodeType } from '../../../src/api/types';

const texts: Record<LocaleCode, Record<VerifyCodeType, { subject: string; body: (code: string, minutes: number) => string }>> = {
  'zh-CN': {
    register: {
      subject: '量化交易注册验证码',
      body: (code, minutes) => `您的注册验证码是：${code}\n\n验证码 ${minutes} 分钟内有效，仅可使用一次。如果这不是您本人的操作，请忽略此邮件。`,
    },
    reset: {
      subject: '量化交易找回密码验证码',
      body: (code, minutes) => `您正在重置密码，验证码是：${code}\n\n验证码 ${minutes} 分钟内有效，仅可使用一次。重置后所有已登录的设备都需要重新登录。如果这不是您本人的操作，请忽略此邮件，您的密码不会改变。`,
    },
  },
  'en-US': {
    register: {
      subject: 'Your Quant Trader sign-up code',
      body: (code, minutes) => `Your sign-up code is: ${code}\n\nIt is valid for ${minutes} minutes and can be used once. If you did not ask for it, ignore this mail.`,
    },
    reset: {
      subject: 'Your Quant Trader password reset code',
      body: (code, minutes) => `Your password reset code is: ${code}\n\nIt is valid for ${minutes} minutes and can be used once. After the reset every signed-in device has to log in again. If you did not ask for it, ignore this mail; your password stays as it is.`,
    },
  },
  'zh-TW': {
    register: {
      subject: '量化交易註冊驗證碼',
      body: (code, minutes) => `您的註冊驗證碼是：${code}\n\n驗證碼 ${minutes} 分鐘內有效，僅可使用一次。如果這不是您本人的操作，請忽略此郵件。`,
    },
    reset: {
      subject: '量化交易找回密碼驗證碼',
      body: (code, minutes) => `您正在重設密碼，驗證碼是：${code}\n\n驗證碼 ${minutes} 分鐘內有效，僅可使用一次。重設後所有已登入的裝置都需要重新登入。如果這不是您本人的操作，請忽略此郵件，您的密碼不會改變。`,
    },
  },
};

export const verificationMail = (locale: LocaleCode, type: VerifyCodeType, code: string, minutes: number) => ({
  subject: texts[locale][type].subject,
  text: texts[locale][type].body(code, minutes),
});
