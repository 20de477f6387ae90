/** Where the boot script (app/boot/boot-script.ts) leaves the answers it started: URL → response. */
export const BOOT_GLOBAL = '__kadrBoot';

export type BootResponses = Map<string, Promise<Response>>;
