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
    change_email: {
      subject: '量化交易修改邮箱验证码',
      body: (code, minutes) => `您正在把量化交易账户的邮箱改为此地址，验证码是：${code}\n\n验证码 ${minutes} 分钟内有效，仅可使用一次。如果这不是您本人的操作，请忽略此邮件，不会有任何改变。`,
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
    change_email: {
      subject: 'Your Quant Trader e-mail change code',
      body: (code, minutes) => `You are moving your Quant Trader account to this address. Your code is: ${code}\n\nIt is valid for ${minutes} minutes and can be used once. If you did not ask for it, ignore this mail; nothing changes.`,
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
    change_email: {
      subject: '量化交易修改信箱驗證碼',
      body: (code, minutes) => `您正在把量化交易帳戶的信箱改為此地址，驗證碼是：${code}\n\n驗證碼 ${minutes} 分鐘內有效，僅可使用一次。如果這不是您本人的操作，請忽略此郵件，不會有任何改變。`,
    },
  },
};

export const verificationMail = (locale: LocaleCode, type: VerifyCodeType, code: string, minutes: number) => ({
  subject: texts[locale][type].subject,
  text: texts[locale][type].body(code, minutes),
});

/** The mail to the address an account just left (README "E-mail change"): when, to which address (masked), the hold, and what to do if it was not the owner. */
const changedTexts: Record<LocaleCode, { subject: string; body: (to: string, at: string, hours: number) => string }> = {
  'zh-CN': {
    subject: '量化交易账户邮箱已修改',
    body: (to, at, hours) =>
      `您的量化交易账户邮箱已于 ${at}（UTC）改为 ${to}，此地址以后不再收到该账户的邮件。其他设备上的登录已全部退出；为保护资金，${hours} 小时内暂停提现和转账。\n\n如果这不是您本人的操作，请立即联系客服。`,
  },
  'en-US': {
    subject: 'The e-mail address of your Quant Trader account was changed',
    body: (to, at, hours) =>
      `The e-mail address of your Quant Trader account was changed to ${to} at ${at} (UTC); this address will not receive the account's mails any more. Every other device was logged out, and withdrawals and transfers are on hold for ${hours} hours to keep your money safe.\n\nIf this was not you, contact support at once.`,
  },
  'zh-TW': {
    subject: '量化交易帳戶信箱已修改',
    body: (to, at, hours) =>
      `您的量化交易帳戶信箱已於 ${at}（UTC）改為 ${to}，此地址以後不再收到該帳戶的郵件。其他裝置上的登入已全部登出；為保護資金，${hours} 小時內暫停提領和轉帳。\n\n如果這不是您本人的操作，請立即聯絡客服。`,
  },
};

export const emailChangedMail = (locale: LocaleCode, maskedNewEmail: string, at: Date, holdHours: number) => ({
  subject: changedTexts[locale].subject,
  text: changedTexts[locale].body(maskedNewEmail, at.toISOString().slice(0, 16).replace('T', ' '), holdHours),
});
