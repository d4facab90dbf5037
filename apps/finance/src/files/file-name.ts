import { FILE_LIMITS } from '@libs/contracts';
import { CONTROL_CHARACTER_CLASS, wellFormed } from '@libs/safe-text';

/** Characters a file name may not carry into a Content-Disposition or a file system: quotes, separators, wildcards. */
const UNSAFE = new RegExp(`[${CONTROL_CHARACTER_CLASS}"\\\\/:*?<>|;]`, 'g');

/**
 * The name a file is kept and offered under: the uploader's name without its folders, with every unsafe
 * character a `_`, well-formed, at most FILE_LIMITS.name characters; `file` when nothing is left. It is a label,
 * never a path nor a type (the type is read from the content).
 */
export function sanitisedFileName(name: string): string {
  const base = wellFormed(name).split(/[\\/]/).pop() ?? '';
  const safe = base.replace(UNSAFE, '_').trim();
  const bounded = Array.from(safe).slice(0, FILE_LIMITS.name).join('');
  return bounded.replace(/^\.+/, '') || 'file';
}
