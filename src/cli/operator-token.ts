/** Shortest operator token accepted (characters). */
export const MIN_ADMIN_TOKEN_LENGTH = 16;

/**
 * Why `token` (read from `file`, trimmed) cannot be the operator token, or undefined when
 * it can: one word of at least MIN_ADMIN_TOKEN_LENGTH characters. The one rule for `serve
 * --admin-token-file` and `venues upsert --token-file`; the message never quotes the file
 * (a wrong file may hold other secrets).
 */
export function operatorTokenProblem(token: string, file: string): string | undefined {
  if (token.length >= MIN_ADMIN_TOKEN_LENGTH && !/\s/.test(token)) return undefined;
  return `the operator token in ${file} must be one word of at least ${MIN_ADMIN_TOKEN_LENGTH} characters`;
}
