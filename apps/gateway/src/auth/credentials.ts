import { z } from 'zod';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './password';

/** Emails are compared in lower case: Ada@Example.org and ada@example.org are one account. */
export const emailField = z
  .string({ message: 'must be a string' })
  .max(254, { message: 'must be at most 254 characters' })
  .pipe(z.email({ message: 'must be an email address such as ada@example.org' }))
  .transform((email) => email.toLowerCase());

export const passwordField = z
  .string({ message: 'must be a string' })
  .min(PASSWORD_MIN_LENGTH, { message: `must be at least ${PASSWORD_MIN_LENGTH} characters` })
  .max(PASSWORD_MAX_LENGTH, { message: `must be at most ${PASSWORD_MAX_LENGTH} characters` });

export const credentialsBody = z.object({ email: emailField, password: passwordField }).strict();
