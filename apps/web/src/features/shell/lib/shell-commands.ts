import { create } from 'zustand';
import type { ShellCommand } from './nav-config.ts';

type Handler = () => void;

interface ShellCommandsStore {
  handlers: Partial<Record<ShellCommand, Handler>>;
}

/** Features register what a shell entry does; the shell only dispatches. */
export const useShellCommands = create<ShellCommandsStore>(() => ({ handlers: {} }));

export function registerShellCommand(command: ShellCommand, handler: Handler): () => void {
  useShellCommands.setState((s) => ({ handlers: { ...s.handlers, [command]: handler } }));
  return () =>
    useShellCommands.setState((s) => {
      if (s.handlers[command] !== handler) return s;
      const { [command]: _removed, ...rest } = s.handlers;
      return { handlers: rest };
    });
}

export function runShellCommand(command: ShellCommand): boolean {
  const handler = useShellCommands.getState().handlers[command];
  handler?.();
  return handler !== undefined;
}
