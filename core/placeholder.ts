/**
 * What a machine's effect does until it is provided: fail loudly, naming it. Machines declare every action,
 * guard and actor they use with this as its body; src/platform/ supplies the real ones with `.provide(...)`,
 * and tests supply fakes, so an effect that nobody provided is an error at its first use, never a silent no-op.
 */
export function placeholder(name: string): never {
  throw new Error(`${name} is not provided`);
}
