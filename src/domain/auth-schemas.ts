// Request bodies of the account endpoints (DESIGN §3, spec §7), as valibot schemas with Spanish
// messages. Unknown fields are dropped by v.object; the rules themselves live in registration.ts.
import * as v from 'valibot';
import { MSG } from './messages';
import { PASSWORD_MAX } from './password';

const device = v.optional(
  v.object({
    id_device: v.optional(v.string()),
    identifierForVendor: v.optional(v.string()),
    device: v.optional(v.string()),
    model: v.optional(v.string()),
  }),
);

export const CreateUserBody = v.object({
  user: v.object(
    {
      username: v.string(MSG.accountEmpty),
      email: v.string(MSG.emailInvalid),
      password: v.pipe(v.string(MSG.accountEmpty), v.maxLength(PASSWORD_MAX, MSG.passwordLong)),
    },
    MSG.accountEmpty,
  ),
  device,
  /** The solved ALTCHA payload, base64. */
  captcha: v.optional(v.string(MSG.captchaRequired)),
}, MSG.accountEmpty);
export type CreateUserBody = v.InferOutput<typeof CreateUserBody>;

export const LoginBody = v.object({
  user: v.object(
    {
      login: v.pipe(v.string(MSG.loginEmpty), v.maxLength(254, MSG.loginFailed)),
      password: v.pipe(v.string(MSG.loginEmpty), v.maxLength(PASSWORD_MAX, MSG.loginFailed)),
      remember: v.optional(v.boolean()),
    },
    MSG.loginEmpty,
  ),
  device,
  /** The known-device token a previous sign-in of this user returned (login limits spare its owner). */
  device_token: v.optional(v.pipe(v.string(MSG.loginFailed), v.maxLength(200, MSG.loginFailed))),
}, MSG.loginEmpty);
export type LoginBody = v.InferOutput<typeof LoginBody>;

export const PasswordResetRequestBody = v.object({
  user: v.object({ login: v.pipe(v.string(MSG.resetLoginEmpty), v.maxLength(254, MSG.resetLoginEmpty)) }, MSG.resetLoginEmpty),
}, MSG.resetLoginEmpty);

export const PasswordResetConfirmBody = v.object({
  token: v.pipe(v.string(MSG.resetInvalid), v.maxLength(200, MSG.resetInvalid)),
  password: v.pipe(v.string(MSG.accountEmpty), v.maxLength(PASSWORD_MAX, MSG.passwordLong)),
});
