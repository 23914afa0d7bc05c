/**
 * The signals that stop a command from a terminal (Ctrl-C: SIGINT; a closed terminal: SIGHUP)
 * or a service manager (SIGTERM). A command that must tidy up first (a partial file, the
 * terminal's cursor, a summary of what was sent) listens to these, then stops the process as
 * the signal would have.
 */
export const STOP_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
