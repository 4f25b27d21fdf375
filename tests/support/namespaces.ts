/**
 * PID namespaces for the tests of the embedded folder's lease: two containers on one volume are two processes
 * that each see themselves as pid 1. `unshare --pid --fork --mount-proc` makes one where the machine allows it
 * (root, as here and on CI); the tests check, never assume, and say why when it cannot.
 */
import { spawnSync } from 'node:child_process';

const UNSHARE = ['unshare', '--pid', '--fork', '--mount-proc', '--kill-child'];

/** Whether `unshare` makes PID namespaces on this machine: tried once, with `true`. */
export const CAN_UNSHARE = spawnSync(UNSHARE[0] as string, [...UNSHARE.slice(1), 'true']).status === 0;

/** Why a namespaced test cannot run here, for its skip message. */
export const NO_UNSHARE_REASON =
  '`unshare --pid --fork --mount-proc` is not permitted here (it needs root or user namespaces)';

/** `argv` run as pid 1 of a PID namespace of its own (killed with its `unshare`); as it is when unshare cannot. */
export const inNamespace = (argv: string[]): string[] => (CAN_UNSHARE ? [...UNSHARE, ...argv] : argv);
