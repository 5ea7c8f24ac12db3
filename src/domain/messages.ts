// Every Spanish text the spec fixes verbatim lives here, so client and server say the same thing.
export const MSG = {
  generic: 'Parece que tenemos problemas. Por favor, intenta más tarde, ¡lo solucionaremos de inmediato!',
  // registration (spec §5, in the order they are checked)
  accountEmpty: 'No puedes dejar vacíos los detalles de tu cuenta.',
  passwordsDiffer: 'Las contraseñas no coinciden. Verifica para continuar.',
  passwordsDifferBlur: 'Las contraseñas no coinciden. ¿Intenta de nuevo?',
  usernameShort: 'El nombre de usuario es muy corto.',
  usernameHint: 'Al menos 4 caracteres',
  emailInvalid: 'No olvides ingresar una dirección de correo válida.',
  rfcInvalid: 'Por favor ingresa un RFC válido.',
  missingInfo: 'Por favor proporciona toda la información solicitada para completar el registro.',
  countryInvalid: 'Por favor ingresa un código de Residencia Fiscal válido.',
  // ours, where the spec is silent (kept in the same voice)
  usernameLong: 'El nombre de usuario puede tener hasta 25 caracteres.',
  passwordShort: 'Tu contraseña debe tener al menos 8 caracteres.',
  passwordLong: 'Tu contraseña puede tener hasta 128 caracteres.',
  usernameTaken: 'Ese nombre de usuario ya está registrado. Elige otro.',
  emailTaken: 'Ese correo ya está registrado. ¿Olvidaste tu contraseña?',
  rfcTaken: 'Ese RFC ya está en tu cuenta.',
  captchaRequired: 'Resuelve la verificación para continuar.',
  captchaInvalid: 'No pudimos verificar que eres una persona. Intenta de nuevo.',
  loginEmpty: 'Escribe tu usuario o correo y tu contraseña.',
  loginFailed: 'Usuario o contraseña incorrectos.',
  loginRateLimited: 'Demasiados intentos fallidos. Espera 15 minutos e intenta de nuevo.',
  unauthorized: 'Tu sesión terminó. Inicia sesión de nuevo.',
  notFound: 'Este recurso no existe',
  bodyTooLarge: 'La información enviada es demasiado grande.',
  badJson: 'No pudimos leer la información enviada. Revisa el formato.',
  resetSent: 'Si el correo o usuario existe, te enviamos un enlace para restablecer tu contraseña. Revisa tu bandeja y tu carpeta de spam.',
  resetInvalid: 'El enlace para restablecer tu contraseña no es válido o ya expiró. Solicita uno nuevo.',
  resetDone: 'Listo, cambiamos tu contraseña. Ya puedes iniciar sesión.',
  idempotencyMismatch: 'Esta operación ya se envió con otros datos. Recarga e intenta de nuevo.',
  idempotencyInFlight: 'Esta operación todavía se está procesando. Intenta de nuevo en unos segundos.',
  // successes (spec §8)
  infoUpdated: 'Tu información se actualizó con éxito...',
  // screens
  unknownMerchant: 'Ups... Parece que no podemos encontrar lo que buscas...',
} as const;
